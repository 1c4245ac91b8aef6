/** One waiting agent: its project, what it asks, and the answers it takes (the inbox dialog's row and the phone view's card). */
import type { ArmedContinue, BlockedAction, ProjectWaitingAgent } from '../../../shared/inbox';
import { formatDuration } from '../timers/TimerIndicator';
import type { WaitingAgents } from './useWaitingAgents';

interface WaitingAgentItemProps {
  agent: ProjectWaitingAgent;
  now: number;
  waiting: Pick<WaitingAgents, 'answer' | 'resolveBlocked' | 'drafts' | 'setDraft'>;
  onOpen: (agent: ProjectWaitingAgent) => void;
  /** The words of the open button ("Open pane", "Screen"). */
  openLabel: string;
}

export function WaitingAgentItem({ agent, now, waiting, onOpen, openLabel }: WaitingAgentItemProps) {
  const { answer, resolveBlocked, drafts, setDraft } = waiting;
  const draft = drafts[agent.id] ?? '';
  return (
    <li
      className="inbox-item"
      data-testid="inbox-item"
      data-id={agent.id}
      data-name={agent.name}
      data-fingerprint={agent.fingerprint}
      data-project={agent.project.id}
      onClick={(event) => {
        // A click on the row opens the pane; its buttons and fields do their own thing (the button is the keyboard way).
        if (!(event.target as Element).closest('button, input, textarea, a')) onOpen(agent);
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
                void answer(agent, choice, draft);
              }}
            >
              <input
                data-testid="inbox-answer-text"
                aria-label={`Answer for ${agent.name}`}
                placeholder="Type an answer…"
                value={draft}
                onChange={(event) => setDraft(agent.id, event.target.value)}
              />
              <button
                type="submit"
                className="choice choice-answer"
                data-testid="inbox-answer-send"
                aria-label={`Send answer — ${agent.name}`}
                disabled={!draft.trim()}
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
          aria-label={`${openLabel} of ${agent.name} in ${agent.project.name}`}
          onClick={() => onOpen(agent)}
        >
          {openLabel}
        </button>
      </div>
    </li>
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
