/**
 * Readiness of one command entry, wired to its session: output lines → pattern table → state
 * machine; the machine's probe target → TCP/HTTP probe loops; the process tree's listening ports
 * → PortMonitor. Event-driven throughout: output is line-buffered as it arrives and never polled;
 * only ports are probed, and only while a start is in progress.
 *
 * The core creates one per command entry and disposes it with the entry. `restart_process` and
 * `check_process_ready` (MCP) and the UI call `waitForReady` / `check`.
 */
import { DisposableBase, DisposableStore, Emitter, toDisposable, type Event } from '../base/lifecycle';
import type { ObservedSession, OutputChunk, RunExited, RunStarted } from '../sessions/types';
import type { PortInfo } from '../../../shared/ports';
import type { FrameworkId, ReadinessCheck, ReadinessInfo, ReadinessProgress, ReadinessResult } from '../../../shared/ready';
import type { ReadinessConfig } from '../../../shared/readyConfig';
import { OutputLineReader, type OutputLine } from '../ports/outputLines';
import { PortMonitor, STEADY_SCAN_INTERVAL_MS } from '../ports/portMonitor';
import { ProbeLoop } from '../ports/probeLoop';
import { probeTcp as realProbeTcp, type TcpProbeOptions } from '../ports/tcpProbe';
import { probeHttp as realProbeHttp, type HttpProbeOptions, type HttpProbeResult } from '../ports/httpProbe';
import { listListeningPorts } from '../ports/listeningPorts';
import { detectFramework, type FrameworkDetection } from './detectFramework';
import { ErrorMessageComposer } from './errorMessages';
import { FRAMEWORK_NAMES, FRAMEWORK_PATTERNS } from './frameworkPatterns';
import { LineClassifier, type Classification } from './lineClassifier';
import { PRIORITY, type FrameworkPattern } from './patternTypes';
import { renderTemplate } from './messageTemplate';
import { ReadinessMachine, formatSeconds, type ProbeTarget } from './readinessMachine';
import { STARTUP_SCAN_INTERVAL_MS, resolveReadinessConfig, type ResolvedReadinessConfig } from './readyConfig';

/** Lines kept for `logs` on failure: enough for a stack trace's head, small enough to read. */
export const LOG_TAIL_LINES = 40;
/** Progress notifications during a wait (MCP clients show them; they also keep proxies alive). */
export const PROGRESS_INTERVAL_MS = 1_000;
/** Once a ready line is seen and its port is still closed, the bind is milliseconds away. */
export const AWAITING_PORT_PROBE_INTERVAL_MS = 20;
/**
 * Errors come in bursts (a headline, its cause, a stack): a wait reports an error once the output
 * has been quiet this long, so the message names the cause ("Port 5173 already in use") and not
 * only the headline ("Vite failed to start"); after a headline that announces its cause, until
 * the cause arrives. The phase itself changes at once. An exit ends the burst immediately.
 */
export const ERROR_SETTLE_MS = 100;
/** …but a process that keeps printing after an error is not waited for longer than this. */
export const MAX_ERROR_SETTLE_MS = 1_000;
/** In a flood of output only the newest lines of a chunk are classified (their meaning is current). */
export const MAX_CLASSIFIED_LINES_PER_CHUNK = 200;
/**
 * After ready, lines are classified (for `running`) up to this rate; the table costs ~20 µs a
 * line, so a server logging every request at full speed cannot take more than ~4% of a core.
 * Before ready every line counts.
 */
export const MAX_CLASSIFIED_LINES_PER_SECOND_AFTER_READY = 2_000;
/**
 * Before ready every line counts up to this rate, well above real start-up logs (Next.js,
 * webpack verbose: a few hundred lines a second; the table costs ~20–40 µs a line). Past it the start is a flood, and classifying
 * every line would cap the entry's output at ~3 MB/s of one core.
 */
