/**
 * The control API: one contract served by Electron IPC (preload), the `serve` WebSocket bridge,
 * and used by MCP tools through the same core methods. Arguments are zod-validated at every
 * boundary; results and events are plain JSON.
 */
import {
  AgentInWorktreeArgsSchema,
  CommitWorktreeArgsSchema,
  CreateWorktreeArgsSchema,
  MergeWorktreeArgsSchema,
  RemoveWorktreeArgsSchema,
  StartInstanceArgsSchema,
  type MergeResult,
  type RemoveResult,
  type SetupOutcome,
  type PullRequestAvailability,
  type StaleWorktree,
  type WorktreeDiff,
  type WorktreeInfo,
  type WorktreeStatus,
} from './worktree';
import type { UiCommand } from './uiCommand';
import { z } from 'zod';
import { TerminalCols, TerminalRows } from './terminalSize';
import type { ProcessInfo, TimerHistoryEntry, TimerSummary } from './model';
import type { ConfigIssue } from './config';
import type { SerializedError } from './errors';
import { ReadinessConfigSchema } from './readyConfig';
import { SandboxConfigSchema, SandboxNetworkTargetSchema } from './sandbox';
import { TaskRequestSchema, type TaskView } from './task';
import { ProposedEntrySchema, type ConfigProposal } from './proposal';
import { McpScopeSchema, type McpScope, type ProjectTrustState } from './trust';
import { UiStatePatchSchema, type UiState } from './uiState';
import {
  AnswerPromptArgsSchema,
  ResolveBlockedArgsSchema,
  SetContinueAtResetArgsSchema,
  type AnswerPromptResult,
  type ResolveBlockedResult,
  type SetContinueAtResetResult,
  type WaitingAgent,
} from './inbox';
import { BudgetConfigSchema, BudgetGoOnceArgsSchema, SetBudgetArgsSchema, type BudgetCommandResult } from './budget';
import type { ProjectUsage } from './usage';
import type { WorkspaceCommandArgs, WorkspaceCommandName, WorkspaceEvent, WorkspaceResults } from './workspace';

