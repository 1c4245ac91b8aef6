/**
 * Headless agent tasks as every side sees them: a prompt handed to a headless agent run
 * (`claude -p … --output-format stream-json`), watched by a stall watchdog, with one clear end.
 * Pure types, constants and zod schemas; owned by core/tasks.
 */
import { z } from 'zod';
import type { RunState } from './runState';

/** Agents a task can run on. Claude Code first; the runner interface in core/tasks is ready for more. */
const TASK_AGENTS = ['claude'] as const;
export type TaskAgent = (typeof TASK_AGENTS)[number];

/**
 * `starting` until the agent talks to its model; `generating` while the model streams (or is being
 * asked); `tool_executing` while a tool call is in flight. The last four are terminal.
 */
export type TaskPhase = 'starting' | 'generating' | 'tool_executing' | 'done' | 'failed' | 'stalled' | 'cancelled';
const TERMINAL_TASK_PHASES: readonly TaskPhase[] = ['done', 'failed', 'stalled', 'cancelled'];
export function isTerminalTaskPhase(phase: TaskPhase): boolean {
  return TERMINAL_TASK_PHASES.includes(phase);
}

/** Claude Code's `--permission-mode` choices (2.1.197). */
const TASK_PERMISSION_MODES = ['default', 'acceptEdits', 'auto', 'bypassPermissions', 'dontAsk', 'plan'] as const;
type TaskPermissionMode = (typeof TASK_PERMISSION_MODES)[number];

export interface TaskTimeouts {
  /** No stream message for this long → stall assessment. Resets on every message. */
  idleMs: number;
  /** No complete assistant message for this long → stall assessment. Resets on assistant messages only. */
  turnMs: number;
  /** Caps the whole run; never extended. */
  wallClockMs: number;
}

/** Defaults: idle 180 s, turn 600 s, wall clock 1800 s (docs/tasks.md). */
export const DEFAULT_TASK_TIMEOUTS: Readonly<TaskTimeouts> = Object.freeze({ idleMs: 180_000, turnMs: 600_000, wallClockMs: 1_800_000 });

/** Longest prompt passed on the command line (Linux caps one argument at 128 KiB). */
const MAX_TASK_PROMPT_CHARS = 100_000;
/** Longest single timeout a caller may set (a day). */
const MAX_TASK_TIMEOUT_SECONDS = 86_400;

const Seconds = z.number().positive().max(MAX_TASK_TIMEOUT_SECONDS);

const TaskTimeoutsSecondsSchema = z.strictObject({
  idleSeconds: Seconds.optional(),
  turnSeconds: Seconds.optional(),
  wallClockSeconds: Seconds.optional(),
});

/** What it takes to start a task (control API; MCP maps its snake_case arguments onto this). */
export const TaskRequestSchema = z.strictObject({
  prompt: z.string().min(1).max(MAX_TASK_PROMPT_CHARS),
  agent: z.enum(TASK_AGENTS).optional(),
  name: z.string().min(1).max(200).optional(),
  /** Working directory, relative to the project or absolute. */
  cwd: z.string().min(1).optional(),
  maxTurns: z.number().int().min(1).max(10_000).optional(),
  maxBudgetUsd: z.number().positive().max(100_000).optional(),
  /** Tools the agent may use without asking (Claude Code rule syntax, e.g. "Bash(npm test:*)"). */
  allowedTools: z.array(z.string().min(1).max(500)).max(200).optional(),
  permissionMode: z.enum(TASK_PERMISSION_MODES).optional(),
  model: z.string().min(1).max(200).optional(),
  /** Continue an earlier run's conversation (its session id). */
  resumeSessionId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/, 'session ids are letters, digits, "-" and "_"')
    .optional(),
  timeouts: TaskTimeoutsSecondsSchema.optional(),
  /** Ask a fast model before declaring a stall the rules would call. Off unless enabled here. */
  secondOpinion: z.strictObject({ enabled: z.boolean(), model: z.string().min(1).max(200).optional() }).optional(),
  /** Replaces the agent's command (a wrapper script, another install path); the task flags are appended. */
  argv: z.array(z.string().min(1)).min(1).optional(),
  env: z.record(z.string(), z.string()).optional(),
});
export type TaskRequest = z.input<typeof TaskRequestSchema>;

export interface TaskToolCall {
  id: string;
  name: string;
  /** One line saying what it does ("sleep 4 && echo done", a file path, a subagent's description). */
  summary: string;
  startedAt: number;
  endedAt?: number;
  isError?: boolean;
  /** Set for calls made inside a subagent (Task tool). */
  parentToolUseId?: string;
}

export interface TaskActivity {
  at: number;
  /** What kind of message it was ("text", "tool_use", "tool_result", "api_retry", …). */
  kind: string;
  description: string;
}

export type TaskTrigger = 'idle' | 'turn' | 'wall_clock';

type TaskDecisionKind = 'extended' | 'stalled' | 'timed_out' | 'cancelled' | 'failed' | 'finished' | 'second_opinion' | 'killed';

/** Every decision the watchdog or the runner takes, with its reason (shown in the UI and by get_task). */
export interface TaskDecision {
  at: number;
  kind: TaskDecisionKind;
  trigger?: TaskTrigger;
  /** The assessment rule that decided, e.g. "bash-own-timeout". */
  rule?: string;
  reason: string;
  /** For extensions: epoch ms of the new deadline. */
  until?: number;
}

export interface TaskUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
}

/** The agent's own final report (Claude Code's `result` message). */
export interface TaskResult {
  /** "success", "error_max_turns", "error_during_execution", "error_max_budget_usd", … */
  subtype: string;
  isError: boolean;
  /** The final answer text (success), bounded. */
  text?: string;
  /** Error messages the agent gave. */
  errors?: string[];
  numTurns?: number;
  costUsd?: number;
  durationMs?: number;
  stopReason?: string;
  terminalReason?: string;
  permissionDenials?: number;
}