export const MAX_CLASSIFIED_LINES_PER_SECOND_BEFORE_READY = 2_000;
/** Over budget, the newest lines of a chunk are still classified, this often (their meaning is current). */
export const OVER_BUDGET_SAMPLE_INTERVAL_MS = 50;
export const OVER_BUDGET_SAMPLE_LINES = 20;
/** A flood ends after a second with less output than this (a busy but readable log). */
export const FLOOD_END_BYTES_PER_SECOND = 64 * 1024;
/** Raw flood output kept for the log tail: LOG_TAIL_LINES lines of up to ~1.6 KB each. */
export const FLOOD_TEXT_KEEP_BYTES = 64 * 1024;

export interface ReadinessTrackerOptions {
  /**
   * Whether the run that just exited was stopped on request (stop, restart, close). Without it a
   * SIGTERM/SIGINT/SIGHUP/SIGKILL death or exit code 130/143 counts as a requested stop.
   */
  isStopRequested?: () => boolean;
  // Seams for tests; the real implementations by default.
  listPorts?: (rootPid: number) => Promise<number[]>;
  probeTcp?: (options: TcpProbeOptions) => Promise<boolean>;
  probeHttp?: (options: HttpProbeOptions) => Promise<HttpProbeResult>;
  canTellPortOwner?: boolean;
  now?: () => number;
}

export interface WaitForReadyOptions {
  /** Judge only a run with at least this id (call before `restart()` resolves without races). */
  runId?: number;
}

export class ReadinessTracker extends DisposableBase {
  private readonly session: ObservedSession;
  private readonly projectDir: string | undefined;
  private readonly options: ReadinessTrackerOptions;
  private readonly now: () => number;
  readonly config: ResolvedReadinessConfig;
  private detection: FrameworkDetection;

  private readonly lines = this.register(new OutputLineReader());
  private readonly classifier: LineClassifier;
  private readonly composer = new ErrorMessageComposer();
  private readonly portMonitor: PortMonitor;
  private readonly machine: ReadinessMachine;
  private readonly tcpLoop: ProbeLoop<{ port: number; isOpen: boolean }>;
  private readonly httpLoop: ProbeLoop<{ url: string; result: HttpProbeResult }>;
  private target: ProbeTarget | undefined;
  private runId: number;
  private logTail: string[] = [];
  private floodBytes: Buffer[] = [];
  private floodByteCount = 0;
  private stalledLine: string | undefined;
  private lastOutputAt = 0;
  private budgetWindowStart = 0;
  private lastOverBudgetSampleAt = 0;
  private isFlooding = false;
  private bytesInBudgetWindow = 0;
  private linesInBudgetWindow = 0;
  /** Pending waitForReady calls, judged once more when the tracker is disposed. */
  private readonly waiters = new Set<() => void>();

  private readonly changedEmitter = this.register(new Emitter<ReadinessInfo>());
  readonly onDidChange: Event<ReadinessInfo> = this.changedEmitter.event;
  readonly onDidChangePorts: Event<PortInfo>;

