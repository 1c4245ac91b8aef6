/**
 * A blocked agent in the inbox: the CLI's reason in one line ("usage limit, resets 15:00") and the
 * action that fits it (docs/agent-status.md, "Blocked agents").
 */
import type { BlockedAction, BlockedRow } from '../../../shared/inbox';
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

export function blockedRowOf(detail: BlockedDetail, status: AgentStatusInfo): BlockedRow {
  const action = detail === 'limit' && status.blocked?.resetsAt === undefined ? 'retry_now' : ACTION_BY_DETAIL[detail];
  return {
    detail,
    message: status.blocked?.message ?? status.reason,
    ...(status.blocked?.resetsAt !== undefined && { resetsAt: status.blocked.resetsAt }),
    action,
  };
}

/** "usage limit, resets 15:00" (the reset in this machine's zone, 24-hour clock). */
export function blockedSummary(row: Pick<BlockedRow, 'detail' | 'resetsAt'>): string {
  const words = WORDS_BY_DETAIL[row.detail];
  if (row.resetsAt === undefined) return words;
  const at = new Date(row.resetsAt).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false });
  return `${words}, resets ${at}`;
}
