/** Agent status as every side sees it (docs/agent-status.md). Owned by core/status. */
import { z } from 'zod';

export type AgentPrimary = 'starting' | 'idle' | 'active' | 'waiting' | 'stuck' | 'dead';

/**
 * Why an agent cannot go on (docs/agent-status.md, "Blocked agents"): not signed in or key
 * rejected, a usage or rate limit, credit or quota exhausted, the API unreachable, API errors
 * retried until the CLI gave up. Each is a `waiting` detail: a person has to act.
 */
const BLOCKED_DETAILS = ['login', 'limit', 'quota', 'network', 'api_error'] as const;
export type BlockedDetail = (typeof BLOCKED_DETAILS)[number];

/**
 * Detail per primary: idle → ready | waiting_input; active → thinking | using_tools | responding |
 * compacting | retrying (a failed request retried by the CLI itself); waiting → permission |
 * question, or a blocked detail. `stuck` keeps the detail of the active state it stalled in;
 * starting and dead have none.
 */
export type AgentDetail =
  | 'ready'
  | 'waiting_input'
  | 'thinking'
  | 'using_tools'
  | 'responding'
  | 'compacting'
  | 'retrying'
  | 'permission'
  | 'question'
  | BlockedDetail
  | null;

export const DETAILS_BY_PRIMARY = {
  starting: [],
  idle: ['ready', 'waiting_input'],
  active: ['thinking', 'using_tools', 'responding', 'compacting', 'retrying'],
  waiting: ['permission', 'question', ...BLOCKED_DETAILS],
  stuck: ['thinking', 'using_tools', 'responding', 'compacting', 'retrying'],
  dead: [],
} as const satisfies Record<AgentPrimary, readonly Exclude<AgentDetail, null>[]>;

/** A waiting detail that means blocked (no prompt to answer: something outside the agent must change). */
export function isBlockedDetail(detail: AgentDetail): detail is BlockedDetail {
  return (BLOCKED_DETAILS as readonly (string | null)[]).includes(detail);
}

/** What the CLI said when it stopped or retries, read from its own line (docs/agent-status.md). */
export interface BlockedInfo {
  /** The CLI's own line, e.g. "Not logged in · Please run /login". */
  message: string;
  /** Epoch ms when the limit resets, when the CLI shows it. */
  resetsAt?: number;
  /** Retrying: the attempt shown and the most the CLI will make. */
  attempt?: number;
  maxAttempts?: number;
  /**
   * The CLI keeps trying by itself and goes on once the cause passes (Codex waiting for the
   * network): nothing is typed into it, neither a probe nor the inbox's retry.
   */
  retriesByItself?: true;
}

export type Health = 'ALIVE' | 'STUCK' | 'RECOVERED' | 'DEAD';

/** A preset whose rules were proven against the real CLI, and when. */
export interface VerifiedCli {
  /** The CLI version the preset was run against (its recordings or live tests). */
  cliVersion: string;
  /** ISO date (YYYY-MM-DD) of that run. */
  date: string;
}

/** `unverified`: the rules were written from the CLI's docs or source, never run against it. */
export type PresetVerification = VerifiedCli | 'unverified';

/** `low`: no rule matched for a while although the program is alive; the status is a guess. */
type StatusConfidence = 'high' | 'low';

export interface AgentStatusInfo {
  preset: string;
  /** Whether the preset's detection was proven against the real CLI (and which version). */
  verified: PresetVerification;
  /** The version the running CLI reports (`--version`, read once per binary); absent until known. */
  cliVersion?: string;
  /** The CLI version the preset's rules were verified on; absent for an unverified preset. */
  verifiedVersion?: string;
  /** How sure the status is; `confidenceReason` says why when it is low. */
  confidence: StatusConfidence;
  confidenceReason?: string;
  primary: AgentPrimary;
  detail: AgentDetail;
  health: Health;
  /** The rule or signal that decided the status, e.g. "claude/permission-prompt". */
  reason: string;
  /** Epoch ms of the last status change. */
  since: number;
  /** Epoch ms of the last meaningful screen change. */
  lastProgressAt?: number;
  /** Epoch ms of the last hook event taken into account, when the agent reports hooks. */
  lastHookAt?: number;
  /** Blocked (a blocked waiting detail) or retrying: what the CLI said. */
  blocked?: BlockedInfo;
}