  constructor(
    session: ObservedSession,
    config: Partial<ReadinessConfig> | undefined,
    projectDir?: string,
    options: ReadinessTrackerOptions = {},
  ) {
    super();
    this.session = session;
    this.projectDir = projectDir;
    this.options = options;
    this.now = options.now ?? Date.now;
    this.config = resolveReadinessConfig(config);
    this.detection = this.detect();
    this.classifier = new LineClassifier([...customPatterns(this.config), ...FRAMEWORK_PATTERNS], this.detection.framework);

    this.portMonitor = this.register(
      new PortMonitor({ scanIntervalMs: STARTUP_SCAN_INTERVAL_MS, listPorts: options.listPorts ?? listListeningPorts, now: this.now }),
    );
    this.onDidChangePorts = this.portMonitor.onDidChange;
    this.machine = this.register(
      new ReadinessMachine({
        config: this.config,
        framework: () => this.detection.framework,
        frameworkName: () => FRAMEWORK_NAMES[this.detection.framework],
        logs: () => this.logs(),
        canTellPortOwner: options.canTellPortOwner ?? (process.platform === 'linux' || process.platform === 'darwin'),
        now: this.now,
      }),
    );

    const probeTcp = options.probeTcp ?? realProbeTcp;
    const probeHttp = options.probeHttp ?? realProbeHttp;
    this.tcpLoop = this.register(
      new ProbeLoop({
        intervalMs: this.config.probeIntervalMs,
        probe: async (signal) => {
          const port = this.target?.port ?? 0;
          return { port, isOpen: port > 0 && (await probeTcp({ port, signal })) };
        },
      }),
    );
    this.httpLoop = this.register(
      new ProbeLoop({
        intervalMs: this.config.probeIntervalMs,
        probe: async (signal) => {
          const url = this.target?.httpUrl ?? '';
          return { url, result: await probeHttp({ url, signal }) };
        },
      }),
    );

    this.register(this.machine.onDidChange((info) => this.onMachineChanged(info)));
    this.register(this.machine.onDidChangeProbeTarget((target) => this.syncProbes(target)));
    this.register(this.tcpLoop.onDidProbe(({ port, isOpen }) => this.onTcpProbed(port, isOpen)));
    this.register(
      this.httpLoop.onDidProbe(({ url, result }) => url === this.target?.httpUrl && this.machine.observeHttpProbe(result.isOk)),
    );
    this.register(this.portMonitor.onDidScan((listening) => this.machine.observeListeningPorts(listening)));
    this.register(this.lines.onDidStallOnPartialLine((line) => this.handleLine(line)));

    this.runId = session.runId;
    this.register(session.onRunStarted((run) => this.beginRun(run)));
    this.register(session.onOutput((chunk) => this.acceptChunk(chunk)));
    this.register(session.onRunExited((exit) => this.endRun(exit)));
    this.register(toDisposable(() => this.syncProbes(undefined)));
    this.register(toDisposable(() => [...this.waiters].forEach((judge) => judge())));
    if (session.isRunning && session.pid !== undefined) {
      // Attached to a run already in progress: its earlier output is not ours to judge.
      this.beginRun({ runId: session.runId, pid: session.pid, at: this.now(), offset: 0 });
    }
  }

  get info(): ReadinessInfo {
    return this.machine.info;
  }

  get ports(): PortInfo {
    return this.portMonitor.info;
  }

  get framework(): FrameworkDetection {
    return { ...this.detection };
  }

  /** `check_process_ready`: the state right now. */
  check(): ReadinessCheck {
    const info = this.info;
    return { ready: info.phase === 'ready', state: info.phase, message: info.message, url: info.url, port: info.port };
  }

