/**
 * Input schemas of the MCP tools (docs/mcp.md): names and parameters exactly as the spec's table.
 * Registered by core/mcp/tools/<group>.ts; the descriptions are what an agent reads, so each says
 * what the parameter does and its default.
 */
import { z } from 'zod';
import { TerminalCols, TerminalRows } from './terminalSize';
import { TASK_TOOL_INPUT } from './task';
import { WORKTREE_TOOL_INPUT, WorktreeArg } from './worktree';
import { DEFAULT_READY_TIMEOUT_MS, ReadinessConfigSchema } from './readyConfig';
import { SandboxConfigSchema } from './sandbox';
import { BudgetConfigSchema } from './budget';

/** Default and ceiling for text returned by output tools: a screenful of tokens, not a log dump. */
export const DEFAULT_OUTPUT_BYTES = 16 * 1024;
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Longest a single `wait_for_pattern` may block (an hour; progress keeps the client's timer alive). */
const MAX_WAIT_SECONDS = 3_600;
export const DEFAULT_WAIT_SECONDS = 30;
/** Longest `send_input` waits before returning the screen. */
const MAX_INPUT_WAIT_MS = 30_000;
export const DEFAULT_SEARCH_LIMIT = 50;
const MAX_SEARCH_LIMIT = 1_000;
const MAX_READY_TIMEOUT_MS = 3_600_000;
/** Largest text typed by one `send_input` / `send_message` call. */
const MAX_INPUT_CHARS = 1_000_000;

/** Keys `send_input` accepts with kind "key" (tmux-style names; C-x is Ctrl+x, M-x is Alt+x). */
export const NAMED_KEYS = [
  'Enter',
  'Escape',
  'Tab',
  'BTab',
  'Backspace',
  'Delete',
  'Insert',
  'Space',
  'Up',
  'Down',
  'Left',
  'Right',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'F1',
  'F2',
  'F3',
  'F4',
  'F5',
  'F6',
  'F7',
  'F8',
  'F9',
  'F10',
  'F11',
  'F12',
] as const;

const ProcessId = z.string().min(1).max(100).describe('Process entry id, e.g. "p_3f9a2c" (see list_processes)');
const WorktreeScope = z
  .string()
  .min(1)
  .max(100)
  .describe(
    'Only this worktree\'s entries ("main" for the main checkout), or "*" for all in creation order (default: all, your own worktree\'s first)',
  );
const Signal = z
  .enum(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'])
  .describe('Signal sent to the whole process tree first (default SIGTERM; SIGKILL follows after the grace period)');
const Cols = TerminalCols.describe('Initial PTY width in columns until a pane resizes it (default 120)');
const Rows = TerminalRows.describe('Initial PTY height in rows until a pane resizes it (default 40)');
const Env = z.record(z.string(), z.string()).describe('Extra environment variables');
const Name = z.string().min(1).max(200);
const WorkingDir = z
  .string()
  .min(1)
  .max(4096)
  .describe('Working directory, relative to the project root or absolute (default: project root)');
const MaxBytes = z
  .number()
  .int()
  .min(1)
  .max(MAX_OUTPUT_BYTES)
  .describe(`Most bytes of output to return (default ${DEFAULT_OUTPUT_BYTES}, at most ${MAX_OUTPUT_BYTES})`);
const SinceOffset = z
  .number()
  .int()
  .min(0)
  .describe('Byte offset to read from: pass the next_offset of the previous call (default: the newest max_bytes)');
const Pattern = z
  .string()
  .min(1)
  .max(2_000)
  .describe('JavaScript regular expression, matched per line of ANSI-stripped output; "/source/flags" passes flags, e.g. "/ready/i"');
const ScratchpadName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/,
    'scratchpad names are 1–100 letters, digits, ".", "_" or "-", starting with a letter or digit',
  )
  .describe('Scratchpad name, e.g. "plan" or "api-notes"');
const ExpectedRevision = z
  .number()
  .int()
  .min(0)
  .describe('Only succeed if the scratchpad is at this revision (0: it must not exist yet). A stale revision fails and changes nothing');
const TimerOwner = z.string().min(1).max(100).describe('Process that owns the timer and receives its body (default: the caller)');
const TimerId = z.string().min(1).max(100);
const ONE_WEEK_S = 7 * 24 * 3600;
const TimerSeconds = z.number().min(0).max(ONE_WEEK_S);
/** timer_fire_when_idle_any and _all take the same arguments. */
const IDLE_TIMER_ARGS = {
  watched: z.array(ProcessId).min(1).max(100).describe('Agent entries to watch'),
  body: z.string().min(1).max(100_000),
  max_wait_seconds: TimerSeconds.optional(),
  label: z.string().max(200).optional(),
  owner_process_id: TimerOwner.optional(),
};

export const McpToolInput = {
  whoami: {},
  help: {
    topic: z
      .string()
      .max(200)
      .optional()
      .describe('A tool name or a topic ("offsets", "identity", "patterns", "scratchpads"); omit for an overview'),
  },
  get_project_status: { worktree: WorktreeScope.optional() },
  trust_project: {
    entries: z
      .array(z.string().min(1).max(200))
      .optional()
      .describe(
        'Config keys to trust, e.g. ["processes.web", "agents.lead"] (see get_project_status trust.pending); omit to trust everything that waits',
      ),
  },
  list_processes: {
    kind: z.enum(['command', 'terminal', 'agent', 'task']).optional().describe('Only entries of this kind'),
    worktree: WorktreeScope.optional(),
  },
  get_process_status: { process_id: ProcessId },
  spawn_process: {
    kind: z.enum(['command', 'terminal']).describe('"command" for a program (dev server, build), "terminal" for an interactive shell'),
    argv: z.array(z.string()).min(1).optional().describe('Program and arguments, e.g. ["npm", "run", "dev"]'),
    preset: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Name of a process in switchboard.json to start another instance of (instead of argv)'),
    name: Name.optional().describe('Label shown in the UI (default: the command line)'),
    working_dir: WorkingDir.optional(),
    env: Env.optional(),
    shell: z.string().min(1).max(100_000).optional().describe('A shell command line run with /bin/sh -c (instead of argv)'),
    ready: ReadinessConfigSchema.optional().describe(
      'Readiness settings as in switchboard.json: readyPatterns, errorPatterns, port, url, framework, stabilityDelay, timeout (ms)',
    ),
    cols: Cols.optional(),
    rows: Rows.optional(),
    worktree: WorktreeArg.optional(),
    sandbox: SandboxConfigSchema.optional().describe(
      'Run it in a sandbox: true for the defaults (worktree writable, home hidden, no network but Switchboard and its API), or {fs: {rw, ro, hidden}, network: {allow: ["host", "host:port"]}, memoryMb, maxProcesses}. What a sandboxed caller spawns runs in its own sandbox regardless',
    ),
  },
  spawn_agent: {
    agent: z
      .string()
      .min(1)
      .max(100)
      .describe(
        "A switchboard.json agent's name (its command, env and settings), or a preset: claude, codex, gemini, opencode, qwen, pi, copilot, aider, cursor-agent or generic",
      ),
    agent_instructions: z.string().max(MAX_INPUT_CHARS).optional().describe('First user turn, typed once the agent is ready for input'),
    name: Name.optional().describe('Label shown in the UI (default: the preset name)'),
    working_dir: WorkingDir.optional(),
    argv: z
      .array(z.string())
      .min(1)
      .optional()
      .describe("Replaces the preset's command (a wrapper script, another install path); detection rules stay"),
    env: Env.optional(),
    cols: Cols.optional(),
    rows: Rows.optional(),
    worktree: WorktreeArg.optional(),
    sandbox: SandboxConfigSchema.optional().describe(
      'Run it in a sandbox: true for the defaults (worktree writable, home hidden, no network but Switchboard and its API), or {fs: {rw, ro, hidden}, network: {allow: ["host", "host:port"]}, memoryMb, maxProcesses}. What a sandboxed caller spawns runs in its own sandbox regardless',
    ),
    budget: BudgetConfigSchema.optional().describe(
      'A cap for the new agent: {usd or tokens, period: "day" or "run", interrupt?}. At it Switchboard sends the agent nothing more until a person goes on once or raises it. Refused for a switchboard.json agent that has its own',
    ),
  },
  start_process: {
    process_id: ProcessId.describe(
      'Process entry id, or a switchboard.json process name: its instance in the worktree, made on its own port if it has none yet',
    ),
    worktree: WorktreeArg.optional().describe(
      'Worktree id a process name is started in (default: your own worktree; "main" for the main checkout)',
    ),
  },
  resume_process: { process_id: ProcessId },
  stop_process: { process_id: ProcessId, signal: Signal.optional() },
  close_process: { process_id: ProcessId, signal: Signal.optional() },
  restart_process: {
    process_id: ProcessId,
    signal: Signal.optional(),
    wait_for_ready: z
      .boolean()
      .optional()
      .describe('Wait until the process is ready (or failed) and return the readiness result (default true)'),
    ready_timeout: z
      .number()
      .int()
      .min(1)
      .max(MAX_READY_TIMEOUT_MS)
      .optional()
      .describe(`Milliseconds to wait for readiness (default ${DEFAULT_READY_TIMEOUT_MS})`),
  },
  check_process_ready: { process_id: ProcessId },
  rename_process: { process_id: ProcessId, name: Name.describe('New label') },
  select_process: { process_id: ProcessId },
  get_process_output: {
    process_id: ProcessId,
    mode: z
      .enum(['grid', 'stream'])
      .optional()
      .describe('"grid" (default): the rendered screen, blank lines trimmed. "stream": ANSI-stripped output text from since_offset'),
    since_offset: SinceOffset.optional(),
    max_bytes: MaxBytes.optional(),
    run: z
      .enum(['current', 'previous'])
      .optional()
      .describe(
        '"current" (default): this app run. "previous": what the entry showed when the app last quit or crashed (its saved scrollback), newest max_bytes',
      ),
  },
  get_process_raw_output: { process_id: ProcessId, since_offset: SinceOffset.optional(), max_bytes: MaxBytes.optional() },
  search_output: {
    process_id: ProcessId,
    pattern: Pattern,
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_LIMIT)
      .optional()
      .describe(`Most matches returned, newest kept (default ${DEFAULT_SEARCH_LIMIT})`),
  },
  wait_for_pattern: {
    process_id: ProcessId,
    pattern: Pattern,
    timeout_seconds: z
      .number()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .describe(`Seconds to wait before giving up (default ${DEFAULT_WAIT_SECONDS})`),
    from: z
      .enum(['now', 'start'])
      .optional()
      .describe('"now" (default): only output after this call counts. "start": the current run\'s output so far counts too'),
  },
  get_process_ports: { process_id: ProcessId },
  send_input: {
    process_id: ProcessId,
    kind: z
      .enum(['text', 'paste', 'key'])
      .describe('"text": typed as is; "paste": bracketed paste when the program enabled it; "key": a named key'),
    text: z.string().max(MAX_INPUT_CHARS).optional().describe('Text for kind "text" or "paste"'),
    key: z
      .string()
      .min(1)
      .max(40)
      .optional()
      .describe(`For kind "key": ${NAMED_KEYS.join(', ')}, C-<letter> (Ctrl, e.g. C-c), M-<key> (Alt)`),
    submit: z.boolean().optional().describe('Press Enter afterwards, as a separate write (default false)'),
    wait_ms: z
      .number()
      .int()
      .min(0)
      .max(MAX_INPUT_WAIT_MS)
      .optional()
      .describe('Return the screen after waiting this many milliseconds (default: return at once, no screen)'),
  },
  send_message: {
    target_process_id: ProcessId.describe('Agent entry that receives the message'),
    message: z.string().min(1).max(MAX_INPUT_CHARS).describe('Text delivered as a user turn, tagged with the sender'),
  },
  list_waiting: {},
  answer_prompt: {
    process_id: ProcessId.describe('The waiting agent'),
    fingerprint: z.string().min(1).max(200).describe('The prompt fingerprint list_waiting returned for it'),
    choice: z.enum(['approve', 'deny', 'answer']).describe('One of the choices list_waiting offered for this prompt'),
    text: z
      .string()
      .min(1)
      .max(10_000)
      .optional()
      .describe('The typed answer, for a choice list_waiting marks takesText (a question answered in words)'),
  },
  resolve_blocked: {
    process_id: ProcessId.describe('The blocked agent (list_waiting marks it with blocked)'),
    action: z
      .enum(['open_pane', 'continue_at_reset', 'retry_now'])
      .describe(
        'open_pane: select it (sign in there); retry_now: type its continue now; continue_at_reset: a timer that types it at the limit reset',
      ),
  },
  set_continue_at_reset: {
    process_id: ProcessId.describe('The agent'),
    enabled: z.boolean().describe('true: continue by itself at a limit (at the reset, or probing with back-off); false: do not'),
  },
  get_usage: {
    process_id: ProcessId.optional().describe("An agent entry (yourself or one you may read); omit for the project's totals"),
  },
  request_human_attention: {
    process_id: ProcessId.optional().describe('Entry to flag (default: the caller)'),
    reason: z.string().min(1).max(2_000).describe('What the person should look at or decide'),
  },
  timer_set: {
    seconds: TimerSeconds.describe('Delay before the timer fires'),
    body: z.string().min(1).max(100_000).describe('Text delivered to the owner as a user turn'),
    label: z.string().max(200).optional(),
    owner_process_id: TimerOwner.optional(),
  },
  timer_fire_when_idle_any: IDLE_TIMER_ARGS,
  timer_fire_when_idle_all: IDLE_TIMER_ARGS,
  timer_cancel: { timer_id: TimerId },
  timer_pause: { timer_id: TimerId },
  timer_resume: { timer_id: TimerId },
  timer_list: {},
  timer_wait: {
    seconds: TimerSeconds,
    label: z.string().max(200).optional(),
  },
  scratchpad_list: {},
  scratchpad_read: { name: ScratchpadName },
  scratchpad_write: {
    name: ScratchpadName,
    content: z.string().describe('The whole new content'),
    expected_revision: ExpectedRevision.optional(),
  },
  scratchpad_append: {
    name: ScratchpadName,
    content: z.string().min(1).describe('Text added at the end (creates the scratchpad if missing)'),
    expected_revision: ExpectedRevision.optional(),
  },
  scratchpad_delete: { name: ScratchpadName, expected_revision: ExpectedRevision.optional() },
  // Tasks: start_task, get_task, cancel_task, wait_for_task; schemas in ./task.ts
  ...TASK_TOOL_INPUT,
  // Worktrees: create_worktree, list_worktrees, worktree_diff, merge_worktree, remove_worktree; schemas in ./worktree.ts
  ...WORKTREE_TOOL_INPUT,
} as const satisfies Record<string, z.ZodRawShape>;

