/**
 * One process entry: its definition, the PTY of the current run, the byte ring, the headless
 * screen, the viewer batcher and flow control. Entries outlive their process (docs/app.md).
 */
import { randomBytes } from 'node:crypto';
import { DisposableBase, Emitter, type Event } from '../base';
import { InvalidArgumentError, NotRunningError, SpawnError, SwitchboardError } from '../../../shared/errors';
import {
  DEFAULT_COLS,
  DEFAULT_ROWS,
  type ExitInfo,
  type ProcessInfo,
  type ProcessKind,
  type ProcessSpec,
  type RunState,
} from '../../../shared/model';
import { ByteRing } from './ringBuffer';
import { sharedPtyHost, type HostedPty, type PtyExit, type PtySpawner } from './ptyHost';
import { sharedScreenPool, type ScreenWorkerPool } from './screenPool';
import type { RemoteScreen } from './remoteScreen';
import { OutputBatcher, type OutputBatch } from './outputBatcher';
import { sharedOutputBudget, type BudgetClient, type OutputBudget } from './outputBudget';
import { FlowController } from './flowControl';
import { KILL_GRACE_MS, killTree, killTreeNow } from './treeKill';
import { checkCwd, resolveCommand } from './commandResolver';
import type { ObservedSession, OutputChunk, RunCommand, RunExited, RunStarted } from './types';
import { LazyTextChunk, incompleteTailLength } from './utf8Chunks';

const EMPTY = Buffer.alloc(0);
/** Output from the PTY thread is taken in pieces of at most this (a viewer batch's MAX_BATCH_BYTES). */
const READ_PIECE_BYTES = 32 * 1024;

/** docs/app.md: memory per entry is bounded; 2 MiB keeps several screens of history per entry. */
const DEFAULT_RING_BYTES = 2 * 1024 * 1024;
/** Environment key of the per-run marker every descendant inherits (found again at kill time). */
export const RUN_MARKER_ENV = 'SWITCHBOARD_RUN';
/** Environment variables of the app that must not leak into children. */
const PRIVATE_ENV_PREFIXES = ['SWITCHBOARD_', 'ELECTRON_RUN_AS_NODE', 'VITEST'];

export interface ProcessEntryOptions {
  id: string;
  spec: ProcessSpec;
  ringBytes?: number;
  scrollback?: number;
  /** The thread that reads the PTYs (default: the process's one). */
  ptys?: PtySpawner;
  /** The worker threads that parse the screen (default: the process's one pool). */
  screens?: ScreenWorkerPool;
  /** Loop time this entry's output may take while others wait (default: the process's one budget). */
  outputBudget?: OutputBudget;
  killGraceMs?: number;
  /** Extra environment for each run (MCP identity), asked at every start. */
  envForRun?: (entry: ProcessEntry) => Record<string, string>;
  /** Extra arguments appended for each run (an agent CLI's MCP wiring), asked at every start. */
  argsForRun?: (entry: ProcessEntry) => string[];
  /** The argv of the next run from the definition's (an agent's session or resume arguments), asked at every start. */
  argvForRun?: (entry: ProcessEntry, argv: readonly string[]) => string[];
  /** The run as spawned, wrapped (a sandbox); throws to refuse the start with its reason. */
  wrapRun?: (entry: ProcessEntry, run: RunCommand) => RunCommand;
}

interface AttachSnapshot {
  /** Serialized screen (escape sequences) to write into a fresh terminal. */
  screen: string;
  /** Ring offset the snapshot reflects: drop stream batches ending at or before it. */
  offset: number;
  cols: number;
  rows: number;
}

export class ProcessEntry extends DisposableBase implements ObservedSession {
  readonly id: string;
  readonly kind: ProcessKind;
  private spec: ProcessSpec;
  private runState: RunState = 'stopped';
  private stateMessage = 'Not started';
  private currentRunId = 0;
  private currentPid: number | undefined;
  private runStartedAt: number | undefined;
  private runStartOffset = 0;
  private exitInfo: ExitInfo | undefined;
  private ptyProcess: HostedPty | undefined;
  private readonly ptys: PtySpawner;
  private readonly readPieceBytes: number;
  private runMarker = '';
  /** The last run's leader, kept after it exits: its marked descendants may still be stopping. */
  private lastRunPid: number | undefined;
  private exited: Promise<void> = Promise.resolve();
  private isStopRequested = false;
  private utf8Carry: Buffer = EMPTY;
  private sizeCols: number;
  private sizeRows: number;
  private readonly killGraceMs: number;
  private readonly envForRun?: (entry: ProcessEntry) => Record<string, string>;
  private readonly argsForRun?: (entry: ProcessEntry) => string[];
  private readonly argvForRun?: (entry: ProcessEntry, argv: readonly string[]) => string[];
  private readonly wrapRun?: (entry: ProcessEntry, run: RunCommand) => RunCommand;
  private restoredTime: number | undefined;

