/** Agent status as every side sees it (SPEC §4). Owned by core/status. */
export type AgentPrimary = 'starting' | 'idle' | 'active' | 'waiting' | 'stuck' | 'dead';
export type AgentDetail =
  | 'ready'
  | 'waiting_input'
  | 'thinking'
  | 'using_tools'
  | 'responding'
  | 'compacting'
  | 'permission'
  | 'question'
  | null;
export type Health = 'ALIVE' | 'STUCK' | 'RECOVERED' | 'DEAD';

export interface AgentStatusInfo {
  preset: string;
  primary: AgentPrimary;
  detail: AgentDetail;
  health: Health;
  /** The rule or signal that decided the status, e.g. "claude/permission-prompt". */
  reason: string;
  /** Epoch ms of the last status change. */
  since: number;
  /** Epoch ms of the last meaningful screen change. */
  lastProgressAt?: number;
}