export type McpToolName = keyof typeof McpToolInput;
export type McpToolArgs<T extends McpToolName> = z.infer<z.ZodObject<(typeof McpToolInput)[T]>>;

/** The name Switchboard registers under in agent CLIs' MCP configs (tools appear as mcp__switchboard__*). */
export const MCP_SERVER_NAME = 'switchboard';
/** Path of the endpoint on the loopback server. */
export const MCP_PATH = '/mcp';
/** Sibling path where agent hooks (Claude Code HTTP hooks) post, with the process token. */
export const MCP_HOOKS_PATH = '/hooks';
/** Sibling path where Claude Code's status-line command posts its input (usage windows), with the process token; answers the line to print. */
export const MCP_STATUS_LINE_PATH = '/status-line';
/** Environment of every spawned process (docs/mcp.md identity). */
export const MCP_URL_ENV = 'SWITCHBOARD_MCP_URL';
export const MCP_TOKEN_ENV = 'SWITCHBOARD_MCP_TOKEN';
/**
 * What tools/list shows a session (docs/mcp.md "Tool profiles"): "agent" lists the tools the
 * token's scopes allow, each with a one-line description and a schema without prose (help has the
 * detail); "full" lists every tool with its whole description. Every tool is callable either way.
 */
export const MCP_TOOL_PROFILES = ['agent', 'full'] as const;
export type McpToolProfile = (typeof MCP_TOOL_PROFILES)[number];
/** How a client picks a profile at initialize: this header, or the `tools` query parameter of the URL. */
export const MCP_TOOL_PROFILE_HEADER = 'x-switchboard-tools';
export const MCP_TOOL_PROFILE_QUERY = 'tools';
/** Discovery file in the app's data directory. */
export const MCP_ENDPOINT_FILE = 'mcp-endpoint.json';