const Id = z.string().min(1, 'process id is required');
const Signal = z.enum(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2']);
const TimerId = z.string().min(1, 'timer id is required').max(100);
const TimerBody = z.string().min(1, 'the timer needs a body').max(100_000);
const TimerLabel = z.string().max(200).optional();
/** Delays and max waits up to 7 days, as in the MCP timer tools. */
const TimerSeconds = z
  .number()
  .min(0)
  .max(7 * 24 * 3600);
const Size = { cols: TerminalCols.optional(), rows: TerminalRows.optional() };

export const CommandArgs = {
  getSnapshot: z.strictObject({}),
  spawnProcess: z.strictObject({
    kind: z.enum(['command', 'terminal']),
    /** Program and arguments; for terminals defaults to the user's shell. */
    argv: z.array(z.string()).min(1).optional(),
    /** A shell command line, run with /bin/sh -c (alternative to argv). */
    shell: z.string().min(1).optional(),
    name: z.string().min(1).max(200).optional(),
    cwd: z.string().min(1).optional(),
    env: z.record(z.string(), z.string()).optional(),
    /** Readiness settings for a command (same fields as in switchboard.json). */
    ready: ReadinessConfigSchema.optional(),
    /** Worktree id to run in (cwd is then relative to the project's folder there); default the main checkout. */
    worktree: z.string().min(1).optional(),
    /** Run it in a sandbox (docs/sandbox.md): `true` for the defaults, or the options. */
    sandbox: SandboxConfigSchema.optional(),
    ...Size,
  }),
  spawnAgent: z.strictObject({
    preset: z.string().min(1),
    name: z.string().min(1).max(200).optional(),
    cwd: z.string().min(1).optional(),
    argv: z.array(z.string()).min(1).optional(),
    env: z.record(z.string(), z.string()).optional(),
    instructions: z.string().optional(),
    /** Worktree id to run in (see spawnProcess). */
    worktree: z.string().min(1).optional(),
    /** Run it in a sandbox (see spawnProcess). */
    sandbox: SandboxConfigSchema.optional(),
    /** Its own cap (docs/usage.md, "Budgets"); not for a switchboard.json agent that has one. */
    budget: BudgetConfigSchema.optional(),
    ...Size,
  }),
  startProcess: z.strictObject({ id: Id }),
  /** Start a stopped agent again, continuing its last conversation (the CLI's own resume). */
  resumeProcess: z.strictObject({ id: Id }),
  stopProcess: z.strictObject({ id: Id, signal: Signal.optional() }),
  restartProcess: z.strictObject({ id: Id, signal: Signal.optional() }),
  closeProcess: z.strictObject({ id: Id }),
  renameProcess: z.strictObject({ id: Id, name: z.string().min(1).max(200) }),
  selectProcess: z.strictObject({ id: Id }),
  resizeProcess: z.strictObject({ id: Id, cols: TerminalCols, rows: TerminalRows }),
  writeInput: z.strictObject({ id: Id, data: z.string().max(1_000_000) }),
  /** Type a reply into an agent as a person would and submit it (the same path as MCP send_message, untagged). */
  sendUserTurn: z.strictObject({ id: Id, text: z.string().trim().min(1, 'type a reply first').max(100_000) }),
  /** Subscribe a pane: returns the current screen; output events for `id` follow. */
  attach: z.strictObject({ id: Id }),
  detach: z.strictObject({ id: Id }),
  /** The pane's terminal parsed `bytes` more bytes of output (flow control). */
  ackOutput: z.strictObject({ id: Id, bytes: z.number().int().min(0) }),
  /** A person looked at the pane: clears its attention flag. */
  acknowledgeAttention: z.strictObject({ id: Id }),
  /** A person lets a sandboxed entry reach `host` (`host` or `host:port`) from now on (docs/sandbox.md); no MCP tool does this. */
  allowSandboxHost: z.strictObject({ id: Id, host: SandboxNetworkTargetSchema }),
  /** The attention inbox: every waiting agent, what it asks, the answers it takes. */
  listWaiting: z.strictObject({}),
  /** Approve / deny / answer a waiting agent's prompt; refused when the prompt on screen changed. */
  answerPrompt: AnswerPromptArgsSchema,
  /** A blocked agent's action: open its pane, retry now, or continue at its limit's reset (a visible timer). */
  resolveBlocked: ResolveBlockedArgsSchema,
  /** The agent's continue-at-reset toggle: continue by itself at a limit's reset (or probe with back-off). */
  setContinueAtReset: SetContinueAtResetArgsSchema,
  /** A person sets (or removes) an agent's or the project's budget for this app run (docs/usage.md, "Budgets"); no MCP tool does this. */
  setBudget: SetBudgetArgsSchema,
  /** A person lets exactly one held delivery through to an agent at its budget; no MCP tool does this. */
  budgetGoOnce: BudgetGoOnceArgsSchema,
  /** The project's usage: every agent's record and the per-day history (the same core method as MCP get_usage). */
  getUsage: z.strictObject({}),
  /** A person read an agent's usage-window warning: its inbox row goes and is not shown again for that window and reset. */
  dismissUsageWarning: z.strictObject({ id: Id, window: z.string().min(1).max(200), resets_at: z.string().max(100).nullable() }),
  // Timers: the UI acts as the app, so it sees and manages every timer
  /** Live timers (of one owner, or all) and the history of ended ones. */
  listTimers: z.strictObject({ ownerId: Id.optional() }),
  pauseTimer: z.strictObject({ timerId: TimerId }),
  resumeTimer: z.strictObject({ timerId: TimerId }),
  cancelTimer: z.strictObject({ timerId: TimerId }),
  /** A new timer owned by `ownerId` (the same TimerManager methods as MCP timer_set / timer_fire_when_idle_*). */
  setTimer: z.union([
    z.strictObject({ kind: z.literal('delay'), ownerId: Id, body: TimerBody, label: TimerLabel, seconds: TimerSeconds }),
    z.strictObject({
      kind: z.enum(['idle_any', 'idle_all']),
      ownerId: Id,
      body: TimerBody,
      label: TimerLabel,
      watched: z.array(Id).min(1, 'pick at least one agent to watch').max(100),
      maxWaitSeconds: TimerSeconds.optional(),
    }),
  ]),
  /** Deliver now (still only once the owner is at its prompt). */
  fireTimerNow: z.strictObject({ timerId: TimerId }),
  // Tasks: the same core methods the MCP task tools call
  /** Start a headless agent task; comes back at once (a spawn failure as a failed task). */
  startTask: TaskRequestSchema,
  getTask: z.strictObject({ id: Id }),
  /** Resolves once the task's whole process tree is gone. */
  cancelTask: z.strictObject({ id: Id }),
  /** First run: entries proposed from the project's own manifests (nothing when switchboard.json exists). */
  proposeConfig: z.strictObject({}),
  /** Write the kept entries as switchboard.json (never over an existing one) and load it. */
  writeConfig: z.strictObject({ entries: z.array(ProposedEntrySchema).min(1, 'keep at least one entry').max(200) }),
  /** Trust the config entries waiting for it (all when `keys` is absent): they may run from now on. */
  grantTrust: z.strictObject({ keys: z.array(z.string().min(1)).optional() }),
  /** Trust one entry and start it (the Start button of an untrusted entry, after the prompt). */
  trustAndStart: z.strictObject({ id: Id }),
  /** Scopes a person grants an entry's MCP token for as long as the entry exists. */
  grantScopes: z.strictObject({ id: Id, scopes: z.array(McpScopeSchema).min(1) }),
  // The project's view state (theme, zoom, layout), kept by the core for every window
  getUiState: z.strictObject({}),
  /** Replace the fields given; returns the whole state. */
  setUiState: z.strictObject({ patch: UiStatePatchSchema }),
  /**
   * Open a project file at a line in the editor the core is configured with. `path` is relative to
   * the entry's working directory (`id`) or the project; files outside the project are refused.
   */
  openInEditor: z.strictObject({
    path: z.string().min(1).max(4096),
    line: z.number().int().min(1).max(10_000_000).optional(),
    column: z.number().int().min(1).max(100_000).optional(),
    id: Id.optional(),
  }),
  // Worktrees (docs/worktrees.md): the same WorktreeService methods the MCP worktree tools call
  createWorktree: CreateWorktreeArgsSchema,
  listWorktrees: z.strictObject({}),
  worktreeDiff: z.strictObject({ worktree: z.string().min(1) }),
  commitWorktree: CommitWorktreeArgsSchema,
  mergeWorktree: MergeWorktreeArgsSchema,
  removeWorktree: RemoveWorktreeArgsSchema,
  /** Whether push + pull request can work (the user's `gh` installed and signed in, a remote), or why not. */
  pullRequestAvailability: z.strictObject({ worktree: z.string().min(1) }),
  /** Push the worktree's branch and open a pull request into its base with the user's `gh`. */
  openPullRequest: z.strictObject({ worktree: z.string().min(1) }),
  /** The prune view: worktrees whose folder is gone, whose branch is merged, or unused for `unusedDays` (default 7). */
  listStaleWorktrees: z.strictObject({ unusedDays: z.number().min(0).max(3650).optional() }),
  /** The review's "Ask the agent": the worktree's agent writes a commit message and hands it back through MCP. */
  askCommitMessage: z.strictObject({ worktree: z.string().min(1) }),
  /** "New agent in a worktree…": create it, set it up, then the agent (its instructions only after set-up completed). */
  startAgentInWorktree: AgentInWorktreeArgsSchema,
  /** A config entry started in a worktree on demand: its instance there (made with its own port if new), dependencies first. */
  startInWorktree: StartInstanceArgsSchema,
} as const;

export type CommandName = keyof typeof CommandArgs;
export type CommandArgsOf<C extends CommandName> = z.input<(typeof CommandArgs)[C]>;

export interface ProjectInfo {
  dir: string;
  name: string;
}

export interface McpConnectionInfo {
  url: string;
  token: string;
}

export interface Snapshot {
  project: ProjectInfo;
  processes: ProcessInfo[];
  configIssues: ConfigIssue[];
  mcp?: McpConnectionInfo;
  selectedId?: string;
  trust: ProjectTrustState;
}

interface AttachResult {
  screen: string;
  offset: number;
  cols: number;
  rows: number;
}

interface CommandResults {
  getSnapshot: Snapshot;
  spawnProcess: ProcessInfo;
  spawnAgent: ProcessInfo;
  startProcess: ProcessInfo;
  resumeProcess: ProcessInfo;
  stopProcess: ProcessInfo;
  restartProcess: ProcessInfo;
  closeProcess: { closed: true };
  renameProcess: ProcessInfo;
  selectProcess: { selected: string };
  resizeProcess: null;
  writeInput: null;
  sendUserTurn: null;
  attach: AttachResult;
  detach: null;
  ackOutput: null;
  acknowledgeAttention: null;
  allowSandboxHost: null;
  listWaiting: { agents: WaitingAgent[] };
  answerPrompt: AnswerPromptResult;
  resolveBlocked: ResolveBlockedResult;
  setContinueAtReset: SetContinueAtResetResult;
  setBudget: BudgetCommandResult;
  budgetGoOnce: BudgetCommandResult;
  getUsage: ProjectUsage;
  dismissUsageWarning: null;
  // Timers
  listTimers: { timers: TimerSummary[]; history: TimerHistoryEntry[] };
  setTimer: TimerSummary;
  pauseTimer: TimerSummary;
  resumeTimer: TimerSummary;
  cancelTimer: TimerHistoryEntry;
  fireTimerNow: TimerSummary;
  // Tasks
  startTask: TaskView;
  getTask: TaskView;
  cancelTask: TaskView;
  proposeConfig: ConfigProposal;
  writeConfig: { path: string };
  grantTrust: ProjectTrustState;
  trustAndStart: ProcessInfo;
  grantScopes: { id: string; scopes: McpScope[] };
  getUiState: UiState;
  setUiState: UiState;
  openInEditor: { file: string; editor: string };
  createWorktree: { worktree: WorktreeInfo; setup: SetupOutcome };
  /** `untrusted`: why nothing is listed (the folder is not trusted yet: no git ran). */
  listWorktrees: { worktrees: WorktreeStatus[]; untrusted?: string };
  worktreeDiff: WorktreeDiff;
  commitWorktree: { commit: string };
  mergeWorktree: MergeResult;
  removeWorktree: RemoveResult;
  pullRequestAvailability: PullRequestAvailability;
  openPullRequest: { url: string };
  listStaleWorktrees: { worktrees: StaleWorktree[] };
  askCommitMessage: { message: string; agent: string };
  startAgentInWorktree: { worktree: WorktreeInfo; setup: SetupOutcome; agent: ProcessInfo; instructionsDelivered: boolean };
  startInWorktree: ProcessInfo;
}

export type ControlEvent =
  | { type: 'processAdded'; process: ProcessInfo }
  | { type: 'processChanged'; process: ProcessInfo }
  | { type: 'processRemoved'; id: string }
  /** Raw PTY bytes (binary frames on the WebSocket, Uint8Array over IPC). */
  | { type: 'output'; id: string; data: Uint8Array; start: number; end: number }
  /** The pane's stream broke off (its remote host reconnected): attach again for the current screen. */
  | { type: 'outputReset'; id: string }
  | { type: 'configChanged'; issues: ConfigIssue[] }
  | { type: 'processSelected'; id: string }
  | { type: 'attentionRequested'; id: string; reason: string; title: string }
  | { type: 'trustChanged'; trust: ProjectTrustState }
  /** A menu command for the window (desktop shell only). */
  | { type: 'uiCommand'; command: UiCommand }
  | WorkspaceEvent;

/**
 * Wire format shared by the WebSocket bridge (IPC uses invoke/send with the same shapes). A call
 * names the open project it is for (`project`); without one it goes to the active project.
 * Workspace commands take no project. Events of a project carry its id.
 */
export type ClientMessage = { t: 'call'; seq: number; cmd: string; args: unknown; project?: string };
export type ServerMessage =
  | { t: 'result'; seq: number; ok: true; value: unknown }
  | { t: 'result'; seq: number; ok: false; error: SerializedError }
  | { t: 'event'; event: ControlEvent; project?: string };

/** One project's view of the control API: what panes, sidebar and dialogs use. */
export interface ControlClient {
  call<C extends CommandName>(cmd: C, args: CommandArgsOf<C>): Promise<CommandResults[C]>;
  onEvent(listener: (event: ControlEvent) => void): () => void;
}

/** What the renderer's transport gives, whatever it is (preload or WebSocket): every project at once. */
export interface WorkspaceClient {
  call<C extends CommandName>(cmd: C, args: CommandArgsOf<C>, project?: string): Promise<CommandResults[C]>;
  workspace<C extends WorkspaceCommandName>(cmd: C, args: z.input<(typeof WorkspaceCommandArgs)[C]>): Promise<WorkspaceResults[C]>;
  /** `project` is the id of the project an event belongs to (absent for workspace and menu events). */
  onEvent(listener: (event: ControlEvent, project?: string) => void): () => void;
}

export { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from './ipc';