  readonly ring: ByteRing;
  readonly screen: RemoteScreen;
  readonly flow = this.register(new FlowController());
  private readonly viewers = new Set<string>();
  private readonly outputBudget: OutputBudget;
  private isOverBudget = false;
  private readonly budgetClient: BudgetClient = {
    setOverBudget: (over) => {
      this.isOverBudget = over;
      this.applyReading();
    },
  };
  private readonly batcher = this.register(
    new OutputBatcher(
      (start, end) => this.ringRange(start, end),
      (batch) => this.deliverBatch(batch),
    ),
  );
  /** Where a batch that spans the ring's wrap is joined (once per ring cycle), reused. */
  private scratch = EMPTY;
  /** A PTY read is being taken in: the batch it delivers is timed with it. */
  private isAcceptingOutput = false;
  /** Our own bytes (banners, restored screens) are being delivered: screen and viewers only. */
  private isDeliveringLocal = false;
  /** Ring offset up to which the screen and the output listeners have the output. */
  private observedEnd = 0;

  private readonly outputEmitter = this.register(new Emitter<OutputChunk>());
  readonly onDidWriteOutput: Event<OutputChunk> = this.outputEmitter.event;
  private readonly runStartedEmitter = this.register(new Emitter<RunStarted>());
  readonly onDidStartRun: Event<RunStarted> = this.runStartedEmitter.event;
  private readonly runExitedEmitter = this.register(new Emitter<RunExited>());
  readonly onDidExitRun: Event<RunExited> = this.runExitedEmitter.event;
  private readonly changedEmitter = this.register(new Emitter<void>());
  /** Anything in `info()` changed (state, name, size, pause). */
  readonly onDidChange: Event<void> = this.changedEmitter.event;
  private readonly flushedEmitter = this.register(new Emitter<OutputBatch>());
  /** Batched output for viewers. */
  readonly onDidFlushOutput: Event<OutputBatch> = this.flushedEmitter.event;

  constructor(options: ProcessEntryOptions) {
    super();
    this.id = options.id;
    this.spec = { ...options.spec, argv: [...options.spec.argv] };
    this.kind = options.spec.kind;
    this.sizeCols = options.spec.cols ?? DEFAULT_COLS;
    this.sizeRows = options.spec.rows ?? DEFAULT_ROWS;
    this.killGraceMs = options.killGraceMs ?? KILL_GRACE_MS;
    this.envForRun = options.envForRun;
    this.argsForRun = options.argsForRun;
    this.argvForRun = options.argvForRun;
    this.wrapRun = options.wrapRun;
    this.ring = new ByteRing(options.ringBytes ?? DEFAULT_RING_BYTES);
    this.ptys = options.ptys ?? sharedPtyHost();
    this.readPieceBytes = Math.max(1, Math.min(READ_PIECE_BYTES, this.ring.capacity >> 1));
    this.screen = this.register(
      (options.screens ?? sharedScreenPool()).open(
        { cols: this.sizeCols, rows: this.sizeRows, scrollback: options.scrollback },
        (since, end) => this.retainedOutput(since, end),
      ),
    );
    this.outputBudget = options.outputBudget ?? sharedOutputBudget;
    this.register({ dispose: () => this.outputBudget.forget(this.budgetClient) });
    this.register(this.flow.onDidChangePaused(() => this.applyPause()));
    this.register(this.screen.onDidChangeTitle(() => this.changedEmitter.fire()));
    // Programs such as Codex wait for answers to their terminal queries before reading input. An
    // attached pane's terminal answers them; with none attached (MCP-only, headless serve), the
    // headless screen does — never both, so no program sees two replies.
    this.register(
      this.screen.onDidReply((reply) => {
        if (this.viewers.size === 0 && this.ptyProcess) this.ptyProcess.write(reply, false);
      }),
    );
  }