  /**
   * Resolves when the current run is ready (success), failed, or `timeoutMs` passed (failure,
   * process left running, last lines in `logs`). Never rejects; an abort resolves a failure.
   */
  waitForReady(
    timeoutMs: number,
    signal?: AbortSignal,
    onProgress?: (progress: ReadinessProgress) => void,
    options: WaitForReadyOptions = {},
  ): Promise<ReadinessResult> {
    const waitStart = this.now();
    return new Promise<ReadinessResult>((resolve) => {
      const store = new DisposableStore();
      let isDone = false;
      const finish = (result: ReadinessResult) => {
        if (isDone) return;
        isDone = true;
        this.waiters.delete(judge);
        store.dispose();
        resolve(result);
      };
      const elapsed = () => this.now() - waitStart;
      let errorSeenAt: number | undefined;
      let settleTimer: NodeJS.Timeout | undefined;
      store.add(toDisposable(() => clearTimeout(settleTimer)));
      /** True while an error burst is still being printed (then judge again shortly). */
      const isErrorStillArriving = () => {
        if (!this.machine.isRunLive) return false;
        const now = this.now();
        errorSeenAt ??= now;
        if (now - errorSeenAt >= MAX_ERROR_SETTLE_MS) return false;
        const quietFor = now - this.lastOutputAt;
        // A headline announced its cause (Next.js prints it ~200 ms later, in a separate write).
        if (this.composer.isAwaitingDetail) {
          clearTimeout(settleTimer);
          settleTimer = setTimeout(judge, MAX_ERROR_SETTLE_MS - (now - errorSeenAt));
          return true;
        }
        if (quietFor >= ERROR_SETTLE_MS) return false;
        clearTimeout(settleTimer);
        settleTimer = setTimeout(judge, ERROR_SETTLE_MS - quietFor);
        return true;
      };
      const judge = () => {
        if (isDone) return;
        const info = this.info;
        if (options.runId !== undefined && (info.runId ?? 0) < options.runId) return;
        if (this.isDisposed) return finish(this.result(info, false, 'Process closed', waitStart));
        switch (info.phase) {
          case 'ready':
            return finish(this.result(info, true, info.message, waitStart));
          case 'error':
          case 'running': // up, but reporting an error: not ready
            if (isErrorStillArriving()) return;
            return finish(this.result(this.info, false, this.info.message, waitStart));
          case 'stopped':
            if (options.runId === undefined || (info.runId ?? 0) >= options.runId) {
              return finish(this.result(info, false, info.runId ? info.message : 'Not running', waitStart));
            }
            return;
          case 'starting':
            return;
        }
      };
      // Judge after the whole chunk was processed: a headline's detail line may follow in it.
      store.add(this.onDidChange(() => queueMicrotask(judge)));
      this.waiters.add(judge);
      const timer = setTimeout(
        () => {
          const info = this.info;
          finish({
            ...this.result(info, false, `No ready signal after ${formatSeconds(timeoutMs)}`, waitStart),
            logs: this.logs(),
          });
        },
        Math.max(0, timeoutMs),
      );
      store.add(toDisposable(() => clearTimeout(timer)));
      if (onProgress) {
        const report = () => {
          const info = this.info;
          onProgress({ state: info.phase, message: info.message, elapsed_ms: elapsed() });
        };
        const progressTimer = setInterval(report, PROGRESS_INTERVAL_MS);
        store.add(toDisposable(() => clearInterval(progressTimer)));
        store.add(this.onDidChange(report));
      }
      if (signal) {
        const onAbort = () => finish({ ...this.result(this.info, false, 'Readiness wait cancelled', waitStart), logs: undefined });
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        store.add(toDisposable(() => signal.removeEventListener('abort', onAbort)));
      }
      judge();
    });
  }

  // ---- session events -------------------------------------------------------------------------

  private beginRun(run: RunStarted): void {
    this.runId = run.runId;
    this.lines.reset();
    this.classifier.reset();
    this.composer.reset();
    this.logTail = [];
    this.floodBytes = [];
    this.floodByteCount = 0;
    this.isFlooding = false;
    this.stalledLine = undefined;
    this.detection = this.detect(); // package.json may have changed since the last run
    this.classifier.setFramework(this.detection.framework);
    this.portMonitor.setScanInterval(STARTUP_SCAN_INTERVAL_MS);
    this.portMonitor.beginRun(run.pid);
    this.machine.startRun(run.runId, run.at);
  }

  private acceptChunk(chunk: OutputChunk): void {
    if (chunk.runId !== this.runId) {
      // Only the current run's output counts. A newer run whose start event we missed begins now.
      if (chunk.runId < this.runId || this.session.runId !== chunk.runId) return;
      this.beginRun({ runId: chunk.runId, pid: this.session.pid ?? 0, at: this.now(), offset: chunk.start });
    }
    const now = this.now();
    this.lastOutputAt = now;
    const budget = this.remainingClassifyBudget(now, chunk.data.length);
    if (budget <= 0 || this.isFlooding) {
      // Over budget (a flood): no per-chunk line work. The raw text is kept for the logs (split only
      // when someone asks), and the newest lines are looked at now and then (a ready line during a
      // start, an error after ready).
      this.keepFloodBytes(chunk.data);
      if (this.takeOverBudgetSample(now)) {
        const lines = this.lines.pushTail(chunk, OVER_BUDGET_SAMPLE_LINES);
        for (const line of lines) this.handleLine(line);
      } else {
        this.lines.reset(); // the skipped text must not join the next line read
      }
      return;
    }
    this.settleFloodText();
    const lines = this.lines.push(chunk);
    const firstClassified = Math.max(0, lines.length - Math.min(MAX_CLASSIFIED_LINES_PER_CHUNK, budget));
    this.linesInBudgetWindow += lines.length - firstClassified;
    lines.forEach((line, index) => (index >= firstClassified ? this.handleLine(line) : this.rememberLine(line.text)));
  }

