/**
 * The model every side shares: process entries and their observable state.
 * Pure types and zod schemas; imports nothing from main or renderer.
 */
import { z } from 'zod';
import type { ReadinessInfo } from './ready';
import type { AgentStatusInfo } from './status';
import type { PortForward, PortInfo } from './ports';
import type { ReadinessConfig } from './readyConfig';
import type { TaskInfo } from './task';
import type { McpAccessConfig, McpScope } from './trust';
import type { SandboxInfo, SandboxOptions } from './sandbox';

export const PROCESS_KINDS = ['command', 'terminal', 'agent', 'task'] as const;
export type ProcessKind = (typeof PROCESS_KINDS)[number];

export type { RunState } from './runState';
import type { RunState } from './runState';
import type { UsageRecord, UsageWarning } from './usage';
import type { BudgetConfig, BudgetState, DeliveryHold } from './budget';

/** Saved state names entries by id (continuity); ids are `p_` and hex. */
export const ProcessIdSchema = z.string().regex(/^p_[0-9a-f]{6,}$/, 'process ids look like p_3f9a2c');
type ProcessId = string;

export interface ExitInfo {
  exitCode: number;
  /** Signal number when the process was killed by a signal. */
  signal?: number;
  at: number;
}

/** Byte offsets into the entry's output ring (monotonic across runs). */
interface OutputOffsets {
  /** Oldest byte still retained. */
  start: number;
  /** One past the newest byte. */
  end: number;
  /** Where the current (or last) run's output begins. */
  runStart: number;
}

/** A snapshot of one entry, as the UI, the bridge and MCP see it. */
export interface ProcessInfo {
  id: ProcessId;
  name: string;
  kind: ProcessKind;
  argv: string[];
  cwd: string;
  /** Name in switchboard.json when the entry came from the config file. */
  configName?: string;
  /** Worktree id it runs in; absent for the main checkout. */
  worktree?: string;
  /** Stopped because its worktree's agents were idle (`worktrees.idleStop`): not an error; it starts again on demand. */
  idleStopped?: boolean;
  /** The SSH destination it runs on; absent for an entry of this machine. */
  host?: string;
  state: RunState;
  /** Human sentence describing the state ("Exited with code 1", "Command not found: foo"). */
  message: string;
  pid?: number;
  runId: number;
  startedAt?: number;
  lastExit?: ExitInfo;
  cols: number;
  rows: number;
  title: string;
  offsets: OutputOffsets;
  /** PTY paused by flow control (a viewer is behind). */
  isPaused: boolean;
  readiness?: ReadinessInfo;
  agent?: AgentStatusInfo;
  ports?: PortInfo;
  /** A remote entry's ports forwarded to this machine; its URLs are then the local ones. */
  forwards?: PortForward[];
  attention?: AttentionInfo;
  timers?: TimerSummary[];
  /** Task entries: phase, tools, streamed text, watchdog decisions, result. */
  task?: TaskInfo;
  /** Scopes of the entry's MCP token beyond the defaults, and the entry that spawned it (it owns this one). */
  access?: { scopes: McpScope[]; spawnedBy?: ProcessId };
  /** A config entry waiting for the user's trust: never trusted (`new`) or `changed` since. */
  trust?: 'new' | 'changed';
  /** Agent entries: the CLI's conversation identity and whether the Resume action applies. */
  session?: AgentSessionInfo;
  /** The entry came back from the previous app run (its output shows above a `restored` line). */
  restoredAt?: number;
  /** Agent entries: whether a blocked limit is continued by itself, and which setting says so. */
  continueAtReset?: ContinueAtResetInfo;
  /** Agent entries with a budget (their own or the project's): the cap, what was spent, whether it is reached. */
  budget?: BudgetState;
  /** Sandboxed entries: what it may reach and the connections refused. */
  sandbox?: SandboxInfo;
  /** Agent entries whose CLI's records Switchboard reads: tokens, cost, context and usage windows (docs/usage.md). */
  usage?: UsageRecord;
  /** Usage windows at 80 % or more not dismissed yet: the inbox's rows (docs/usage.md). */
  usageWarnings?: UsageWarning[];
}

/** Where the agent's continue-at-reset setting comes from: the toggle, its switchboard.json entry, the project, the default. */
export interface ContinueAtResetInfo {
  enabled: boolean;
  source: 'toggle' | 'agent' | 'project' | 'default';
}

/** What to do with an entry that was running when the app went down. */
export const RESUME_POLICIES = ['auto', 'manual'] as const;
export type ResumePolicy = (typeof RESUME_POLICIES)[number];

export interface AgentSessionInfo {
  /** The agent CLI's own session id of the current or last run, once known. */
  id?: string;
  /** Stopped, with a known session of a CLI that can resume it: Resume continues the conversation. */
  resumable: boolean;
  /** Why Resume does not apply (the CLI cannot resume, no session known yet, still running). */
  reason?: string;
}

