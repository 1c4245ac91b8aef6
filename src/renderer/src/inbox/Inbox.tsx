/**
 * The attention inbox: every agent waiting for a person in any open project, the one waiting
 * longest first, with its project, what it asks and the answers its preset can send. An answer
 * goes to the row's project and carries the prompt's fingerprint; the core refuses it (and types
 * nothing) when the agent's screen no longer shows that prompt.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ArmedContinue, BlockedAction, ProjectWaitingAgent, PromptChoice } from '../../../shared/inbox';
import type { TimerSummary } from '../../../shared/model';
import { useUi } from '../app/store';
import { showEntry } from '../projects/projects';
import { OverlayDialog } from '../common/Overlay';
import { formatDuration } from '../timers/TimerIndicator';

/**
 * The waiting agents as the window sees them (the shown project's entries, every project's
 * attention count): when this changes, the inbox asks the core again.
 */
function useWaitingSignature(): string {
  return useUi(
    (s) =>
      s.order
        .map((id) => s.processes[id])
        .filter((p) => p?.agent?.primary === 'waiting')
        .map((p) => `${p.id}:${p.agent!.since}:${p.agent!.reason}:${armedContinueKey(p.timers)}`)
        .join('|') +
      '#' +
      (s.workspace?.projects ?? []).map((p) => `${p.id}:${p.needsAttention}`).join('|'),
  );
}

/** A blocked agent's armed continue as it shows in its row: armed, paused or gone is news for the inbox. */
function armedContinueKey(timers: readonly TimerSummary[] | undefined): string {
  const armed = timers?.find((t) => t.whenBlocked);
  return armed ? `${armed.id}/${armed.state}` : '';
}

export function waitingCount(processes: ReturnType<typeof useUi.getState>['processes']): number {
  return Object.values(processes).filter((p) => p.agent?.primary === 'waiting').length;
}