/** Claude Code's hook names: the ones its wiring installs. */
export const CLAUDE_HOOK_EVENTS = ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Notification', 'Stop', 'SessionEnd'] as const;

/**
 * Structured agent hooks: Claude Code's names, plus Switchboard's own for what other CLIs report:
 * `ResponseStart` (the first text of an answer streamed; pi's extension), `ModelRequest` (a request
 * to the model starts, each attempt of it; Gemini CLI's BeforeModel), `ApiRetry` (the CLI says
 * it retries a failed request; opencode's `session.status` retry) and `TurnError` (the turn ended on
 * an error the CLI reports, instead of Stop; opencode's `session.error` before its idle). The MCP side receives them from
 * the agent process and hands them to the entry's StatusTracker (`applyHookEvent`).
 */
export const AGENT_HOOK_EVENTS = [...CLAUDE_HOOK_EVENTS, 'ResponseStart', 'ModelRequest', 'ApiRetry', 'TurnError'] as const;
export type AgentHookEventName = (typeof AGENT_HOOK_EVENTS)[number];

/**
 * Other CLIs' names for the same moments, as they post them (`hook_event_name`). Gemini CLI 0.61:
 * BeforeAgent fires after a prompt is submitted, AfterAgent once per turn after the final
 * response, BeforeModel before each attempt of a model request (retries included), BeforeTool /
 * AfterTool around a tool's execution, Notification (`ToolPermission`) when a tool call waits for
 * confirmation. Qwen Code uses Claude Code's names, plus
 * PostToolUseFailure (a tool that failed is finished too).
 */
export const AGENT_HOOK_EVENT_ALIASES: Readonly<Record<string, AgentHookEventName>> = {
  BeforeAgent: 'UserPromptSubmit',
  AfterAgent: 'Stop',
  BeforeModel: 'ModelRequest',
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  PostToolUseFailure: 'PostToolUse',
};

export const AgentHookEventSchema = z.object({
  event: z.enum(AGENT_HOOK_EVENTS),
  /** Epoch ms when the hook fired (the receiver's clock when the agent gives none). */
  at: z.number().finite().nonnegative(),
  /** PreToolUse / PostToolUse: the tool's name ("Bash", "Edit", "mcp__switchboard__whoami"). */
  toolName: z.string().max(200).optional(),
  /** Notification: Claude Code's `notification_type` ("permission_prompt", "idle_prompt", …). */
  notificationType: z.string().max(100).optional(),
  /** Notification: the human message ("Claude needs your permission to use Bash"). */
  message: z.string().max(2_000).optional(),
  /** SessionEnd: Claude Code's reason ("clear", "logout", "prompt_input_exit", "other"). */
  reason: z.string().max(100).optional(),
  /** ApiRetry: the attempt the CLI is about to make (1 = the first retry) and, when known, its limit. */
  attempt: z.number().int().positive().max(10_000).optional(),
  maxAttempts: z.number().int().positive().max(10_000).optional(),
  /** ApiRetry: epoch ms of the next attempt, when the CLI says (opencode's `next`). */
  retryAt: z.number().finite().nonnegative().optional(),
  /** TurnError: the HTTP status the API answered, when the error came from one. */
  statusCode: z.number().int().min(100).max(599).optional(),
  /** TurnError: the CLI's name for the error (opencode's `APIError`, `ProviderAuthError`, …). */
  errorName: z.string().max(100).optional(),
  /** The file the CLI records its session in, as its hook input names it (`transcript_path`). */
  transcriptPath: z.string().max(4_096).optional(),
});
export type AgentHookEvent = z.infer<typeof AgentHookEventSchema>;
