/**
 * Readiness of one command entry, wired to its session: output lines → pattern table → state
 * machine; the machine's probe target → TCP/HTTP probe loops; the process tree's listening ports
 * → PortMonitor; once ready, liveness probes. Event-driven throughout: output is line-buffered as
 * it arrives and never polled; only ports are probed.
 *
 * The core creates one per command entry and disposes it with the entry. `restart_process` and
 * `check_process_ready` (MCP) and the UI call `waitForReady` / `check`.
 */
import { DisposableBase, Emitter, realClock, toDisposable, type Clock, type Disposable, type Event } from '../base';
import type { ObservedSession, OutputChunk, RunExited, RunStarted } from '../sessions';
import type { PortInfo } from '../../../shared/ports';
import type { FrameworkId, ReadinessCheck, ReadinessInfo, ReadinessProgress, ReadinessResult } from '../../../shared/ready';
import type { ReadinessConfig } from '../../../shared/readyConfig';
import {
  OutputLineReader,
  PortMonitor,
  ProbeLoop,
  STEADY_SCAN_INTERVAL_MS,
  listListeningPorts,
  probeHttp as realProbeHttp,
  probeTcp as realProbeTcp,
  type HttpProbeOptions,
  type HttpProbeResult,
  type ListPortsOptions,
  type OutputLine,
  type TcpProbeOptions,
} from '../ports';
import { detectFramework, type FrameworkDetection } from './detectFramework';
import { ErrorMessageComposer } from './errorMessages';
import { FRAMEWORK_NAMES, FRAMEWORK_PATTERNS } from './frameworkPatterns';
import { LineClassifier, type Classification } from './lineClassifier';
import { PRIORITY, type FrameworkPattern, type PatternKind } from './patternTypes';
import { renderTemplate } from './messageTemplate';
import { startFailureRule } from './startFailure';
import { ReadinessMachine, type ProbeTarget, type RunExpectation } from './readinessMachine';
import { STARTUP_SCAN_INTERVAL_MS, resolveReadinessConfig, type ResolvedReadinessConfig } from './readyConfig';
import { LogTail } from './logTail';
import { LineBudget, OVER_BUDGET_SAMPLE_LINES, maxClassifiedLinesPerChunk, type SharedLineRate } from './lineBudget';
import { waitForReadiness, type ReadinessWaitSource, type WaitForReadyOptions } from './readinessWaiter';
import { sharedLivenessScheduler, type LivenessScheduler } from './livenessProbes';

/** Once a ready line is seen and its port is still closed, the bind is milliseconds away. */
const AWAITING_PORT_PROBE_INTERVAL_MS = 20;
/**
 * An accepting port not answering HTTP yet is asked again at most this often: a request costs
 * ~0.5 ms of main thread and a server's own work, twenty servers at the 20 ms cadence saturate both.
 */
const HTTP_CONFIRM_INTERVAL_MS = 250;

interface ReadinessTrackerOptions {
  /**
   * Whether the run that just exited was stopped on request (stop, restart, close). Without it a
   * SIGTERM/SIGINT/SIGHUP/SIGKILL death or exit code 130/143 counts as a requested stop.
   */
  isStopRequested?: () => boolean;
  // Seams for tests; the real implementations by default.
  listPorts?: (rootPid: number, options?: ListPortsOptions) => Promise<number[]>;
  probeTcp?: (options: TcpProbeOptions) => Promise<boolean>;
  probeHttp?: (options: HttpProbeOptions) => Promise<HttpProbeResult>;
  canTellPortOwner?: boolean;
  liveness?: LivenessScheduler;
  /** The line rate this tracker shares with the others (the process's one by default). */
  lineRate?: SharedLineRate;
  clock?: Clock;
}

export class ReadinessTracker extends DisposableBase implements ReadinessWaitSource {
  private readonly session: ObservedSession;
  private readonly projectDir: string | undefined;
  private readonly options: ReadinessTrackerOptions;
  readonly clock: Clock;
  readonly config: ResolvedReadinessConfig;
  private detection: FrameworkDetection;

