/**
 * A worktree's review (docs/ui.md, "Worktrees"): its diff against its base — files with +/−
 * counts, uncommitted ones marked, a unified diff per file — and the ways to land it: commit,
 * merge (fast-forward, merge commit or rebase; a conflict names its files and changes nothing),
 * push + pull request through the user's `gh`, or discard (a forced removal saves the work to a
 * branch first). Every button calls the control API MCP's worktree tools share.
 */
import { useCallback, useEffect, useState } from 'react';
import type { DiffFile, MergeStrategy, PullRequestAvailability, WorktreeDiff } from '../../../shared/worktree';
import { useUi } from '../app/store';
import { openLink } from '../terminal/terminalPane';
import { refreshWorktrees, useWorktrees } from './worktrees';
import { OverlayDialog } from '../common/Overlay';

const STRATEGY_LABELS: Record<MergeStrategy, string> = { merge: 'merge commit', ff: 'fast-forward', rebase: 'rebase' };

export function WorktreeReview({ worktree }: { worktree: string }) {
  const client = useUi((s) => s.client);
  const status = useWorktrees((s) => s.list.find((w) => w.id === worktree));
  const agentName = useUi(
    (s) => Object.values(s.processes).find((p) => p.kind === 'agent' && p.worktree === worktree && p.pid !== undefined)?.name,
  );
  const [diff, setDiff] = useState<WorktreeDiff | undefined>(undefined);
  const [pullRequest, setPullRequest] = useState<PullRequestAvailability | undefined>(undefined);
  const [outcome, setOutcome] = useState<{ tone: 'done' | 'problem'; text: string; url?: string } | undefined>(undefined);
  const [isBusy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    if (!client) return;
    const [nextDiff] = await Promise.all([client.call('worktreeDiff', { worktree }), refreshWorktrees()]);
    setDiff(nextDiff);
  }, [client, worktree]);

  useEffect(() => {
    reload().catch((err: unknown) => setOutcome({ tone: 'problem', text: messageOf(err) }));
    client
      ?.call('pullRequestAvailability', { worktree })
      .then(setPullRequest)
      .catch((err: unknown) => setPullRequest({ available: false, reason: messageOf(err) }));
  }, [client, worktree, reload]);

  /** One action at a time; its result (or refusal) shows in the dialog and the diff is read again. True when it went through. */
  const act = async (action: () => Promise<{ text: string; url?: string; close?: boolean }>): Promise<boolean> => {
    setBusy(true);
    setOutcome(undefined);
    try {
      const done = await action();
      if (done.close) {
        await refreshWorktrees();
        useUi.getState().setOverlay(undefined);
        useUi.getState().setError(done.text);
        return true;
      }
      setOutcome({ tone: 'done', ...done });
      await reload();
      return true;
    } catch (err) {
      setOutcome({ tone: 'problem', text: messageOf(err) });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const files = diff?.files ?? [];
  const uncommitted = files.filter((file) => file.isUncommitted).length;
  return (
    <OverlayDialog label={`Review worktree ${worktree}`} testId="worktree-review" className="worktree-review">
      <header className="overlay-header">
        <h2>
          {worktree}
          {status?.branch && <span className="worktree-branch"> ⎇ {status.branch}</span>}
          {diff && <span className="worktree-base"> against {diff.base}</span>}
        </h2>
        <span className="worktree-counts" data-testid="review-summary">
          {diff ? `${files.length} ${files.length === 1 ? 'file' : 'files'} · ${uncommitted} uncommitted` : 'reading the diff…'}
          {status && ` · ↑${status.ahead} ↓${status.behind}`}
        </span>
      </header>
      <div className="review-actions">
        <CommitForm
          disabled={isBusy || uncommitted === 0}
          agentName={agentName}
          onAsk={async () => {
            setOutcome(undefined);
            try {
              return (await client!.call('askCommitMessage', { worktree })).message;
            } catch (err) {
              setOutcome({ tone: 'problem', text: messageOf(err) });
              return undefined;
            }
          }}
          onCommit={(message) =>
            act(async () => {
              const { commit } = await client!.call('commitWorktree', { worktree, message });
              return { text: `Committed ${commit.slice(0, 8)}.` };
            })
          }
        />
        <MergeForm
          disabled={isBusy || files.length === 0}
          onMerge={(strategy) =>
            act(async () => {
              const merged = await client!.call('mergeWorktree', { worktree, strategy });
              return { text: `Merged into ${merged.base} (${STRATEGY_LABELS[strategy]}), now at ${merged.commit.slice(0, 8)}.` };
            })
          }
        />
        <button
          type="button"
          data-testid="review-pull-request"
          disabled={isBusy || !pullRequest?.available}
          title={
            pullRequest === undefined
              ? 'Checking gh…'
              : pullRequest.available
                ? `Push to ${pullRequest.remote} and open a pull request`
                : pullRequest.reason
          }
          onClick={() =>
            void act(async () => {
              const { url } = await client!.call('openPullRequest', { worktree });
              return { text: 'Pull request opened:', url };
            })
          }
        >
          Push + pull request
        </button>
        <DiscardButton
          disabled={isBusy}
          hasWork={uncommitted > 0 || (status?.ahead ?? 0) > 0}
          onDiscard={(force) =>
            act(async () => {
              const removed = await client!.call('removeWorktree', { worktree, force });
              const saved = removed.savedTo ? ` Its work is saved on branch ${removed.savedTo}.` : '';
              return { text: `Worktree ${worktree} removed.${saved}`, close: true };
            })
          }
        />
      </div>
      {pullRequest && !pullRequest.available && (
        <p className="review-note" data-testid="review-pull-request-reason">
          Push + pull request: {pullRequest.reason}
        </p>
      )}
      {outcome && (
        <p className={`review-outcome ${outcome.tone}`} role={outcome.tone === 'problem' ? 'alert' : 'status'} data-testid="review-outcome">
          {outcome.text}{' '}
          {outcome.url && (
            <a
              href={outcome.url}
              onClick={(e) => {
                e.preventDefault();
                openLink(outcome.url!);
              }}
            >
              {outcome.url}
            </a>
          )}
        </p>
      )}
      <div className="review-files">
        {diff && files.length === 0 && <p className="review-note">No changes against {diff.base}.</p>}
        {files.map((file) => (
          <FileDiff key={file.path} file={file} />
        ))}
      </div>
    </OverlayDialog>
  );
}

function FileDiff({ file }: { file: DiffFile }) {
  return (
    <details className="review-file" data-testid="review-file" data-path={file.path} open>
      <summary>
        <span className="review-path">{file.path}</span>
        <span className="review-added">{file.added === null ? 'binary' : `+${file.added}`}</span>
        {file.removed !== null && <span className="review-removed">−{file.removed}</span>}
        {file.isUncommitted && (
          <span className="review-uncommitted" data-testid="review-uncommitted" title="Not committed yet: in the working tree or the index">
            uncommitted
          </span>
        )}
      </summary>
      <pre className="review-patch">
        {file.patch.split('\n').map((line, i) => (
          <span key={i} className={lineClass(line)}>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
    </details>
  );
}

function lineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('index ')) return 'diff-meta';
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  return '';
}

/** The message typed, or asked of the worktree's agent (filled in when it answers, still editable). */
function CommitForm({
  disabled,
  agentName,
  onAsk,
  onCommit,
}: {
  disabled: boolean;
  agentName: string | undefined;
  onAsk: () => Promise<string | undefined>;
  onCommit: (message: string) => Promise<boolean>;
}) {
  const [message, setMessage] = useState('');
  const [isAsking, setAsking] = useState(false);
  const ask = async () => {
    setAsking(true);
    const answer = await onAsk();
    setAsking(false);
    if (answer) setMessage(answer);
  };
  return (
    <form
      className="review-commit"
      onSubmit={(e) => {
        e.preventDefault();
        if (message.trim()) void onCommit(message.trim()).then((done) => done && setMessage(''));
      }}
    >
      <textarea
        aria-label="Commit message"
        data-testid="review-commit-message"
        placeholder="commit message"
        rows={message.includes('\n') ? 4 : 1}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
      />
      <button
        type="button"
        data-testid="review-ask-message"
        disabled={disabled || isAsking || agentName === undefined}
        title={agentName ? `Ask ${agentName} to write the message for this work` : 'No agent runs in this worktree'}
        onClick={() => void ask()}
      >
        {isAsking ? `Asking ${agentName ?? 'the agent'}…` : 'Ask the agent'}
      </button>
      <button type="submit" data-testid="review-commit" disabled={disabled || isAsking || !message.trim()}>
        Commit
      </button>
    </form>
  );
}

function MergeForm({ disabled, onMerge }: { disabled: boolean; onMerge: (strategy: MergeStrategy) => Promise<boolean> }) {
  const [strategy, setStrategy] = useState<MergeStrategy>('merge');
  return (
    <span className="review-merge">
      <select
        aria-label="Merge strategy"
        data-testid="review-merge-strategy"
        value={strategy}
        onChange={(e) => setStrategy(e.target.value as MergeStrategy)}
      >
        {(Object.keys(STRATEGY_LABELS) as MergeStrategy[]).map((s) => (
          <option key={s} value={s}>
            {STRATEGY_LABELS[s]}
          </option>
        ))}
      </select>
      <button type="button" data-testid="review-merge" disabled={disabled} onClick={() => void onMerge(strategy)}>
        Merge
      </button>
    </span>
  );
}

/** Discard asks once; with work in it, the second click forces removal, which saves the work to a branch first. */
function DiscardButton({
  disabled,
  hasWork,
  onDiscard,
}: {
  disabled: boolean;
  hasWork: boolean;
  onDiscard: (force: boolean) => Promise<boolean>;
}) {
  const [isConfirming, setConfirming] = useState(false);
  if (!isConfirming)
    return (
      <button type="button" className="danger" data-testid="review-discard" disabled={disabled} onClick={() => setConfirming(true)}>
        Discard…
      </button>
    );
  return (
    <span className="review-discard-confirm">
      {hasWork ? 'Its work is saved to a branch first.' : 'Remove this worktree?'}
      <button
        type="button"
        className="danger"
        data-testid="review-discard-confirm"
        disabled={disabled}
        onClick={() => void onDiscard(hasWork)}
      >
        Remove
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        Keep
      </button>
    </span>
  );
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
