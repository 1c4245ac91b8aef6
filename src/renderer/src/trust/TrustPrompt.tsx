import { useState } from 'react';
import type { TrustRequest, TrustedFields, WorktreeTrustFields } from '../../../shared/trust';
import { run, useUi, type TrustPromptState } from '../app/store';
import { isSecretEnv, shownEnvPair } from '../../../shared/secretEnv';

/**
 * What the project's switchboard.json would run, before anything runs: every entry that waits for
 * trust, with its command line, working directory, environment and MCP scopes (and, for a change,
 * what is trusted now). Nothing starts until the user trusts it here.
 */
export function TrustPrompt() {
  const prompt = useUi((s) => s.trustPrompt);
  return prompt ? <TrustDialog key={prompt.serial} prompt={prompt} /> : null;
}

function TrustDialog({ prompt }: { prompt: TrustPromptState }) {
  const trust = useUi((s) => s.trust);
  const project = useUi((s) => s.project);
  const processes = useUi((s) => s.processes);
  const requests = (trust?.pending ?? []).filter((r) => !prompt?.keys || prompt.keys.includes(r.key));
  const [unchecked, setUnchecked] = useState<ReadonlySet<string>>(new Set());
  if (requests.length === 0) return null;
  const chosen = requests.filter((r) => !unchecked.has(r.key)).map((r) => r.key);
  const close = () => useUi.getState().closeTrustPrompt();
  const trustChosen = async () => {
    const startId = prompt.startId;
    if (startId) await run((c) => c.call('trustAndStart', { id: startId }));
    else await run((c) => c.call('grantTrust', { keys: chosen }));
    close();
  };
  const toggle = (key: string) => {
    const next = new Set(unchecked);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setUnchecked(next);
  };
  const onlyFolder = requests.every((r) => r.kind === 'folder');
  const title = onlyFolder
    ? `Do you trust the folder ${project?.name ?? ''}?`
    : trust?.firstOpen
      ? `Do you trust the commands of ${project?.name ?? 'this project'}?`
      : 'switchboard.json changed';
  return (
    <div className="trust-backdrop">
      <div className="trust-prompt" role="dialog" aria-modal="true" aria-labelledby="trust-title" data-testid="trust-prompt">
        <h2 id="trust-title">{title}</h2>
        <p className="trust-lead">
          {trust?.firstOpen
            ? 'Switchboard has not run anything from this project yet. Trust only what you would run yourself: a cloned repository or an agent may have written these commands.'
            : 'These entries are new or changed since you trusted them. Until you trust them they start nothing; what runs now keeps running.'}{' '}
          {!trust?.folderTrusted &&
            'Trusting anything here also lets Switchboard run git in this folder (hardened: none of its hooks, filters or config programs run).'}{' '}
          <span className="trust-dir">{project?.dir}</span>
        </p>
        <ul className="trust-list">
          {requests.map((r) => (
            <li key={r.key} data-testid="trust-request" data-key={r.key}>
              {!prompt.startId && (
                <input type="checkbox" checked={!unchecked.has(r.key)} onChange={() => toggle(r.key)} aria-label={`Trust ${r.key}`} />
              )}
              <div className="trust-entry">
                <div>
                  <strong>{r.name}</strong> <span className="pane-kind">{r.kind}</span>{' '}
                  <span className={`trust-change trust-${r.change}`}>{r.change === 'new' ? 'new' : 'changed'}</span>
                  {r.autoStart && <span className="trust-auto"> · starts on open</span>}
                </div>
                {r.kind === 'folder' ? (
                  <FolderFields />
                ) : r.worktrees ? (
                  <WorktreeFields worktrees={r.worktrees} />
                ) : (
                  <Fields fields={r} projectDir={project?.dir} />
                )}
                {r.previous && !r.worktrees && <Previous request={r} projectDir={project?.dir} />}
                {r.change === 'changed' && runningNote(r, processes)}
              </div>
            </li>
          ))}
        </ul>
        <div className="trust-actions">
          <button data-testid="trust-dismiss" onClick={close}>
            Not now
          </button>
          <button className="primary" data-testid="trust-accept" disabled={chosen.length === 0} onClick={() => void trustChosen()}>
            {prompt.startId
              ? 'Trust and start'
              : chosen.length === requests.length
                ? 'Trust and run'
                : `Trust ${chosen.length} of ${requests.length}`}
          </button>
        </div>
      </div>
    </div>
  );
}