  private isStarting(): boolean {
    const phase = this.machine.phase;
    return phase !== 'ready' && phase !== 'running';
  }

  /**
   * Lines that may still be classified in this second (the budget depends on the phase). A flood
   * (budget used up) stays a flood — samples only — until a second brings less than
   * FLOOD_END_BYTES_PER_SECOND, so a long flood does not pay for a full budget every second.
   */
  private remainingClassifyBudget(now: number, bytes: number): number {
    if (now - this.budgetWindowStart >= 1_000) {
      if (this.isFlooding && this.bytesInBudgetWindow < FLOOD_END_BYTES_PER_SECOND) this.isFlooding = false;
      this.budgetWindowStart = now;
      this.linesInBudgetWindow = 0;
      this.bytesInBudgetWindow = 0;
    }
    this.bytesInBudgetWindow += bytes;
    const limit = this.isStarting() ? MAX_CLASSIFIED_LINES_PER_SECOND_BEFORE_READY : MAX_CLASSIFIED_LINES_PER_SECOND_AFTER_READY;
    const remaining = limit - this.linesInBudgetWindow;
    if (remaining <= 0) this.isFlooding = true;
    return remaining;
  }

  /** While over budget, the newest lines are looked at every OVER_BUDGET_SAMPLE_INTERVAL_MS. */
  private takeOverBudgetSample(now: number): boolean {
    if (now - this.lastOverBudgetSampleAt < OVER_BUDGET_SAMPLE_INTERVAL_MS) return false;
    this.lastOverBudgetSampleAt = now;
    return true;
  }

  private endRun(exit: RunExited): void {
    if (exit.runId !== this.runId) return;
    for (const line of this.lines.flush()) this.handleLine(line);
    this.portMonitor.endRun();
    const isStopRequested = this.options.isStopRequested?.() ?? false;
    this.machine.endRun(exit, isStopRequested);
  }

  // ---- lines ----------------------------------------------------------------------------------

  private handleLine(line: OutputLine): void {
    if (line.isPartial) {
      this.stalledLine = line.text;
    } else {
      this.stalledLine = undefined;
      this.rememberLine(line.text);
      this.machine.observeSightings(this.portMonitor.recordLine(line));
    }
    const classification = this.classifier.classify(line.text, { isPartial: line.isPartial });
    if (!line.isPartial) for (const place of classification.places) this.machine.observePlace(place);
    this.applyDecisive(classification);
    // Getters: the composer needs these only for error lines, and `info` copies the state.
    const machine = this.machine;
    const config = this.config;
    const report = this.composer.observe(classification, {
      frameworkName: FRAMEWORK_NAMES[this.detection.framework],
      get knownPort() {
        return machine.info.port ?? machine.probeTarget?.port ?? config.port;
      },
      get knownUrl() {
        return machine.info.url;
      },
    });
    if (report) this.machine.observeError(report);
  }

  private applyDecisive(classification: Classification): void {
    const decisive = classification.decisive;
    if (!decisive) return;
    const { pattern, groups } = decisive;
    if (pattern.kind === 'ready') {
      this.composer.clearCurrent();
      const framework = pattern.framework === 'generic' ? this.detection.framework : pattern.framework;
      this.machine.observeReadyLine(pattern.id, FRAMEWORK_NAMES[framework], pattern.framework);
    } else if (pattern.kind === 'portMoved') {
      const from = Number(groups.from);
      const to = groups.to !== undefined ? Number(groups.to) : undefined;
      const message = (pattern.message && renderTemplate(pattern.message, { ...groups })) ?? classification.text;
      if (Number.isInteger(from)) this.machine.observePortMove(from, to, message);
    }
  }

  /** Raw bytes of a flood's newest chunks (enough for the log tail), kept by reference: no decoding per chunk. */
  private keepFloodBytes(data: Buffer): void {
    this.floodBytes.push(data);
    this.floodByteCount += data.length;
    while (this.floodBytes.length > 1 && this.floodByteCount - this.floodBytes[0].length >= FLOOD_TEXT_KEEP_BYTES) {
      this.floodByteCount -= this.floodBytes.shift()!.length;
    }
  }

