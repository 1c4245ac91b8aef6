/**
 * The attention inbox: every agent waiting for a person in any open project, the one waiting
 * longest first, with its project, what it asks and the answers its preset can send.
 */
import type { ProjectWaitingAgent } from '../../../shared/inbox';
import { useUi } from '../app/store';
import { showEntry } from '../projects/projects';
import { OverlayDialog } from '../common/Overlay';
import { useNowEverySecond, useWaitingAgents } from './useWaitingAgents';
import { WaitingAgentItem } from './WaitingAgentItem';
import { SandboxRefusals } from './SandboxRefusals';
import { UsageWarningRows } from '../usage/UsageWarningRows';
import { BudgetRows } from '../budget/BudgetRows';

export function waitingCount(processes: ReturnType<typeof useUi.getState>['processes']): number {
  return Object.values(processes).filter((p) => p.agent?.primary === 'waiting').length;
}

export function Inbox() {
  const waiting = useWaitingAgents();
  const { agents, notice } = waiting;
  const now = useNowEverySecond();

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
          <WaitingAgentItem key={agent.id} agent={agent} now={now} waiting={waiting} onOpen={openPane} openLabel="Open pane" />
        ))}
      </ol>
      <BudgetRows />
      <UsageWarningRows />
      <SandboxRefusals />
    </OverlayDialog>
  );
}