/** What a task run is launched with, defaults applied and the working directory resolved. */
export interface TaskLaunch {
  agent: TaskAgent;
  prompt: string;
  cwd: string;
  maxTurns?: number;
  maxBudgetUsd?: number;
  allowedTools?: string[];
  permissionMode?: TaskPermissionMode;
  resumeSessionId?: string;
}

export interface TaskInfo extends TaskLaunch {
  timeouts: TaskTimeouts;
  isSecondOpinionEnabled: boolean;

  phase: TaskPhase;
  /** One sentence for the current phase or the end ("Running Bash: sleep 4", "Finished in 2 turns, $0.0175"). */
  message: string;
  /** Epoch ms of the current run's start, and its end once the process tree is gone. */
  startedAt?: number;
  endedAt?: number;
  /** Terminal phase reached and the process tree gone. */
  isEnded: boolean;
  sessionId?: string;
  model?: string;
  /** Assistant turns so far (the agent's own count once it reports its result). */
  turns: number;
  costUsd?: number;
  usage?: TaskUsage;
  /** Tools in flight now (several when run in parallel). */
  currentTools: TaskToolCall[];
  /** The last tool calls (bounded), newest last. */
  recentTools: TaskToolCall[];
  toolCallCount: number;
  /** Tail of the streamed assistant text (bounded). */
  text: string;
  lastActivity?: TaskActivity;
  /** A live warning while the watchdog holds an extension (cleared by the next message). */
  stallWarning?: string;
  decisions: TaskDecision[];
  result?: TaskResult;
  /** Why the task failed, stalled or was cancelled. */
  error?: string;
  /** Output lines that were not JSON (stderr, wrapper noise): how many, and the last few. */
  noiseLineCount: number;
  noiseTail: string[];
  /** Deadlines of the running watchdog (epoch ms). */
  deadlines?: { idleAt?: number; turnAt?: number; wallClockAt?: number };
}

// --- MCP tool inputs (registered in src/shared/mcp.ts's McpToolInput) ---

const TaskId = z.string().min(1).max(100).describe('Task id as returned by start_task (the task\'s process entry id, e.g. "p_3f9a2c")');
/** Longest a single wait_for_task may block (an hour; progress notifications keep the client's timer alive). */
const MAX_TASK_WAIT_SECONDS = 3_600;
export const DEFAULT_TASK_WAIT_SECONDS = 300;

export const TASK_TOOL_INPUT = {
  start_task: {
    prompt: z.string().min(1).max(MAX_TASK_PROMPT_CHARS).describe('What the headless agent should do'),
    working_dir: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('Working directory, relative to the project root or absolute (default: project root)'),
    max_turns: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .optional()
      .describe('Stop after this many agent turns (the result is then error_max_turns)'),
    max_budget_usd: z.number().positive().max(100_000).optional().describe('Stop once the run has cost this many US dollars'),
    timeouts: z
      .strictObject({
        idle_seconds: Seconds.optional().describe(`No output for this long → stall check (default ${DEFAULT_TASK_TIMEOUTS.idleMs / 1000})`),
        turn_seconds: Seconds.optional().describe(
          `No complete assistant message for this long → stall check (default ${DEFAULT_TASK_TIMEOUTS.turnMs / 1000})`,
        ),
        wall_clock_seconds: Seconds.optional().describe(`Hard cap on the whole run (default ${DEFAULT_TASK_TIMEOUTS.wallClockMs / 1000})`),
      })
      .optional()
      .describe(
        'Watchdog timeouts; a long-running tool (Bash with its own timeout, a subagent) earns an extension before a stall is declared',
      ),
    allowed_tools: z
      .array(z.string().min(1).max(500))
      .max(200)
      .optional()
      .describe('Tools allowed without asking, e.g. ["Read", "Bash(npm test:*)"]'),
    permission_mode: z
      .enum(TASK_PERMISSION_MODES)
      .optional()
      .describe('Claude Code permission mode (default: "default"; headless runs deny what would need asking)'),
    resume_session_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,200}$/)
      .optional()
      .describe('Continue the conversation of an earlier task (its session_id)'),
    name: z.string().min(1).max(200).optional().describe('Label shown in the UI'),
    second_opinion: z.boolean().optional().describe('Ask a fast model before declaring a stall (default false)'),
  },
  get_task: { task_id: TaskId },
  cancel_task: { task_id: TaskId },
  wait_for_task: {
    task_id: TaskId,
    timeout_seconds: z
      .number()
      .min(0)
      .max(MAX_TASK_WAIT_SECONDS)
      .optional()
      .describe(`Seconds to wait for the task to end before returning its current state (default ${DEFAULT_TASK_WAIT_SECONDS})`),
  },
} as const satisfies Record<string, z.ZodRawShape>;

// --- results of the task commands and tools ---

/** A task as get_task, start_task and the control API return it: the task plus its entry. */
export interface TaskView extends TaskInfo {
  /** The task id is its process entry's id (get_process_output etc. work on it too). */
  taskId: string;
  name: string;
  /** The entry's run state (running while the agent's process tree is up). */
  state: RunState;
  pid?: number;
}

type TaskWaitEnd = 'ended' | 'timeout' | 'cancelled' | 'closed';

export interface TaskWaitResult {
  /** The task reached a terminal phase and its process tree is gone. */
  isEnded: boolean;
  reason: TaskWaitEnd;
  message: string;
  elapsedMs: number;
  task?: TaskView;
}

export interface TaskProgress {
  elapsedMs: number;
  phase: TaskPhase;
  message: string;
}