  /** Turns the kept flood bytes into log lines (when the flood ends or logs are asked for). */
  private settleFloodText(): void {
    if (this.floodBytes.length === 0) return;
    const reader = new OutputLineReader();
    const lines = reader.pushTail({ text: Buffer.concat(this.floodBytes).toString('utf8'), start: 0 }, LOG_TAIL_LINES);
    reader.dispose();
    this.floodBytes = [];
    this.floodByteCount = 0;
    for (const line of lines) this.rememberLine(line.text);
  }

  private rememberLine(text: string): void {
    if (text.trim().length === 0) return;
    this.logTail.push(text);
    // Trim in batches: a flood remembers every line, and a splice per line would be O(n²)-ish.
    if (this.logTail.length > 2 * LOG_TAIL_LINES) this.logTail = this.logTail.slice(-LOG_TAIL_LINES);
  }

  private logs(): string[] {
    this.settleFloodText();
    const tail = this.logTail.slice(-LOG_TAIL_LINES);
    return this.stalledLine ? [...tail, this.stalledLine] : tail;
  }

  // ---- probes ---------------------------------------------------------------------------------

  private syncProbes(target: ProbeTarget | undefined): void {
    this.target = target;
    if (!target || this.isDisposed) {
      this.tcpLoop.stop();
      this.httpLoop.stop();
      return;
    }
    const interval = this.machine.isWaitingForPort ? AWAITING_PORT_PROBE_INTERVAL_MS : this.config.probeIntervalMs;
    if (target.httpUrl) {
      this.tcpLoop.stop();
      this.httpLoop.setInterval(interval);
      this.httpLoop.start();
      this.httpLoop.probeNow();
    } else {
      this.httpLoop.stop();
      this.tcpLoop.setInterval(interval);
      this.tcpLoop.start();
      this.tcpLoop.probeNow();
    }
  }

  private onTcpProbed(port: number, isOpen: boolean): void {
    if (port !== this.target?.port) return; // an answer about a port we no longer care about
    // Open but not (yet) seen in the tree: look again now rather than at the next scan.
    if (isOpen && !this.portMonitor.listeningPorts.includes(port)) this.portMonitor.scanNow();
    this.machine.observePortProbe(port, isOpen);
  }

  private onMachineChanged(info: ReadinessInfo): void {
    const isSettled = info.phase === 'ready' || info.phase === 'running' || info.phase === 'stopped';
    this.portMonitor.setScanInterval(isSettled ? STEADY_SCAN_INTERVAL_MS : STARTUP_SCAN_INTERVAL_MS);
    this.changedEmitter.fire(info);
  }

  private detect(): FrameworkDetection {
    return detectFramework({
      argv: this.session.argv,
      cwd: this.session.cwd,
      projectDir: this.projectDir,
      configured: this.config.framework,
    });
  }

  private result(info: ReadinessInfo, success: boolean, message: string, waitStart: number): ReadinessResult {
    const end = success && info.readyAt !== undefined ? info.readyAt : this.now();
    return {
      success,
      state: info.phase,
      message,
      duration_ms: Math.max(0, end - (info.since ?? waitStart)),
      url: info.url,
      port: info.port,
      logs: success ? undefined : (info.logs ?? this.logs()),
    };
  }
}

/** The user's readyPatterns / errorPatterns as table entries above every built-in one. */
function customPatterns(config: ResolvedReadinessConfig): FrameworkPattern[] {
  const framework: FrameworkId = config.framework ?? 'generic';
  return [
    ...config.errorPatterns.map((regex, i) => ({
      id: `custom-error-${i}`,
      framework,
      kind: 'error' as const,
      priority: PRIORITY.customError,
      regex,
      message: '{line}',
      sample: '',
      source: 'switchboard.json errorPatterns',
    })),
    ...config.readyPatterns.map((regex, i) => ({
      id: `custom-ready-${i}`,
      framework,
      kind: 'ready' as const,
      priority: PRIORITY.customReady,
      regex,
      sample: '',
      source: 'switchboard.json readyPatterns',
    })),
  ];
}