  private readonly lines = this.register(new OutputLineReader());
  private readonly classifier: LineClassifier;
  /** The entries that tell of a failure (and their guards): all a settled run's lines can change. */
  private readonly settledClassifier: LineClassifier;
  /** The last liveness probe failed (below the threshold it is not `unhealthy` yet, but in doubt). */
  private hasFailedProbe = false;
  private readonly composer = new ErrorMessageComposer();
  private readonly portMonitor: PortMonitor;
  private readonly machine: ReadinessMachine;
  /** `answeredHttp`: this probe got an HTTP answer (not only a TCP accept). */
  private readonly tcpLoop: ProbeLoop<{ port: number; isOpen: boolean; answeredHttp: boolean }>;
  private readonly httpLoop: ProbeLoop<{ url: string; result: HttpProbeResult }>;
  private readonly logTail = new LogTail();
  private readonly budget: LineBudget;
  private readonly patternsById: ReadonlyMap<string, FrameworkPattern>;
  private readonly startFailureOf: (pattern: FrameworkPattern) => FrameworkPattern['startFailure'];
  private readonly livenessScheduler: LivenessScheduler;
  private livenessWatch: Disposable | undefined;
  private target: ProbeTarget | undefined;
  /** The last HTTP confirmation asked (one per port at most every HTTP_CONFIRM_INTERVAL_MS). */
  private lastHttpConfirm = { port: 0, at: -Infinity };
  /** The port that answered HTTP this run: from then on a TCP accept on it is enough. */
  private httpConfirmedPort: number | undefined;
  private runId: number;
  /** The current run's wrapper's own ports (a sandbox's relays): not the server's. */
  private wrapperPorts: ReadonlySet<number> = new Set();
  private lastOutputAtMs = 0;
  /** Pending waits, judged once more when the tracker is disposed. */
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
    this.clock = options.clock ?? realClock;
    this.budget = new LineBudget(options.lineRate);
    this.config = resolveReadinessConfig(config);
    this.livenessScheduler = options.liveness ?? sharedLivenessScheduler;
    this.detection = this.detect();
    const patterns = [...customPatterns(this.config), ...FRAMEWORK_PATTERNS];
    this.patternsById = new Map(patterns.map((pattern) => [pattern.id, pattern]));
    this.startFailureOf = startFailureRule(patterns);
    this.classifier = new LineClassifier(patterns, this.detection.framework);
    this.settledClassifier = new LineClassifier(
      patterns.filter((pattern) => FAILURE_KINDS.has(pattern.kind)),
      this.detection.framework,
    );

    const listPorts = options.listPorts ?? listListeningPorts;
    this.portMonitor = this.register(
      new PortMonitor({
        scanIntervalMs: STARTUP_SCAN_INTERVAL_MS,
        listPorts: async (rootPid, scan) => (await listPorts(rootPid, scan)).filter((port) => !this.wrapperPorts.has(port)),
        now: () => this.clock.now(),
      }),
    );
    this.onDidChangePorts = this.portMonitor.onDidChange;
    this.machine = this.register(
      new ReadinessMachine({
        config: this.config,
        framework: () => this.detection.framework,
        frameworkName: () => this.detectedName(),
        logs: () => this.logs(),
        canTellPortOwner: options.canTellPortOwner ?? (process.platform === 'linux' || process.platform === 'darwin'),
        runsHttpServer: () => this.detection.isFromCommand && !NOT_HTTP_FRAMEWORKS.has(this.detection.framework),
        clock: this.clock,
        announcesReady: () => this.detection.isFromCommand && ANNOUNCES_READY.has(this.detection.framework),
      }),
    );