/**
 * Tools that only read. Agent presets pre-approve these; anything that starts processes or types
 * into them still goes through the agent's own permission prompt, otherwise spawn_process would be
 * a way around the user's Bash rules.
 */
export const READ_ONLY_TOOLS = [
  'whoami',
  'help',
  'get_project_status',
  'list_processes',
  'get_process_status',
  'check_process_ready',
  'get_process_ports',
  'get_process_output',
  'get_process_raw_output',
  'search_output',
  'wait_for_pattern',
  'scratchpad_list',
  'scratchpad_read',
  'timer_list',
  'get_task',
  'wait_for_task',
  'list_worktrees',
  'worktree_diff',
  'get_usage',
] as const satisfies readonly McpToolName[];

export interface McpEndpointInfo {
  url: string;
  token: string;
  pid: number;
}

/**
 * Ready-to-paste lines for agents started outside Switchboard ("Connect an agent" panel). The token
 * is never in a command's arguments (any local user can read those while it runs) nor in a config
 * file: `export` is a shell builtin, and each CLI reads the token from that variable when it
 * connects. Claude Code substitutes `${VAR}` in an MCP server's headers (its config keeps the
 * single-quoted placeholder), Codex takes `--bearer-token-env-var`, opencode substitutes `{env:VAR}`.
 */
export function connectCommands(url: string, token: string): { claude: string; codex: string; opencode: string } {
  const exportToken = `export ${MCP_TOKEN_ENV}=${token}`;
  return {
    claude: `${exportToken}\nclaude mcp add --transport http ${MCP_SERVER_NAME} ${url} --header 'Authorization: Bearer \${${MCP_TOKEN_ENV}}'`,
    codex: `${exportToken}\ncodex mcp add ${MCP_SERVER_NAME} --url ${url} --bearer-token-env-var ${MCP_TOKEN_ENV}`,
    opencode: JSON.stringify(
      {
        $schema: 'https://opencode.ai/config.json',
        mcp: { [MCP_SERVER_NAME]: { type: 'remote', url, enabled: true, headers: { Authorization: `Bearer {env:${MCP_TOKEN_ENV}}` } } },
      },
      null,
      2,
    ),
  };
}