  get name(): string {
    return this.spec.name;
  }
  get argv(): readonly string[] {
    return this.spec.argv;
  }
  get cwd(): string {
    return this.spec.cwd;
  }
  get definition(): Readonly<ProcessSpec> {
    return this.spec;
  }
  get runId(): number {
    return this.currentRunId;
  }
  get pid(): number | undefined {
    return this.currentPid;
  }
  get state(): RunState {
    return this.runState;
  }
  get message(): string {
    return this.stateMessage;
  }
  get isRunning(): boolean {
    return this.ptyProcess !== undefined;
  }
  get runOffset(): number {
    return this.runStartOffset;
  }
  get startedAt(): number | undefined {
    return this.runStartedAt;
  }
  get lastExit(): ExitInfo | undefined {
    return this.exitInfo;
  }
  /** The environment marker of the current (or last) run: finds its processes again, even after a crash. */
  get currentRunMarker(): string {
    return this.runMarker;
  }
  /** The current (or last) run was asked to stop (stop, restart, close): its exit is not a crash. */
  get wasStopRequested(): boolean {
    return this.isStopRequested;
  }

  info(): ProcessInfo {
    return {
      id: this.id,
      name: this.spec.name,
      kind: this.kind,
      argv: [...this.spec.argv],
      cwd: this.spec.cwd,
      configName: this.spec.configName,
      state: this.runState,
      message: this.stateMessage,
      pid: this.currentPid,
      runId: this.currentRunId,
      startedAt: this.runStartedAt,
      lastExit: this.exitInfo,
      cols: this.sizeCols,
      rows: this.sizeRows,
      title: this.screen.title,
      offsets: { start: this.ring.start, end: this.ring.end, runStart: this.runStartOffset },
      isPaused: this.flow.isPaused,
      ...(this.restoredTime !== undefined ? { restoredAt: this.restoredTime } : {}),
      ...(this.spec.worktree !== undefined ? { worktree: this.spec.worktree } : {}),
    };
  }

  /** Replace the definition (config edits); takes effect at the next start. */
  redefine(spec: ProcessSpec): void {
    this.spec = { ...spec, argv: [...spec.argv] };
    this.changedEmitter.fire();
  }

  rename(name: string): void {
    const trimmed = name.trim();
    if (!trimmed) throw new InvalidArgumentError('A process name cannot be empty');
    this.spec = { ...this.spec, name: trimmed };
    this.changedEmitter.fire();
  }

  /**
   * Shows the previous app run's output (serialized screen) before this run's: dimmed, then a
   * `── restored <time> ──` line. Only before the first run, and only when there was output; offsets
   * of later runs follow it.
   */
  restoreOutput(serializedScreen: string, savedAt: number): void {
    if (this.currentRunId > 0) return;
    this.restoredTime = Date.now();
    const when = new Date(savedAt).toLocaleString();
    // Nothing shown before (an entry that never ran): no marker over an empty past.
    if (!serializedScreen) return;
    this.appendLocal(Buffer.from(`${dimmed(serializedScreen)}\x1b[0m\r\n\x1b[2m── restored ${when} ──\x1b[0m\r\n`));
    this.changedEmitter.fire();
  }

  /**
   * Screen and the newest `maxLines` of scrollback serialized (escape sequences), normal buffer
   * only. `settled`: first wait until the screen parsed everything produced so far (on quit); a
   * periodic save takes what is parsed, so a flood's backlog does not hold it up.
   */
  async serializeScreen(maxLines?: number, settled = false): Promise<string> {
    if (settled) {
      this.batcher.flush();
      await this.screen.flush();
    }
    return this.screen.serializeForRestore(maxLines);
  }

  /** Spawn a new run. A spawn failure leaves the entry in `error` with the reason, and throws it. */
  async start(): Promise<void> {
    this.assertNotDisposed();
    if (this.ptyProcess) return;
    let run: RunCommand;
    try {
      run = this.runCommand();
    } catch (err) {
      this.setState('error', err instanceof Error ? err.message : String(err));
      throw err;
    }
    if (this.currentRunId > 0) this.writeRunBanner();
    this.spawnPty(run.argv[0], run.argv, run.env, run.wrapperPorts);
  }

  /** The next run's program (resolved), arguments and env, after every decoration (a wrapper last). */
  private runCommand(): RunCommand {
    const env = this.buildEnv();
    const argv = [...(this.argvForRun?.(this, this.spec.argv) ?? this.spec.argv), ...(this.argsForRun?.(this) ?? [])];
    checkCwd(this.spec.cwd);
    const program = resolveCommand(argv[0], this.spec.cwd, env);
    const run = { argv: [program, ...argv.slice(1)], env, cwd: this.spec.cwd };
    if (!this.wrapRun) return run;
    const wrapped = this.wrapRun(this, run);
    return { ...wrapped, argv: [resolveCommand(wrapped.argv[0], this.spec.cwd, wrapped.env), ...wrapped.argv.slice(1)] };
  }