    const probeTcp = options.probeTcp ?? realProbeTcp;
    const probeHttp = options.probeHttp ?? realProbeHttp;
    this.tcpLoop = this.register(
      new ProbeLoop({
        intervalMs: this.config.probeIntervalMs,
        probe: async (signal) => {
          const target = this.target;
          const port = target?.port ?? 0;
          if (port <= 0) return { port, isOpen: false, answeredHttp: false };
          if (!(await probeTcp({ port, signal }))) {
            if (port === this.httpConfirmedPort) this.httpConfirmedPort = undefined;
            return { port, isOpen: false, answeredHttp: false };
          }
          if (!target?.confirmsWithHttp || port === this.httpConfirmedPort) return { port, isOpen: true, answeredHttp: false };
          const last = this.lastHttpConfirm;
          if (last.port === port && this.clock.now() - last.at < HTTP_CONFIRM_INTERVAL_MS)
            return { port, isOpen: false, answeredHttp: false };
          this.lastHttpConfirm = { port, at: this.clock.now() };
          this.machine.observeHttpRequest(port, true);
          const isAnswering = await answersHttp(probeHttp, target, this.config.timeoutMs, signal).finally(() =>
            this.machine.observeHttpRequest(port, false),
          );
          if (isAnswering) this.httpConfirmedPort = port;
          return { port, isOpen: isAnswering, answeredHttp: isAnswering };
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
    this.register(this.tcpLoop.onDidProbe(({ port, isOpen, answeredHttp }) => this.onTcpProbed(port, isOpen, answeredHttp)));
    this.register(
      this.httpLoop.onDidProbe(({ url, result }) => url === this.target?.httpUrl && this.machine.observeHttpProbe(result.isOk)),
    );
    this.register(this.portMonitor.onDidScan((listening) => this.machine.observeListeningPorts(listening)));
    this.register(this.lines.onDidStallOnPartialLine((line) => this.handleLine(line)));

    this.runId = session.runId;
    this.register(session.onDidStartRun((run) => this.beginRun(run)));
    this.register(session.onDidWriteOutput((chunk) => this.acceptChunk(chunk)));
    this.register(session.onDidExitRun((exit) => this.endRun(exit)));
    this.register(toDisposable(() => this.syncProbes(undefined)));
    this.register(toDisposable(() => this.stopLiveness()));
    this.register(toDisposable(() => [...this.waiters].forEach((judge) => judge())));
    if (session.isRunning && session.pid !== undefined) {
      // Attached to a run already in progress: its earlier output is not ours to judge.
      this.beginRun({ runId: session.runId, pid: session.pid, at: this.clock.now(), offset: 0 });
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

  /** What the current run waits for: readiness, nothing (`running` once stable) or its end. */
  get runExpectation(): RunExpectation {
    return this.machine.runExpectation;
  }

  /** `check_process_ready`: the state right now. */
  check(): ReadinessCheck {
    const info = this.info;
    return { ready: info.phase === 'ready', state: info.phase, message: info.message, url: info.url, port: info.port };
  }

  /**
   * Resolves when the current run is ready (success), running without a readiness check
   * (success), a one-shot job finished (success on exit 0, with its exit code and last lines),
   * the start failed, or `timeoutMs` passed (failure, process left running, last lines in `logs`).
   */
  waitForReady(
    timeoutMs: number,
    signal?: AbortSignal,
    onProgress?: (progress: ReadinessProgress) => void,
    options: WaitForReadyOptions = {},
  ): Promise<ReadinessResult> {
    return waitForReadiness(this, timeoutMs, signal, onProgress, options);
  }

  /** The run is alive (started, not exited). */
  get isRunLive(): boolean {
    return this.machine.isRunLive;
  }

  /** Epoch ms of the newest output. */
  get lastOutputAt(): number {
    return this.lastOutputAtMs;
  }

  /** An error headline announced a cause that has not arrived yet. */
  get isAwaitingErrorDetail(): boolean {
    return this.composer.isAwaitingDetail;
  }

  /** The run's last lines. */
  logs(): string[] {
    return this.logTail.snapshot();
  }

  addWaiter(judge: () => void): Disposable {
    this.waiters.add(judge);
    return toDisposable(() => this.waiters.delete(judge));
  }

  // ---- session events -------------------------------------------------------------------------

  private beginRun(run: RunStarted): void {
    this.runId = run.runId;
    this.lastHttpConfirm = { port: 0, at: -Infinity };
    this.httpConfirmedPort = undefined;
    this.lines.reset();
    this.classifier.reset();
    this.composer.reset();
    this.logTail.reset();
    this.settledClassifier.reset();
    this.budget.reset();
    this.stopLiveness();
    this.detection = this.detect(); // package.json may have changed since the last run
    this.classifier.setFramework(this.detection.framework);
    this.settledClassifier.setFramework(this.detection.framework);
    this.portMonitor.setScanInterval(STARTUP_SCAN_INTERVAL_MS);
    this.wrapperPorts = new Set(run.wrapperPorts);
    this.portMonitor.beginRun(run.pid);
    this.machine.startRun(run.runId, run.at, this.expectationForRun());
  }

  /** A server is expected when the config declares one or the command names a framework. */
  private expectationForRun(): RunExpectation {
    if (this.config.isOneShot) return 'completion';
    if (this.config.declaresReadiness || this.detection.isFromCommand) return 'readiness';
    return 'nothing';
  }

  private acceptChunk(chunk: OutputChunk): void {
    if (chunk.runId !== this.runId) {
      // Only the current run's output counts. A newer run whose start event we missed begins now.
      if (chunk.runId < this.runId || this.session.runId !== chunk.runId) return;
      this.beginRun({ runId: chunk.runId, pid: this.session.pid ?? 0, at: this.clock.now(), offset: chunk.start });
    }
    const now = this.clock.now();
    this.lastOutputAtMs = now;
    const remaining = this.budget.remaining(now, chunk.data.length, this.isStarting());
    if (remaining <= 0 || this.budget.isFlooding) {
      // Over budget (a flood): no per-chunk line work. The raw text is kept for the logs (split only
      // when someone asks), and the newest lines are looked at now and then (a ready line during a
      // start, an error after ready).
      this.logTail.keepFloodBytes(chunk.data);
      if (this.budget.takeSample(now)) {
        const lines = this.lines.pushTail(chunk, OVER_BUDGET_SAMPLE_LINES);
        this.budget.countClassified(now, lines.length);
        for (const line of lines) this.handleLine(line);
      } else {
        this.lines.reset(); // the skipped text must not join the next line read
      }
      return;
    }
    this.logTail.settleFloodText();
    const lines = this.lines.push(chunk);
    const firstClassified = Math.max(0, lines.length - Math.min(maxClassifiedLinesPerChunk(chunk.data.length), remaining));
    this.budget.countClassified(now, lines.length - firstClassified);
    lines.forEach((line, index) => (index >= firstClassified ? this.handleLine(line) : this.logTail.remember(line.text)));
  }

  private isStarting(): boolean {
    const phase = this.machine.phase;
    return phase !== 'ready' && phase !== 'running' && phase !== 'unhealthy';
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
    const isSettled = this.isSettled;
    if (line.isPartial) {
      this.logTail.setStalledLine(line.text);
    } else {
      this.logTail.setStalledLine(undefined);
      this.logTail.remember(line.text);
      if (!isSettled) this.machine.observeSightings(this.portMonitor.recordLine(line));
    }
    const classifier = isSettled ? this.settledClassifier : this.classifier;
    const classification = classifier.classify(line.text, { isPartial: line.isPartial });
    if (!line.isPartial) for (const place of classification.places) this.machine.observePlace(place);
    this.applyDecisive(classification);
    // Getters: the composer needs these only for error lines, and `info` copies the state.
    const machine = this.machine;
    const config = this.config;
    const report = this.composer.observe(classification, {
      frameworkName: this.detectedName(),
      get knownPort() {
        return machine.info.port ?? machine.probeTarget?.port ?? config.port;
      },
      get knownUrl() {
        return machine.info.url;
      },
    });
    if (!report) return;
    const pattern = this.patternsById.get(report.patternId);
    if (pattern?.confirmedByExit) this.machine.observeFailureIfExit(report);
    else this.machine.observeError(report);
  }

  private applyDecisive(classification: Classification): void {
    const decisive = classification.decisive;
    if (!decisive) return;
    const { pattern, groups } = decisive;
    if (pattern.kind === 'ready') {
      this.composer.clearCurrent();
      const frameworkName = pattern.tool ?? (pattern.framework === 'generic' ? this.detectedName() : FRAMEWORK_NAMES[pattern.framework]);
      this.machine.observeReadyLine({
        patternId: pattern.id,
        frameworkName,
        framework: pattern.framework,
        isWatching: pattern.watching,
        followsFailures: pattern.followsFailures,
        endsBuild: pattern.endsBuild,
        speaksHttp: speaksHttp(pattern, groups),
      });
    } else if (pattern.kind === 'building') {
      this.machine.observeBuilding(pattern.id);
    } else if (pattern.kind === 'error') {
      const failure = this.startFailureOf(pattern);
      if (failure) this.machine.observeStartFailure(pattern.id, failure);
    } else if (pattern.kind === 'portMoved') {
      const from = Number(groups.from);
      const to = groups.to !== undefined ? Number(groups.to) : undefined;
      const message = (pattern.message && renderTemplate(pattern.message, { ...groups })) ?? classification.text;
      if (Number.isInteger(from)) this.machine.observePortMove(from, to, message);
    }
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

  private onTcpProbed(port: number, isOpen: boolean, answeredHttp: boolean): void {
    if (port !== this.target?.port) return; // an answer about a port we no longer care about
    // A TCP accept from a probe begun before the target asked for HTTP says nothing about HTTP.
    if (isOpen && !answeredHttp && this.target.confirmsWithHttp && port !== this.httpConfirmedPort) return;
    // Open but not (yet) seen in the tree: look again now rather than at the next scan.
    if (isOpen && !this.portMonitor.listeningPorts.includes(port)) this.portMonitor.scanNow();
    this.machine.observePortProbe(port, isOpen, answeredHttp);
  }

  private onMachineChanged(info: ReadinessInfo): void {
    const isSettled = info.phase !== 'starting' && info.phase !== 'error';
    this.portMonitor.setScanInterval(isSettled ? STEADY_SCAN_INTERVAL_MS : STARTUP_SCAN_INTERVAL_MS);
    this.syncLiveness(info);
    this.changedEmitter.fire(info);
  }

  /** Liveness probes run while the run is ready or unhealthy, on the port it got ready on. */
  private syncLiveness(info: ReadinessInfo): void {
    const isWatched = (info.phase === 'ready' || info.phase === 'unhealthy') && info.port !== undefined;
    if (!isWatched || !this.config.liveness || this.isDisposed) return this.stopLiveness();
    if (this.livenessWatch) return;
    this.livenessWatch = this.livenessScheduler.watch({
      port: info.port!,
      httpUrl: this.config.url,
      settings: this.config.liveness,
      onVerdict: (isAlive, reason) => this.machine.observeLiveness(isAlive, reason),
      onProbe: (isAlive) => (this.hasFailedProbe = !isAlive),
    });
  }

  private stopLiveness(): void {
    this.livenessWatch?.dispose();
    this.livenessWatch = undefined;
    this.hasFailedProbe = false;
  }

  /**
   * Settled: ready, its last liveness probe passed, no error awaiting its detail. Output then
   * cannot make it more ready, only report a failure, so lines meet the failure entries alone
   * (settledClassifier) and no longer feed port sightings. A restart, an error line (running), a
   * failed probe make it unsettled, and every line meets the whole table again.
   */
  get isSettled(): boolean {
    return (
      this.machine.phase === 'ready' &&
      this.machine.runExpectation === 'readiness' &&
      !this.hasFailedProbe &&
      !this.composer.isAwaitingDetail
    );
  }

  /**
   * The name for messages not tied to a framework's own line: the framework this command runs
   * (configured, or named by its command line), else "Server". A framework found only in the
   * project's files says nothing about this command (`php -S` in a Next.js project is not Next.js).
   */
  private detectedName(): string {
    return this.detection.isFromCommand ? FRAMEWORK_NAMES[this.detection.framework] : FRAMEWORK_NAMES.generic;
  }

  private detect(): FrameworkDetection {
    return detectFramework({
      argv: this.session.argv,
      cwd: this.session.cwd,
      projectDir: this.projectDir,
      configured: this.config.framework,
    });
  }
}

/** Frameworks whose ready line is not about a local HTTP server: Convex's is a cloud deployment. */
const NOT_HTTP_FRAMEWORKS: ReadonlySet<FrameworkId> = new Set(['generic', 'convex']);
/** Frameworks whose ready line always follows their URL line (docs/readiness.md, "HTTP servers answer HTTP"). */
const ANNOUNCES_READY: ReadonlySet<FrameworkId> = new Set(['nextjs']);

/** A ready line of an HTTP dev server: a framework's own, or one that names an http(s) URL. */
function speaksHttp(pattern: FrameworkPattern, groups: Readonly<Record<string, string | undefined>>): boolean {
  if (pattern.watching || pattern.priority >= PRIORITY.customReady) return false;
  return !NOT_HTTP_FRAMEWORKS.has(pattern.framework) || /^https?:\/\//.test(groups.url ?? '');
}

/**
 * Any HTTP answer (a 404 or a 500 too) from the target's scheme on either loopback. One request
 * may wait as long as the start may take: a dev server's first answer can take many seconds (Next.js
 * compiles the page first), and a starved event loop reads a prompt answer late. Short attempts
 * retried would time out one after another and call a healthy server broken.
 */
async function answersHttp(
  probeHttp: (options: HttpProbeOptions) => Promise<HttpProbeResult>,
  target: ProbeTarget,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<boolean> {
  const scheme = target.url.startsWith('https:') ? 'https' : 'http';
  const urls = [`${scheme}://127.0.0.1:${target.port}/`, `${scheme}://[::1]:${target.port}/`];
  const answers = await Promise.all(urls.map((url) => probeHttp({ url, timeoutMs, signal })));
  return answers.some((answer) => answer.status !== undefined);
}

/** The user's readyPatterns / errorPatterns as table entries above every built-in one. */
const FAILURE_KINDS: ReadonlySet<PatternKind> = new Set<PatternKind>(['error', 'warning-guard', 'ready-guard']);

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