function Fields({ fields, projectDir }: { fields: TrustedFields; projectDir?: string }) {
  const env = Object.entries(fields.env);
  // Secret-looking values are masked until a person asks to see them (a shared screen must not show a key).
  const [revealed, setRevealed] = useState(false);
  const hasSecret = env.some(([name, value]) => isSecretEnv(name, value));
  return (
    <dl className="trust-fields">
      <dt>runs</dt>
      <dd>
        <code data-testid="trust-command">{commandLine(fields.argv)}</code>
      </dd>
      <dt>in</dt>
      <dd>
        <code>{relativeDir(fields.cwd, projectDir)}</code>
      </dd>
      {env.length > 0 && (
        <>
          <dt>env</dt>
          <dd>
            <code data-testid="trust-env">{env.map(([k, v]) => shownEnvPair(k, v, revealed)).join(' ')}</code>
            {hasSecret && (
              <button
                className="trust-reveal"
                data-testid="trust-reveal"
                aria-pressed={revealed}
                aria-label={revealed ? 'Hide secret values' : 'Show secret values'}
                onClick={() => setRevealed(!revealed)}
              >
                {revealed ? 'hide' : 'show'}
              </button>
            )}
          </dd>
        </>
      )}
      {fields.scopes && (
        <>
          <dt>MCP</dt>
          <dd>{fields.scopes.length > 0 ? `token with ${fields.scopes.join(', ')}` : 'token with default rights'}</dd>
        </>
      )}
    </dl>
  );
}

/** The folder itself: nothing of switchboard.json waits, only the folder's git. */
function FolderFields() {
  return (
    <dl className="trust-fields">
      <dt>allows</dt>
      <dd>
        Switchboard to run git here — list, review, commit and merge worktrees — with the repository's own hooks, filters, fsmonitor and
        other config programs turned off (docs/security.md, "Hostile folders").
      </dd>
    </dl>
  );
}

/** switchboard.json's `worktrees` section: where worktrees land, what is copied in, what runs there. */
function WorktreeFields({ worktrees }: { worktrees: WorktreeTrustFields }) {
  return (
    <dl className="trust-fields">
      <dt>folder</dt>
      <dd>
        <code data-testid="trust-worktrees-dir">{worktrees.dir ?? "Switchboard's own folder (its data directory)"}</code>
        {worktrees.dirEscapes && (
          <div className="trust-note" data-testid="trust-worktrees-escapes">
            Outside the project's folder: new worktrees are written there.
          </div>
        )}
      </dd>
      {worktrees.copy.length > 0 && (
        <>
          <dt>copies</dt>
          <dd>
            <code>{worktrees.copy.join(' ')}</code> (untracked files, into each new worktree)
          </dd>
        </>
      )}
      {worktrees.setup.length > 0 && (
        <>
          <dt>runs</dt>
          <dd>
            {worktrees.setup.map((command, i) => (
              <div key={i}>
                <code>{command}</code>
              </div>
            ))}
            in each new worktree
          </dd>
        </>
      )}
    </dl>
  );
}

function Previous({ request, projectDir }: { request: TrustRequest; projectDir?: string }) {
  return (
    <details className="trust-previous">
      <summary>trusted before</summary>
      <Fields fields={request.previous!} projectDir={projectDir} />
    </details>
  );
}

function runningNote(request: TrustRequest, processes: ReturnType<typeof useUi.getState>['processes']) {
  const running = Object.values(processes).some((p) => p.configName === request.name && p.pid !== undefined);
  return running ? (
    <div className="trust-note">Still running what you trusted before; trusting restarts it with the new definition.</div>
  ) : null;
}

/** argv as a person would type it: words with spaces or quotes are single-quoted. */
function commandLine(argv: readonly string[]): string {
  return argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function relativeDir(cwd: string, projectDir?: string): string {
  if (!projectDir) return cwd;
  if (cwd === projectDir) return '. (project root)';
  return cwd.startsWith(`${projectDir}/`) ? `./${cwd.slice(projectDir.length + 1)}` : cwd;
}

/** The sidebar line that reopens the prompt after "Not now". */
export function TrustBanner() {
  const pending = useUi((s) => s.trust?.pending.length ?? 0);
  const isOpen = useUi((s) => s.trustPrompt !== undefined);
  if (pending === 0 || isOpen) return null;
  return (
    <button className="trust-banner" data-testid="trust-banner" onClick={() => useUi.getState().openTrustPrompt()}>
      ⚠ {pending} {pending === 1 ? 'entry waits' : 'entries wait'} for your trust — review
    </button>
  );
}