  /** Stop the run: the whole tree gets `signal`, then SIGKILL after the grace period. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const proc = this.ptyProcess;
    if (!proc) return;
    this.isStopRequested = true;
    const exited = this.exited;
    await killTree({ pid: proc.pid, marker: { key: RUN_MARKER_ENV, value: this.runMarker } }, signal, this.killGraceMs);
    await exited;
  }

  /** SIGKILL the current (or last, if still stopping) run's tree synchronously; no waiting. */
  killNow(): void {
    const pid = this.ptyProcess?.pid ?? this.lastRunPid;
    if (pid !== undefined && this.runMarker) killTreeNow({ pid, marker: { key: RUN_MARKER_ENV, value: this.runMarker } });
  }

  async restart(signal?: NodeJS.Signals): Promise<void> {
    await this.stop(signal);
    await this.start();
  }

  write(data: string): void {
    if (!this.ptyProcess) throw new NotRunningError(this.id, this.spec.name);
    this.ptyProcess.write(data, true);
  }

  resize(cols: number, rows: number): void {
    if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 2 || rows < 1 || cols > 1000 || rows > 500) {
      throw new InvalidArgumentError(`Invalid terminal size ${cols}x${rows}: cols 2–1000, rows 1–500`);
    }
    if (cols === this.sizeCols && rows === this.sizeRows) return;
    this.batcher.flush(); // bytes already produced belong to the old geometry
    this.sizeCols = cols;
    this.sizeRows = rows;
    this.ptyProcess?.resize(cols, rows);
    this.screen.resize(cols, rows);
    this.changedEmitter.fire();
  }

  /** A viewer's terminal shows this entry (and answers its queries) from now on. */
  addViewer(viewerId: string): void {
    this.viewers.add(viewerId);
  }

  removeViewer(viewerId: string): void {
    this.viewers.delete(viewerId);
    this.flow.removeViewer(viewerId);
  }

  /**
   * Hands every byte read so far to the screen, the output listeners and the viewers now instead
   * of at the end of the batch window: a reader that subscribes to `onDidWriteOutput` and reads
   * the ring in the same tick then sees each byte exactly once.
   */
  flushOutput(): void {
    this.batcher.flush();
  }

  /** Snapshot of the screen consistent with the batch stream (see AttachSnapshot.offset). */
  async attach(): Promise<AttachSnapshot> {
    this.batcher.flush();
    const { screen, offset } = await this.screen.serialize();
    return { screen, offset, cols: this.sizeCols, rows: this.sizeRows };
  }

  /** Stop, then release everything. Idempotent. */
  async close(): Promise<void> {
    if (this.isDisposed) return;
    await this.stop();
    this.dispose();
  }

  override dispose(): void {
    if (this.isDisposed) return;
    // Last resort if dispose() is called without close(): no child may outlive its entry.
    if (this.ptyProcess) void killTree({ pid: this.ptyProcess.pid, marker: { key: RUN_MARKER_ENV, value: this.runMarker } }, 'SIGKILL', 0);
    super.dispose();
  }

  private spawnPty(file: string, argv: readonly string[], env: Record<string, string>, wrapperPorts?: readonly number[]): void {
    this.currentRunId += 1;
    this.runMarker = `${this.id}.${this.currentRunId}.${randomBytes(4).toString('hex')}`;
    env[RUN_MARKER_ENV] = this.runMarker;
    this.isStopRequested = false;
    this.utf8Carry = EMPTY;
    this.flow.reset();
    let proc: HostedPty;
    const runId = this.currentRunId;
    let resolveExit!: () => void;
    const [program, args] = withStdinFeed(file, argv.slice(1), this.spec.stdin, env);
    const options = { name: env.TERM ?? 'xterm-256color', cols: this.sizeCols, rows: this.sizeRows, cwd: this.spec.cwd, env };
    try {
      proc = this.ptys.spawn(program, args, options, {
        onData: (data) => this.takeOutput(data),
        onExit: (exit) => {
          this.batcher.flush();
          // The screen is parsed on a worker: the run's last output is on it before anyone hears of the exit.
          void this.screen.flush().then(() => {
            this.handleExit(runId, exit);
            resolveExit();
          });
        },
      });
    } catch (err) {
      const message = `Could not start ${argv[0]}: ${err instanceof Error ? err.message : String(err)}`;
      this.setState('error', message);
      throw new SpawnError(message, 'other');
    }
    this.ptyProcess = proc;
    this.lastRunPid = proc.pid;
    this.currentPid = proc.pid;
    this.runStartedAt = Date.now();
    this.runStartOffset = this.ring.end;
    this.exited = new Promise((resolve) => (resolveExit = resolve));
    this.setState('running', `Running (pid ${proc.pid})`);
    this.runStartedEmitter.fire({ runId, pid: proc.pid, at: this.runStartedAt, offset: this.runStartOffset, wrapperPorts });
  }

  /**
   * Output from the PTY thread: a read, or the reads it held while we were busy (up to its
   * HELD_MAX_BYTES), taken in as pieces no larger than a viewer's batch so a batch still never
   * holds more than the ring retains or the flow-control watermark allows.
   */
  private takeOutput(data: Buffer): void {
    for (let at = 0; at < data.length; at += this.readPieceBytes) {
      this.acceptOutput(data.subarray(at, Math.min(data.length, at + this.readPieceBytes)));
    }
  }

  /**
   * One piece of output: into the ring, then to the screen and the output listeners at once —
   * unless a flood is under way, when they get the viewers' batches instead (deliverBatch): a
   * flood arrives in many small pieces and every listener costs per call as much as per byte. A batch never holds more than the ring retains, so no byte leaves the ring unseen.
   */
  private acceptOutput(data: Buffer): void {
    const startedAt = performance.now();
    this.isAcceptingOutput = true;
    try {
      if (this.batcher.pendingBytes + data.length > this.ring.capacity) this.batcher.flush();
      const start = this.ring.end;
      this.ring.append(data);
      // In order only: after a flood, bytes still in a batch reach the listeners with that batch first.
      // They get the ring's copy: `data` goes back to the PTY thread after this call.
      if (this.observedEnd === start && !this.batcher.isFlooding(startedAt))
        this.observe(this.ringRange(start, this.ring.end), start, this.ring.end);
      this.batcher.push(start, this.ring.end);
    } finally {
      this.isAcceptingOutput = false;
      this.outputBudget.spend(this.budgetClient, performance.now() - startedAt);
    }
  }

  /** A batch for the viewers; the screen and the output listeners get the part they have not seen. */
  private deliverBatch(batch: OutputBatch): void {
    const startedAt = this.isAcceptingOutput ? undefined : performance.now();
    try {
      if (batch.end > this.observedEnd) {
        const from = Math.max(this.observedEnd, batch.start);
        this.observe(batch.data.subarray(from - batch.start), from, batch.end);
      }
      this.flushedEmitter.fire(batch);
    } finally {
      if (startedAt !== undefined) this.outputBudget.spend(this.budgetClient, performance.now() - startedAt);
    }
  }

  /** Output bytes [start, end) reach the screen and, unless they are our own, the output listeners. */
  private observe(data: Buffer, start: number, end: number): void {
    this.observedEnd = end;
    this.screen.write(data, end);
    if (!this.isDeliveringLocal) this.emitOutput(data, start, end);
  }

  /** The program's output as one chunk for the detectors; batches never span runs (flushed at exit). */
  private emitOutput(data: Buffer, start: number, end: number): void {
    if (!this.outputEmitter.hasListeners) return;
    // Text is decoded only if a listener reads it; a split character's start is carried over.
    const carryIn = this.utf8Carry;
    const tailLength = incompleteTailLength(data);
    // Copied: `data` is a view of the ring or of the scratch copy, which the next read may reuse.
    this.utf8Carry = tailLength > 0 ? Buffer.from(data.subarray(data.length - tailLength)) : EMPTY;
    this.outputEmitter.fire(new LazyTextChunk(data, start, end, this.currentRunId, carryIn, tailLength));
  }

  private handleExit(runId: number, { exitCode, signal, isHostLost }: PtyExit): void {
    const marker = this.runMarker;
    const pid = this.ptyProcess?.pid;
    this.ptyProcess = undefined;
    this.currentPid = undefined;
    this.batcher.flush();
    this.exitInfo = { exitCode, signal: signal || undefined, at: Date.now() };
    if (isHostLost) this.setState('error', 'The PTY thread stopped: the run was ended');
    else if (this.isStopRequested) this.setState('stopped', 'Stopped');
    else if (exitCode === 0 && !signal) this.setState('stopped', 'Exited with code 0');
    else if (signal) this.setState('error', `Killed by signal ${signal}`);
    else this.setState('error', `Exited with code ${exitCode}`);
    this.runExitedEmitter.fire({ runId, ...this.exitInfo });
    // The leader exited on its own: its background children must not outlive the entry.
    if (pid !== undefined && !this.isStopRequested)
      void killTree({ pid, marker: { key: RUN_MARKER_ENV, value: marker } }, 'SIGTERM', this.killGraceMs);
  }

  /** Separates runs on screen and resets modes a crashed program may have left on. */
  private writeRunBanner(): void {
    this.appendLocal(Buffer.from(`\x1b[0m\x1b[?25h\x1b[?1049l\r\n\x1b[2m── restarted ──\x1b[0m\r\n`));
  }

  /** Output of our own (banners, restored screens): ring, screen and viewers, not the detectors. */
  private appendLocal(bytes: Buffer): void {
    this.batcher.flush(); // the program's output so far goes out as its own batch
    const start = this.ring.end;
    this.ring.append(bytes);
    this.isDeliveringLocal = true;
    try {
      this.batcher.push(start, this.ring.end);
      this.batcher.flush();
    } finally {
      this.isDeliveringLocal = false;
    }
  }

  /** Ring bytes [start, end), valid until the next append: a view, or a scratch copy where the range wraps. */
  private ringRange(start: number, end: number): Buffer {
    return this.ring.view(start, end) ?? this.copyToScratch(start, end);
  }

  /** Ring bytes [start, end) copied into the reused scratch buffer (a range across the ring's wrap). */
  private copyToScratch(start: number, end: number): Buffer {
    if (this.scratch.length < end - start) this.scratch = Buffer.allocUnsafe(Math.max(end - start, 64 * 1024));
    return this.scratch.subarray(0, this.ring.copyTo(this.scratch, 0, start, end));
  }

  /** Ring bytes [since, end) still retained: what a screen rebuilt on a new worker replays. */
  private retainedOutput(since: number, end: number): Uint8Array {
    const from = Math.max(since, this.ring.start);
    return this.ring.read(from, end - from).data;
  }

  private buildEnv(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (value === undefined || PRIVATE_ENV_PREFIXES.some((prefix) => key.startsWith(prefix))) continue;
      env[key] = value;
    }
    env.TERM = 'xterm-256color';
    env.COLORTERM = 'truecolor';
    Object.assign(env, this.spec.env ?? {}, this.envForRun?.(this) ?? {});
    env.SWITCHBOARD_PROCESS_ID = this.id;
    return env;
  }

  private applyPause(): void {
    this.applyReading();
    this.changedEmitter.fire();
  }

  /** Read the PTY unless a viewer is far behind (flow control) or floods used up the loop's budget (input priority is the PTY thread's). */
  private applyReading(): void {
    this.ptyProcess?.setReading(!(this.flow.isPaused || this.isOverBudget));
  }

  private setState(state: RunState, message: string): void {
    this.runState = state;
    this.stateMessage = message;
    this.changedEmitter.fire();
  }

  private assertNotDisposed(): void {
    if (this.isDisposed) throw new SwitchboardError('not_found', `Process ${this.id} was closed`);
  }
}

/** Adds "dim" to every SGR so the restored output keeps its colours but reads as the past. */
function dimmed(serialized: string): string {
  // eslint-disable-next-line no-control-regex
  return `\x1b[2m${serialized.replace(/\x1b\[([0-9;:]*)m/g, (_m, params: string) => `\x1b[${params || '0'};2m`)}`;
}

/** Carries `stdin` text from us to the feeding shell, which removes it before the program starts. */
const STDIN_TEXT_ENV = 'SWITCHBOARD_STDIN_TEXT';
const FEED_STDIN = `text="$${STDIN_TEXT_ENV}"; unset ${STDIN_TEXT_ENV}; printf '%s' "$text" | "$@"`;

/**
 * A program that reads its input from stdin runs behind a small `sh` that pipes the text in: the
 * text travels in the shell's environment (readable by the same user only, never on a command
 * line) and the program's stdin is a pipe, not the terminal, so it reads to end of file.
 */
function withStdinFeed(file: string, args: string[], stdin: string | undefined, env: Record<string, string>): [string, string[]] {
  if (stdin === undefined) return [file, args];
  env[STDIN_TEXT_ENV] = stdin;
  return ['/bin/sh', ['-c', FEED_STDIN, 'switchboard-stdin', file, ...args]];
}
