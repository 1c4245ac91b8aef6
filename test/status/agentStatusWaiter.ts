/**
 * Waiting for an agent entry's status in live tests on the real core: resolves with the status
 * once `pred` holds (at once if it already does); on timeout fails with the status history and
 * the screen, so a miss says what the tracker saw.
 */
import type { SwitchboardCore } from '../../src/main/core/app';
import { waitForEvent } from '../../src/main/core/base';
import type { AgentStatusInfo } from '../../src/shared/status';

export interface StatusWaiter {
  (pred: (s: AgentStatusInfo) => boolean, label: string): Promise<AgentStatusInfo>;
  /** Every status so far, `primary/detail (reason)`. */
  history: string[];
  /** History and screen, for failure messages. */
  describe(): string;
}

export function statusWaiter(core: SwitchboardCore, id: string, agentName: string, timeoutMs: number): StatusWaiter {
  const tracker = core.statusTrackerOf(id);
  const history: string[] = [];
  tracker.onDidChangeStatus((s) => history.push(`${s.primary}/${s.detail} (${s.reason})`));
  const describe = () => `history: ${history.join(' → ')}\nscreen:\n${core.entry(id).screen.getVisibleLines().join('\n')}`;
  const wait = (pred: (s: AgentStatusInfo) => boolean, label: string): Promise<AgentStatusInfo> =>
    pred(tracker.status)
      ? Promise.resolve(tracker.status)
      : waitForEvent(tracker.onDidChangeStatus, pred, timeoutMs).catch(() => {
          throw new Error(`${agentName} never became ${label}; ${describe()}`);
        });
  return Object.assign(wait, { history, describe });
}