interface AttentionInfo {
  reason: string;
  at: number;
  /** Who asked: a process id or 'switchboard' for automatic ones (permission prompts). */
  requestedBy: string;
}

// Timers
/**
 * A live timer as the UI, the control API and MCP see it. `pending`: counting down (delay) or
 * listening for idle transitions; `paused`; `due`: it fired and waits for its owner's prompt.
 */
export interface TimerSummary {
  id: string;
  kind: 'delay' | 'idle_any' | 'idle_all';
  label?: string;
  state: 'pending' | 'paused' | 'due' | 'fired' | 'cancelled' | 'dropped';
  /** The entry that receives the body. */
  ownerId: ProcessId;
  /** Epoch ms when it fires: the delay, or an idle timer's max-wait fallback (absent while paused). */
  firesAt?: number;
  /** Milliseconds left until firesAt; kept while paused. */
  remainingMs?: number;
  /**
   * Its owner came back stopped after an app restart: the time left is kept (no firesAt) and the
   * timer counts down, or is delivered, once the owner runs again (Resume or Start).
   */
  heldForOwner?: true;
  /** A continue at reset: typed while its owner is blocked on its limit, then checked (docs/agent-status.md). */
  whenBlocked?: true;
  /** Due, but Switchboard holds its delivery (the owner is at its budget) until a person lets it through. */
  held?: DeliveryHold;
  /** Idle timers: every watched entry, and those the timer still waits for. */
  watched?: ProcessId[];
  waitingOn?: ProcessId[];
  /** Idle timers: watched agents that are blocked (sign-in, limit, …) and why; the timer waits on them. */
  blockedOn?: Array<{ id: ProcessId; reason: string }>;
  /** The first line of the body, shortened, for tooltips and lists. */
  bodyPreview: string;
  /** Process id of the creator, or "external". */
  createdBy: string;
  createdAt: number;
}

/** A timer that ended: fired (delivered), cancelled, or dropped (its owner or a watched entry went away). */
export interface TimerHistoryEntry {
  id: string;
  kind: TimerSummary['kind'];
  label?: string;
  ownerId: ProcessId;
  ownerName: string;
  state: 'fired' | 'cancelled' | 'dropped';
  /** Why it fired ("delay", "idle", "max_wait", "fire_now") or why it was cancelled or dropped. */
  reason: string;
  endedAt: number;
  bodyPreview: string;
  createdBy: string;
}

export const DEFAULT_COLS = 120;
export const DEFAULT_ROWS = 40;

/** What it takes to create an entry (from switchboard.json, the UI or MCP). */
export interface ProcessSpec {
  name: string;
  kind: ProcessKind;
  /** argv[0] is looked up in PATH unless it contains a slash. */
  argv: string[];
  /** Absolute working directory. */
  cwd: string;
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  /** Name in switchboard.json when created from it. */
  configName?: string;
  /** Agent preset id for agent entries. */
  preset?: string;
  /** Agent entries: stuck threshold overriding the preset's (switchboard.json `stuckThresholdMs`). */
  stuckThresholdMs?: number;
  /** Agent entries: continue by itself at a limit's reset (switchboard.json `continueAtReset`); absent: the project's default. */
  continueAtReset?: boolean;
  /** Agent entries: the cap on what it spends (switchboard.json `budget`); absent: only the project's applies. */
  budget?: BudgetConfig;
  /** Readiness settings for command entries (switchboard.json readiness fields). */
  ready?: Partial<ReadinessConfig>;
  /** After an app restart: `auto` starts (agents: resumes) it again if it was running; `manual` waits for the user. */
  resume?: ResumePolicy;
  /** Keep env values that look like secrets in the saved state (by default they are not written to disk). */
  persistSecretEnv?: boolean;
  /**
   * Text the program reads on stdin (then end of file) instead of the terminal: headless runs
   * that take their input there. Unlike an argument, it is not on the command line `ps` shows.
   */
  stdin?: string;
  /** Entries (by config name) this one waits for before it starts, and the condition for each. */
  dependsOn?: Record<string, DependencyCondition>;
  /** MCP access from switchboard.json: a token for a command, extra scopes for an agent. */
  mcp?: McpAccessConfig;
  /** Worktree id the entry runs in (its cwd is inside it); absent means the main checkout. */
  worktree?: string;
  /** Run the whole tree in a sandbox with these options (docs/sandbox.md); absent: not sandboxed. */
  sandbox?: SandboxOptions;
}

/**
 * What a dependency must reach before its dependent starts: `started` (its process is up),
 * `ready` (readiness passed, or `running` when it declares none), `completed` (a job that exited 0).
 */
export const DEPENDENCY_CONDITIONS = ['started', 'ready', 'completed'] as const;
export type DependencyCondition = (typeof DEPENDENCY_CONDITIONS)[number];
