/**
 * What a session exposes to detectors (ready, status, ports), timers and MCP tools.
 * Detectors only observe: they never write to the PTY or change the entry's lifecycle.
 */
import type { Event } from '../base';
import type { ExitInfo, ProcessKind } from '../../../shared/model';

/** Valid while it is delivered: `data` may be a view of the entry's ring; copy what you keep, read `text` at once. */
export interface OutputChunk {
  /** Raw bytes as the PTY produced them. */
  data: Buffer;
  /** The same bytes decoded as UTF-8 (split multi-byte sequences carried to the next chunk). */
  text: string;
  /** Byte offset of the first byte in the entry's ring (monotonic across runs). */
  start: number;
  /** One past the last byte. */
  end: number;
  runId: number;
}

export interface RunStarted {
  runId: number;
  pid: number;
  at: number;
  /** Ring offset where this run's output begins. */
  offset: number;
  /** Ports the run's wrapper listens on itself (a sandbox's relays): never the program's server. */
  wrapperPorts?: readonly number[];
}

export interface RunExited extends ExitInfo {
  runId: number;
}

export interface ScreenCursor {
  x: number;
  y: number;
}

/** Read-only view of the headless terminal screen (the rendered grid). */
export interface ScreenView {
  readonly cols: number;
  readonly rows: number;
  /** Last OSC 0/2 window title. */
  readonly title: string;
  /** Visible rows as plain text, top to bottom, trailing whitespace trimmed. */
  getVisibleLines(): string[];
  /** Cursor position in the visible viewport (0-based). */
  getCursor(): ScreenCursor;
  /** Fired after parsed output changed the screen (at most once per parsed write batch). */
  readonly onDidChange: Event<void>;
  readonly onDidChangeTitle: Event<string>;
  /** The program's last own state report (OSC 7501 `state=…`, sent by Codex CLI); '' when none or cleared. */
  readonly agentState: string;
  readonly onDidChangeAgentState: Event<string>;
}

export interface ObservedSession {
  readonly id: string;
  readonly kind: ProcessKind;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly runId: number;
  readonly pid: number | undefined;
  readonly isRunning: boolean;
  readonly screen: ScreenView;
  /**
   * Every run's output, each PTY read at once; during a flood, reads merged into batches of up to
   * 32 KB. Check `runId` to keep only the current run.
   */
  readonly onDidWriteOutput: Event<OutputChunk>;
  readonly onDidStartRun: Event<RunStarted>;
  readonly onDidExitRun: Event<RunExited>;
}

/** One run's command line and environment, after every other decoration added to them. */
export interface RunCommand {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** Ports a wrapper (a sandbox) listens on itself inside the run's tree, to be told apart from the program's. */
  wrapperPorts?: number[];
}