function useNowEverySecond(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

export function Inbox() {
  const client = useUi((s) => s.workspaceClient);
  const signature = useWaitingSignature();
  const [agents, setAgents] = useState<ProjectWaitingAgent[] | undefined>();
  const [notice, setNotice] = useState<string>();
  /** Typed answers not sent yet, by agent id. */
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const now = useNowEverySecond();

  const refresh = useCallback(async () => {
    if (!client) return;
    try {
      setAgents((await client.workspace('listWaitingAcrossProjects', {})).agents);
    } catch (err) {
      setNotice(err instanceof Error ? err.message : String(err));
    }
  }, [client]);

  useEffect(() => {
    void refresh();
  }, [refresh, signature]);

  const answer = async (agent: ProjectWaitingAgent, choice: PromptChoice, text?: string) => {
    if (!client || !agent.fingerprint) return;
    try {
      const args = { id: agent.id, fingerprint: agent.fingerprint, choice: choice.id, ...(text !== undefined && { text }) };
      await client.call('answerPrompt', args, agent.project.id);
      setNotice(text === undefined ? `${agent.name}: answered "${choice.label}".` : `${agent.name}: answered "${text}".`);
      if (text !== undefined) setDrafts(({ [agent.id]: _sent, ...rest }) => rest);
    } catch (err) {
      setNotice(err instanceof Error ? err.message : String(err));
    }
    await refresh();
  };

  /** A blocked agent's action, through the same core method as MCP resolve_blocked. */
  const resolveBlocked = async (agent: ProjectWaitingAgent, action: BlockedAction) => {
    if (!client) return;
    try {
      const result = await client.call('resolveBlocked', { id: agent.id, action }, agent.project.id);
      setNotice(`${agent.name}: ${result.done}.`);
    } catch (err) {
      setNotice(err instanceof Error ? err.message : String(err));
    }
    await refresh();
  };

  const openPane = (agent: ProjectWaitingAgent) => {
    useUi.getState().setOverlay(undefined);
    void showEntry(agent.project.id, agent.id);
  };

  return (
    <OverlayDialog label="Attention inbox" testId="inbox" className="inbox">
      <header className="overlay-header">
        <h2 id="inbox-title">Waiting for you{agents ? ` (${agents.length})` : ''}</h2>
        <button aria-label="Close inbox" data-testid="inbox-close" onClick={() => useUi.getState().setOverlay(undefined)}>
          ✕
        </button>
      </header>
      <div role="status" aria-live="polite" className="inbox-notice" data-testid="inbox-notice">
        {notice}
      </div>
      {agents && agents.length === 0 && <p className="inbox-empty">No agent is waiting.</p>}
      <ol className="inbox-list" aria-labelledby="inbox-title">
        {(agents ?? []).map((agent) => (
          <li
            key={agent.id}
            className="inbox-item"
            data-testid="inbox-item"
            data-id={agent.id}
            data-name={agent.name}
            data-fingerprint={agent.fingerprint}
            data-project={agent.project.id}
            onClick={(event) => {
              // A click on the row opens the pane; its buttons and fields do their own thing (the button is the keyboard way).
              if (!(event.target as Element).closest('button, input, textarea, a')) openPane(agent);
            }}
          >
            <div className="inbox-meta">
              <strong>{agent.name}</strong>
              <span className="inbox-project" data-testid="inbox-project">
                in {agent.project.name}
                {agent.project.host && ` on ${agent.project.host}`}
              </span>
              <span className="inbox-preset">{agent.preset}</span>
              <span className="inbox-detail">{detailWords(agent)}</span>
              <span className="inbox-age" data-testid="inbox-age">
                waiting {formatDuration(now - agent.since)}
              </span>
            </div>
            <pre className="inbox-question" data-testid="inbox-question">
              {agent.question}
            </pre>
            {agent.blocked && (
              <p className="inbox-cli-said" data-testid="inbox-cli-said" title={`What ${agent.preset} printed`}>
                {agent.blocked.message}
              </p>
            )}
            <div className="inbox-actions">
              {agent.choices.map((choice) =>
                choice.takesText ? (
                  <form
                    key={choice.id}
                    className="inbox-answer"
                    onSubmit={(event) => {
                      event.preventDefault();
                      void answer(agent, choice, drafts[agent.id] ?? '');
                    }}
                  >
                    <input
                      data-testid="inbox-answer-text"
                      aria-label={`Answer for ${agent.name}`}
                      placeholder="Type an answer…"
                      value={drafts[agent.id] ?? ''}
                      onChange={(event) => setDrafts((all) => ({ ...all, [agent.id]: event.target.value }))}
                    />
                    <button
                      type="submit"
                      className="choice choice-answer"
                      data-testid="inbox-answer-send"
                      aria-label={`Send answer — ${agent.name}`}
                      disabled={!(drafts[agent.id] ?? '').trim()}
                    >
                      {choice.label}
                    </button>
                  </form>
                ) : (
                  <button
                    key={choice.id}
                    className={`choice choice-${choice.id}`}
                    data-testid={`inbox-${choice.id}`}
                    aria-label={`${choice.label} (${choice.id}) — ${agent.name}`}
                    onClick={() => void answer(agent, choice)}
                  >
                    {choice.label}
                  </button>
                ),
              )}
              {agent.blocked?.continues && <ArmedContinueNote armed={agent.blocked.continues} now={now} />}
              {agent.blocked?.retriesByItself && (
                <span className="inbox-hint" data-testid="inbox-retries-by-itself">
                  Retries by itself: it goes on once the cause passes.
                </span>
              )}
              {agent.blocked && agent.blocked.action !== 'open_pane' && !agent.blocked.continues && (
                <button
                  className="choice choice-blocked"
                  data-testid={`inbox-${agent.blocked.action}`}
                  aria-label={`${BLOCKED_ACTION_LABELS[agent.blocked.action]} — ${agent.name}`}
                  onClick={() => void resolveBlocked(agent, agent.blocked!.action)}
                >
                  {BLOCKED_ACTION_LABELS[agent.blocked.action]}
                </button>
              )}
              {agent.choices.length === 0 && !agent.blocked && <span className="inbox-hint">Answer in its pane.</span>}
              <button
                data-testid="inbox-open"
                aria-label={`Open pane of ${agent.name} in ${agent.project.name}`}
                onClick={() => openPane(agent)}
              >
                Open pane
              </button>
            </div>
          </li>
        ))}
      </ol>
    </OverlayDialog>
  );
}

/** The continue already armed for a blocked agent (its timer is in the pane header, where it is paused or cancelled). */
function ArmedContinueNote({ armed, now }: { armed: ArmedContinue; now: number }) {
  const when = armed.paused ? 'paused' : armed.firesAt !== undefined ? `in ${formatDuration(Math.max(0, armed.firesAt - now))}` : 'armed';
  return (
    <span className="inbox-hint" data-testid="inbox-continues" title={armed.label}>
      Continues by itself: {when} (timer {armed.timerId})
    </span>
  );
}

const BLOCKED_ACTION_LABELS: Readonly<Record<BlockedAction, string>> = {
  open_pane: 'Open pane',
  continue_at_reset: 'Continue at reset',
  retry_now: 'Retry now',
};

function detailWords(agent: ProjectWaitingAgent): string {
  if (agent.blocked) return `blocked: ${agent.blocked.detail.replace('_', ' ')}`;
  return agent.detail === 'question' ? 'asks a question' : 'asks permission';
}
