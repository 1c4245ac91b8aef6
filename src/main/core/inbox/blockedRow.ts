/**
 * A blocked agent in the inbox: the CLI's reason in one line ("usage limit, resets 15:00") and the
 * action that fits it (docs/agent-status.md, "Blocked agents").
 */
import type { ArmedContinue, BlockedAction, BlockedRow } from '../../../shared/inbox';
import type { TimerSummary } from '../../../shared/model';
import type { AgentStatusInfo, BlockedDetail } from '../../../shared/status';

const ACTION_BY_DETAIL: Readonly<Record<BlockedDetail, BlockedAction>> = {
  // Signing in happens in the CLI itself (its /login), so the pane is where to go.
  login: 'open_pane',
  limit: 'continue_at_reset',
  // Credit is added outside the CLI; then the turn is tried again.
  quota: 'retry_now',
  network: 'retry_now',
  api_error: 'retry_now',
};

const WORDS_BY_DETAIL: Readonly<Record<BlockedDetail, string>> = {
  login: 'not signed in',
  limit: 'usage limit',
  quota: 'credit or quota exhausted',
  network: 'API unreachable',
  api_error: 'API error, retries given up',
};

/** The row of an agent blocked on `detail`; `timers` are the agent's own, where an armed continue is found. */
export function blockedRowOf(detail: BlockedDetail, status: AgentStatusInfo, timers: readonly TimerSummary[] = []): BlockedRow {
  const continues = armedContinueOf(timers);
  return {
    detail,
    message: status.blocked?.message ?? status.reason,
    ...(status.blocked?.resetsAt !== undefined && { resetsAt: status.blocked.resetsAt }),
    action: actionOf(detail, status),
    ...(status.blocked?.retriesByItself && { retriesByItself: true as const }),
    ...(continues && { continues }),
  };
}

function actionOf(detail: BlockedDetail, status: AgentStatusInfo): BlockedAction {
  // A CLI that keeps trying by itself needs nothing typed: a continue would only queue a turn.
  if (status.blocked?.retriesByItself) return 'open_pane';
  if (detail === 'limit' && status.blocked?.resetsAt === undefined) return 'retry_now';
  return ACTION_BY_DETAIL[detail];
}

function armedContinueOf(timers: readonly TimerSummary[]): ArmedContinue | undefined {
  const timer = timers.find((t) => t.whenBlocked && (t.state === 'pending' || t.state === 'paused'));
  if (!timer) return undefined;
  return {
    timerId: timer.id,
    ...(timer.label !== undefined && { label: timer.label }),
    ...(timer.firesAt !== undefined && { firesAt: timer.firesAt }),
    ...(timer.state === 'paused' && { paused: true as const }),
  };
}

/** "usage limit, resets 15:00" (the reset in this machine's zone, 24-hour clock). */
export function blockedSummary(row: Pick<BlockedRow, 'detail' | 'resetsAt'>): string {
  const words = WORDS_BY_DETAIL[row.detail];
  if (row.resetsAt === undefined) return words;
  const at = new Date(row.resetsAt).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false });
  return `${words}, resets ${at}`;
}
