/**
 * The readiness state machine of one command entry:
 *
 *   stopped → starting → ready ⇄ running,   ready ⇄ unhealthy,   any → error,   → stopped on a clean exit.
 *
 * Inputs are what the tracker observed (a ready line, an error message, a port probe, the
 * process tree's listening ports, the exit, liveness probes after ready); the machine decides.
 * Decision rules, in order:
 *   ready line + known port open (and ours)         → ready at once
 *   ready line + known port open, owner unverified  → ready after stabilityDelay
 *   ready line, no port known and none listening    → ready after stabilityDelay
 *   ready line, port known but closed               → wait; error after portTimeout
 *   port open (ours, or a configured one), no line  → ready after stabilityDelay
 *   error line                                      → error at once (a later ready line recovers)
 *   exit during start                               → error at once, with the exit code
 *   timeout                                         → error; the process is left running
 * After ready, an error line means the server is up but reports a failure: `running`, with the
 * message, until a ready line again. An exit after ready is `stopped` when clean, else `error`.
 *
 * An entry that expects no readiness (no readiness field, no server named by its command, or a
 * one-shot job) is `running` once up for stabilityDelay without an error line, and `completed`
 * when it exits 0. A server signal (a ready line, a framework URL, a listening port) turns a
 * long-running one into a readiness-checked entry from there.
 */
import { constants as osConstants } from 'node:os';
import { DisposableBase, Emitter, realClock, toDisposable, type Clock, type Disposable, type Event } from '../base';
import type { FrameworkId, ReadinessInfo, ReadinessPhase } from '../../../shared/ready';
import type { UrlSighting } from '../../../shared/ports';
import type { ExitInfo } from '../../../shared/model';
import type { ResolvedReadinessConfig } from './readyConfig';
import type { PlaceHint } from './lineClassifier';
import type { ErrorReport } from './errorMessages';
import { clampMessage } from './messageTemplate';
import { selectProbeTarget, type ProbeTarget } from './probeTarget';
import { formatSeconds } from './formatSeconds';

export type { ProbeTarget } from './probeTarget';

/** Whether the process tree is seen listening on a port that answers. */
type PortOwnership = 'owned' | 'foreign' | 'unknown';

/** What a run waits for: readiness, nothing (a long-running command), or its end (a one-shot job). */
export type RunExpectation = 'readiness' | 'nothing' | 'completion';

export const NO_READINESS_MESSAGE = 'Running — no readiness check; set `port` or `readyPatterns` to wait for one';
const ONE_SHOT_RUNNING_MESSAGE = 'Running one-shot job…';

interface ReadinessMachineOptions {
  config: ResolvedReadinessConfig;
  /** Detected or configured framework (updated by the tracker at each run start). */
  framework: () => FrameworkId;
  /** Display name for messages not tied to a framework's own line ("Vite", or "Server"). */
  frameworkName: () => string;
  /** Last lines of the current run, attached to errors. */
  logs: () => string[];
  /** Process-tree port scans work on this platform, so a foreign listener can be told apart. */
  canTellPortOwner: boolean;
  /**
   * The command line runs an HTTP framework's dev server (`ng serve`, `nuxt dev`, `parcel x.html`):
   * its ports count once they answer HTTP, and a watcher's line from it is not "ready without a server".
   */
  runsHttpServer?: () => boolean;
  clock?: Clock;
  /**
   * The command's framework always prints its own ready line after its URL (Next.js): its HTTP
   * confirmation waits for that line, since a GET sent before it stalled Next.js 16's start.
   */
  announcesReady?: () => boolean;
}

type Decision =
  | { kind: 'ready-now'; reason: string }
  | { kind: 'ready-when-stable'; reason: string }
  | { kind: 'wait-for-port'; port: number }
  | { kind: 'wait' };

interface ReadyLine {
  patternId: string;
  frameworkName: string;
  /** A watcher's line ("Found 0 errors. Watching for file changes."): ready without a server. */
  isWatching: boolean;
  /** An HTTP framework's line: its port must answer HTTP, not only accept. */
  speaksHttp: boolean;
}

interface ReadyLineInfo {
  patternId: string;
  /** Display name of the program whose line it is ("Vite", "TypeScript", "Server"). */
  frameworkName: string;
  framework?: FrameworkId;
  isWatching?: boolean;
  speaksHttp?: boolean;
  /** The tool prints this line after a failed build too ("[watch] build finished"): it confirms only a clean build. */
  followsFailures?: boolean;
  /** The line only ends a build under way ("Watching for changes in …" after "Start building sites …"). */
  endsBuild?: boolean;
}

type ErrorOrigin = 'pattern' | 'timeout' | 'port-timeout' | 'exit';

/** Exits that mean "someone stopped it", not "it failed": SIGHUP, SIGINT, SIGKILL, SIGTERM. */
const STOP_SIGNALS = new Set([1, 2, 9, 15]);
/** 128 + SIGINT / SIGTERM: how shells and Next.js report being stopped by those signals. */
const STOP_EXIT_CODES = new Set([130, 143]);

export class ReadinessMachine extends DisposableBase {
  private readonly config: ResolvedReadinessConfig;
  private readonly options: ReadinessMachineOptions;
  private readonly clock: Clock;

  private state: ReadinessInfo = { phase: 'stopped', message: 'Not started', runId: 0 };
  private isLive = false;
  private expectation: RunExpectation = 'readiness';
  /** The ready message, restored when liveness probes pass again. */
  private readyState: Pick<ReadinessInfo, 'message' | 'reason'> | undefined;
  private errorOrigin: ErrorOrigin | undefined;
  /**
   * Readiness was adopted (no readiness fields) only from a watcher's build lines: a clean exit then
   * means the tool ran once (`rollup -c`, `swc src -d dist` print the same success line as in watch
   * mode), so it ends as a completed job, not as a start that failed.
   */
  private adoptedFromBuildLines = false;
  /** A failure that counts only if the process exits during the start ("git: command not found"). */
  private failureIfExit: ErrorReport | undefined;
  /** An error line came since the last build started: a line the tool prints after failures too proves nothing. */
  private hasErrorSinceBuildStart = false;

  // Per-run observations.
  private readyLine: ReadyLine | undefined;
  /** A compile or build is under way (its line came after the last ready line). */
  private isBuilding = false;
  /** The ready line a compile under way set aside. */
  private lineBeforeBuild: ReadyLine | undefined;
  /** Until then, an error line after ready means the start failed (the ready line was premature). */
  private settleUntil = 0;
  /** Where framework lines said the server is, oldest first. */
  private places: PlaceHint[] = [];
  private sightings: UrlSighting[] = [];
  private movedTo: number | undefined;
  private movedAway = new Set<number>();
  /** A "port in use, trying the next" line whose new place has not been named yet. */
  private portTakenAwaitingMove: number | undefined;
  private listening: number[] = [];
  private hasScanned = false;
  private portOpen = new Map<number, boolean>();
  private isHttpOk = false;
  /** The port our HTTP confirmation has a request open on (sent, not answered yet). */
  private pendingHttpPort: number | undefined;
  /** A port whose server began compiling our open request: it takes HTTP requests. */
  private compilingRequestPort: number | undefined;

  private startTimer: Disposable | undefined;
  private stabilityTimer: Disposable | undefined;
  /** Ends a ready run's settle window (`settling` → false). */
  private settleTimer: Disposable | undefined;
  private portTimer: Disposable | undefined;

  private readonly changedEmitter = this.register(new Emitter<ReadinessInfo>());
  readonly onDidChange: Event<ReadinessInfo> = this.changedEmitter.event;
  private readonly targetEmitter = this.register(new Emitter<ProbeTarget | undefined>());
  /** The port (or URL) worth probing changed, or probing should stop (undefined). */
  readonly onDidChangeProbeTarget: Event<ProbeTarget | undefined> = this.targetEmitter.event;
  private lastTargetKey = '';

  constructor(options: ReadinessMachineOptions) {
    super();
    this.options = options;
    this.config = options.config;
    this.clock = options.clock ?? realClock;
    this.register(toDisposable(() => this.clearTimers()));
  }

  get info(): ReadinessInfo {
    return { ...this.state, logs: this.state.logs ? [...this.state.logs] : undefined };
  }

  /** The run is alive (started, not exited). */
  get isRunLive(): boolean {
    return this.isLive;
  }

  get phase(): ReadinessPhase {
    return this.state.phase;
  }

  get runExpectation(): RunExpectation {
    return this.expectation;
  }

  /** What to probe now, or undefined when probing is pointless (not starting, or nothing known). */
  get probeTarget(): ProbeTarget | undefined {
    if (!this.isLive || this.expectation !== 'readiness' || !this.wantsProbing()) return undefined;
    const target = this.currentTarget();
    // A listening port is known to be open; only an HTTP confirmation is left to ask for.
    return target?.source === 'listening' && !target.confirmsWithHttp ? undefined : target;
  }

  /** A ready line came this run (its server may take as long as the start to answer a request). */
  get hasReadyLine(): boolean {
    return this.readyLine !== undefined;
  }

  /** A ready line is waiting for its port: probe fast. */
  get isWaitingForPort(): boolean {
    return this.readyLine !== undefined && this.portTimer !== undefined;
  }

  // ---- inputs ---------------------------------------------------------------------------------

  startRun(runId: number, at: number, expectation: RunExpectation = 'readiness'): void {
    this.clearTimers();
    this.isLive = true;
    this.expectation = expectation;
    this.adoptedFromBuildLines = false;
    this.hasErrorSinceBuildStart = false;
    this.failureIfExit = undefined;
    this.readyState = undefined;
    this.errorOrigin = undefined;
    this.readyLine = undefined;
    this.lineBeforeBuild = undefined;
    this.isBuilding = false;
    this.settleUntil = 0;
    this.places = [];
    this.sightings = [];
    this.movedTo = undefined;
    this.movedAway = new Set();
    this.portTakenAwaitingMove = undefined;
    this.listening = [];
    this.hasScanned = false;
    this.portOpen = new Map();
    this.isHttpOk = false;
    this.pendingHttpPort = undefined;
    this.compilingRequestPort = undefined;
    this.state = {
      phase: 'starting',
      message: expectation === 'readiness' ? startingMessage(this.options.frameworkName()) : 'Starting…',
      framework: this.options.framework(),
      runId,
      since: at,
      reason: 'run started',
      expectsReadiness: expectation === 'readiness',
    };
    if (expectation === 'readiness') this.startTimer = this.clock.setTimer(() => this.onStartTimeout(), this.config.timeoutMs);
    else this.stabilityTimer = this.clock.setTimer(() => this.enterRunning(), this.config.stabilityDelayMs);
    this.fireChanged();
    this.evaluate();
  }

  /**
   * Liveness after ready: probes of the ready port failed `failureThreshold` times (unhealthy,
   * with why) or pass again (ready).
   */
  observeLiveness(isAlive: boolean, reason: string): void {
    if (!this.isLive) return;
    if (!isAlive && this.state.phase === 'ready') {
      this.update({ phase: 'unhealthy', message: clampMessage(`Not answering: ${reason}`), reason: `liveness: ${reason}` });
    } else if (isAlive && this.state.phase === 'unhealthy') {
      this.update({ phase: 'ready', ...this.readyState, reason: `liveness probe passed (${reason})` });
    }
  }

  observeReadyLine(info: ReadyLineInfo): void {
    const { patternId, frameworkName, framework, isWatching = false, speaksHttp = false, followsFailures, endsBuild } = info;
    if (!this.isLive || this.expectation === 'completion') return;
    if (endsBuild && !this.isBuilding) return;
    // esbuild ends a failed build with the same "[watch] build finished" as a clean one.
    if (followsFailures && this.hasErrorSinceBuildStart) return;
    this.adoptReadiness(`pattern ${patternId}`, isWatching);
    const wasHttp = this.readyLine?.speaksHttp === true;
    this.readyLine = { patternId, frameworkName, isWatching, speaksHttp };
    this.lineBeforeBuild = undefined;
    // What was learnt by TCP accepts does not confirm an HTTP server: probe again.
    if (speaksHttp && !wasHttp) this.portOpen.clear();
    this.isBuilding = false;
    if (framework && framework !== 'generic' && this.state.framework === 'generic') this.state.framework = framework;
    if (this.state.phase === 'ready') return;
    if (this.state.phase === 'running') {
      this.enterReady(`pattern ${patternId} after a reported error`);
      return;
    }
    this.evaluate();
  }

  /**
   * A compile or build started ("○ Compiling / ...", "build started..."). While starting, the
   * ready line before it is moot and an open port is not enough until a ready line follows; after
   * ready it is the server at work (Next.js compiles a page on request).
   */
  observeBuilding(patternId: string): void {
    if (!this.isLive || this.expectation === 'completion') return;
    this.hasErrorSinceBuildStart = false;
    // A watcher's or dev server's first compile: its end (a ready or an error line) is the verdict.
    this.adoptReadiness(`pattern ${patternId}`, true);
    if (!this.wantsProbing()) return;
    if (this.isCompilingOurRequest()) {
      this.compilingRequestPort = this.pendingHttpPort;
      this.portOpen.set(this.pendingHttpPort!, true);
      this.evaluate();
      return;
    }
    this.isBuilding = true;
    this.lineBeforeBuild = this.readyLine ?? this.lineBeforeBuild;
    this.readyLine = undefined;
    if (this.state.phase === 'starting') this.update({ reason: `pattern ${patternId}: compiling` });
    this.evaluate();
  }

  /**
   * A line only a server that could not listen, or a failed build, prints: an entry that expected
   * no readiness was a server or a watcher after all, and its start failed (the error line follows).
   */
  observeStartFailure(patternId: string, kind: 'listen' | 'build'): void {
    if (!this.isLive || this.expectation !== 'nothing' || this.readyState) return;
    this.adoptReadiness(`pattern ${patternId} (start failed)`, kind === 'build');
  }

  /** A failure line that fails the start only if the process exits before it is ready. */
  observeFailureIfExit(report: ErrorReport): void {
    if (!this.isLive) return;
    this.failureIfExit ??= report;
    if (this.state.phase === 'starting') this.update({ reason: `${report.reason} (an error only if it exits)` });
  }

  observeError(report: ErrorReport): void {
    if (!this.isLive) return;
    this.hasErrorSinceBuildStart = true;
    const message = report.message;
    if (this.state.phase === 'ready' && this.expectation === 'readiness' && this.clock.now() < this.settleUntil) {
      // Within the settle window the ready line was premature: "✓ Ready" then a config error,
      // "Development Server … started" then "Failed to listen".
      this.enterError(message, `${report.reason} right after ${this.state.reason ?? 'ready'}`, 'pattern');
      return;
    }
    switch (this.state.phase) {
      case 'starting':
        this.enterError(message, report.reason, 'pattern');
        return;
      case 'error':
        if (this.errorOrigin !== 'exit') {
          this.errorOrigin = 'pattern';
          this.update({ message, reason: report.reason, logs: this.options.logs() });
        }
        return;
      case 'ready':
      case 'running':
        if (this.expectation !== 'readiness') {
          // A worker or job that logs an error is still at work; its exit code is the verdict.
          this.update({ reason: report.reason, logs: this.options.logs() });
          return;
        }
        // Up, but reporting a failure (a compile error after an edit): not ready, not dead.
        this.readyLine = undefined;
        this.update({ phase: 'running', message, reason: report.reason, logs: this.options.logs() });
        return;
      default:
        return;
    }
  }

  observePortMove(from: number, to: number | undefined, message: string): void {
    if (!this.isLive) return;
    this.movedAway.add(from);
    if (to !== undefined) this.movedTo = to;
    this.portTakenAwaitingMove = to === undefined ? from : undefined;
    this.portOpen.delete(from);
    // A ready line about the taken port is moot: the server prints another one for its new port.
    if (this.state.phase === 'starting') this.readyLine = undefined;
    if (this.state.phase === 'starting') this.update({ message, reason: `port ${from} in use${to ? `, moved to ${to}` : ''}` });
    this.evaluate();
  }

  /** Where a framework line says the server is (trusted). */
  observePlace(place: PlaceHint): void {
    if (!this.isLive || this.expectation === 'completion') return;
    this.adoptReadiness(`pattern ${place.patternId} names ${place.url}`);
    if (!this.places.some((p) => p.url === place.url)) this.places.push(place);
    if (place.port !== this.portTakenAwaitingMove) this.portTakenAwaitingMove = undefined;
    this.evaluate();
  }

  /** URLs that appeared in the output (untrusted: "connecting to localhost:5432" is one too). */
  observeSightings(sightings: readonly UrlSighting[]): void {
    if (!this.isLive || sightings.length === 0) return;
    this.sightings.push(...sightings);
    this.evaluate();
  }

  /** Our HTTP confirmation sent a request to `port` (pending) or got its answer or gave up. */
  observeHttpRequest(port: number, isPending: boolean): void {
    if (isPending) this.pendingHttpPort = port;
    else if (this.pendingHttpPort === port) this.pendingHttpPort = undefined;
  }

  /** A probe of `port`: open or not, and whether that was an HTTP answer (not just a TCP accept). */
  observePortProbe(port: number, isOpen: boolean, answeredHttp = false): void {
    if (!this.isLive) return;
    const endedBuild = answeredHttp && this.endBuildAnswered();
    if (!isOpen && this.compilingRequestPort === port) this.compilingRequestPort = undefined;
    if (this.portOpen.get(port) === isOpen && !endedBuild) return;
    this.portOpen.set(port, isOpen);
    this.evaluate();
  }

  observeHttpProbe(isOk: boolean): void {
    if (!this.isLive) return;
    const endedBuild = isOk && this.endBuildAnswered();
    if (this.isHttpOk === isOk && !endedBuild) return;
    this.isHttpOk = isOk;
    this.evaluate();
  }

  observeListeningPorts(ports: readonly number[]): void {
    if (!this.isLive) return;
    const changed = !this.hasScanned || ports.length !== this.listening.length || ports.some((p, i) => p !== this.listening[i]);
    this.hasScanned = true;
    if (!changed) return;
    this.listening = [...ports];
    if (ports.length > 0) this.adoptReadiness(`listening on port ${ports[0]}`);
    this.evaluate();
  }

  endRun(exit: ExitInfo, isStopRequested: boolean): void {
    if (!this.isLive) return;
    this.isLive = false;
    this.clearTimers();
    this.emitTargetIfChanged();
    const exitCode = exit.exitCode;
    const wasStopped = isStopRequested || (exit.signal !== undefined && STOP_SIGNALS.has(exit.signal)) || STOP_EXIT_CODES.has(exitCode);
    if (wasStopped) {
      this.update({ phase: 'stopped', message: 'Stopped', reason: describeExit(exit), exitCode, logs: undefined });
      return;
    }
    const isClean = exitCode === 0 && !exit.signal;
    if (this.expectation !== 'readiness' || (isClean && this.adoptedFromBuildLines)) {
      this.endJob(exit, isClean);
      return;
    }
    const phase = this.state.phase;
    if (phase === 'starting' || (phase === 'error' && this.errorOrigin !== 'exit')) {
      const message =
        phase === 'error' && this.errorOrigin === 'pattern'
          ? `${this.state.message} (${exitPhrase(exit)})`
          : this.failureIfExit
            ? `${this.failureIfExit.message} (${exitPhrase(exit)})`
            : this.portTakenAwaitingMove !== undefined
              ? // It announced a move to the next port and exited instead (a bare `php -S`): the taken port is the cause.
                `Port ${this.portTakenAwaitingMove} already in use (${exitPhrase(exit)})`
              : `${capitalize(exitPhrase(exit))} during start`;
      this.errorOrigin = 'exit';
      this.update({ phase: 'error', message: clampMessage(message), reason: describeExit(exit), exitCode, logs: this.options.logs() });
      return;
    }
    if (isClean) {
      this.update({ phase: 'stopped', message: 'Exited with code 0', reason: describeExit(exit), exitCode, logs: undefined });
      return;
    }
    this.errorOrigin = 'exit';
    this.update({ phase: 'error', message: capitalize(exitPhrase(exit)), reason: describeExit(exit), exitCode, logs: this.options.logs() });
  }

  /** A command that expected no readiness ended: its exit code is the verdict. */
  private endJob(exit: ExitInfo, isClean: boolean): void {
    const endedAt = this.clock.now();
    if (isClean) {
      const took = formatSeconds(Math.max(0, endedAt - (this.state.since ?? endedAt)));
      this.errorOrigin = undefined;
      this.update({
        phase: 'completed',
        message: `Completed in ${took} (exit code 0)`,
        reason: describeExit(exit),
        exitCode: 0,
        endedAt,
        logs: this.options.logs(),
      });
      return;
    }
    this.errorOrigin = 'exit';
    this.update({
      phase: 'error',
      message: capitalize(exitPhrase(exit)),
      reason: describeExit(exit),
      exitCode: exit.exitCode,
      endedAt,
      logs: this.options.logs(),
    });
  }

  /** A long-running command with no readiness fields showed a server signal: check readiness from here. */
  private adoptReadiness(signal: string, isBuildLine = false): void {
    if (this.expectation !== 'nothing') {
      // A server signal after a watcher's lines: it serves, so an exit is no longer a finished job.
      if (!isBuildLine) this.adoptedFromBuildLines = false;
      return;
    }
    this.expectation = 'readiness';
    this.adoptedFromBuildLines = isBuildLine;
    this.clearStabilityTimer();
    this.startTimer = this.clock.setTimer(() => this.onStartTimeout(), this.config.timeoutMs);
    this.update({
      phase: this.state.phase === 'error' ? 'error' : 'starting',
      message: this.state.phase === 'error' ? this.state.message : startingMessage(this.options.frameworkName()),
      reason: `server signal: ${signal}`,
      expectsReadiness: true,
    });
  }

  private enterRunning(): void {
    this.stabilityTimer = undefined;
    if (!this.isLive || this.state.phase !== 'starting' || this.expectation === 'readiness') return;
    const message = this.expectation === 'completion' ? ONE_SHOT_RUNNING_MESSAGE : NO_READINESS_MESSAGE;
    this.update({ phase: 'running', message, reason: `up for ${this.config.stabilityDelayMs} ms without an error line`, logs: undefined });
  }

  /**
   * An HTTP answer during a compile that followed a ready line ends it: the server said it was
   * ready, then compiled what a request asked for and answered. Next.js compiles a page on its
   * first request (our probe's, too) and, from 16, logs "GET / 200" then, not a ready line; that
   * ready line counts again. A compile before any ready line (a first bundle) still waits for its
   * own end: a dev server may answer while it builds. Returns whether a compile ended.
   */
  private endBuildAnswered(): boolean {
    if (!this.isBuilding || !this.lineBeforeBuild) return false;
    this.isBuilding = false;
    this.readyLine = this.lineBeforeBuild;
    this.lineBeforeBuild = undefined;
    return true;
  }

  /**
   * A compile line while our HTTP confirmation's request is open, after an HTTP framework's ready
   * line, is the server handling that request: it reads HTTP and answers once compiled. Next.js
   * compiles the requested page first ("○ Compiling / ..."), which on a loaded machine outlasts the
   * start timeout; the server said it was ready and is working on our request, so it is.
   */
  private isCompilingOurRequest(): boolean {
    const port = this.pendingHttpPort;
    return (
      this.state.phase === 'starting' && this.readyLine?.speaksHttp === true && port !== undefined && this.currentTarget()?.port === port
    );
  }

  // ---- decisions ------------------------------------------------------------------------------

  private wantsProbing(): boolean {
    return this.state.phase === 'starting' || (this.state.phase === 'error' && this.errorOrigin !== 'exit' && this.readyLine !== undefined);
  }

  private evaluate(): void {
    this.emitTargetIfChanged();
    if (!this.isLive || this.expectation !== 'readiness' || !this.wantsProbing()) return;
    const decision = this.decide();
    switch (decision.kind) {
      case 'ready-now':
        this.enterReady(decision.reason);
        return;
      case 'ready-when-stable':
        this.clearPortTimer();
        if (!this.stabilityTimer) {
          this.stabilityTimer = this.clock.setTimer(() => {
            this.stabilityTimer = undefined;
            const again = this.decide();
            if (again.kind === 'ready-now' || again.kind === 'ready-when-stable') {
              this.enterReady(`${again.reason}, stable for ${this.config.stabilityDelayMs} ms`);
            } else {
              this.evaluate();
            }
          }, this.config.stabilityDelayMs);
        }
        return;
      case 'wait-for-port':
        this.clearStabilityTimer();
        if (!this.portTimer) {
          const port = decision.port;
          this.portTimer = this.clock.setTimer(() => this.onPortTimeout(port), this.config.portTimeoutMs);
          this.emitTargetIfChanged(true); // probe faster now
        }
        return;
      case 'wait':
        this.clearStabilityTimer();
        return;
    }
  }

  private decide(): Decision {
    // A compile under way: neither an open port nor an earlier line makes it ready yet.
    if (this.isBuilding) return { kind: 'wait' };
    const line = this.readyLine;
    const target = this.currentTarget();
    const isOpen = target ? this.isAnswering(target) : false;
    // A watcher is ready without a server, unless the config or the command says it serves one
    // (`ng serve` prints "Watching for file changes" well before its server listens).
    const declaresServer = this.config.port !== undefined || this.config.url !== undefined || this.runsHttpServer();
    if (line?.isWatching && !declaresServer && !isOpen)
      return { kind: 'ready-when-stable', reason: `pattern ${line.patternId} (watching, no server)` };
    if (target) {
      const ownership: PortOwnership = target.source === 'listening' ? 'owned' : this.ownershipOf(target.port);
      const what = target.httpUrl
        ? `${target.httpUrl} answers`
        : this.compilingRequestPort === target.port
          ? `port ${target.port} compiling the request it took`
          : target.confirmsWithHttp
            ? `port ${target.port} answers HTTP`
            : `port ${target.port} open`;
      if (isOpen && ownership === 'owned') {
        if (line) return { kind: 'ready-now', reason: `pattern ${line.patternId} + ${what}` };
        return { kind: 'ready-when-stable', reason: `${what} (${target.source}), no ready line` };
      }
      if (isOpen && ownership === 'unknown') {
        // No way to tell whose it is (yet): hold it for the stability delay either way.
        return {
          kind: 'ready-when-stable',
          reason: line ? `pattern ${line.patternId} + ${what}` : `${what} (${target.source}), no ready line`,
        };
      }
      // Open but someone else's: only a ready line of ours, about a port we were told about,
      // lets it count (a container's published port is owned by the container runtime).
      if (isOpen && line && target.isTrusted) {
        return { kind: 'ready-when-stable', reason: `pattern ${line.patternId} + ${what} (not seen in the process tree)` };
      }
      // Only a port we were told about (config, the framework's own line) is held to portTimeout;
      // a URL that merely appeared in the output gets the whole start timeout.
      if (line && target.isTrusted && !isOpen) return { kind: 'wait-for-port', port: target.port };
      return { kind: 'wait' };
    }
    // An HTTP dev server's build line ("Application bundle generation complete") before any port:
    // the tree scan finds the port it binds next, and that port decides.
    if (line && this.runsHttpServer() && this.options.canTellPortOwner) return { kind: 'wait' };
    if (line) return { kind: 'ready-when-stable', reason: `pattern ${line.patternId}, no port known` };
    return { kind: 'wait' };
  }

  private isAnswering(target: ProbeTarget): boolean {
    if (target.httpUrl) return this.isHttpOk;
    if (target.source === 'listening' && !target.confirmsWithHttp) return true;
    return this.portOpen.get(target.port) === true;
  }

  /**
   * An HTTP server's port counts once it answers HTTP, not on a TCP accept: Nuxt, Remix and Parcel
   * bind seconds before they serve. It is one when its ready line is an HTTP framework's, when the
   * program printed an http(s) URL for that port, or when the command runs an HTTP dev server.
   */
  private currentTarget(): ProbeTarget | undefined {
    const target = this.selectTarget();
    if (!target || target.httpUrl) return target;
    const speaksHttp =
      this.readyLine?.speaksHttp === true ||
      (target.source === 'listening' && this.runsHttpServer()) ||
      (!this.options.announcesReady?.() && this.printedHttpUrlFor(target.port));
    return speaksHttp ? { ...target, confirmsWithHttp: true } : target;
  }

  private runsHttpServer(): boolean {
    return this.options.runsHttpServer?.() === true;
  }

  private printedHttpUrlFor(port: number): boolean {
    // A framework's own URL line is followed by its own ready line, which asks for HTTP then (an
    // earlier GET makes Next.js 16 compile before it is ready, and its start times out).
    if (this.places.some((p) => p.port === port && p.isFrameworkOwn)) return false;
    const isHttp = (hint: { port: number; isHttpUrl?: boolean }) => hint.port === port && hint.isHttpUrl === true;
    return this.places.some(isHttp) || this.sightings.some(isHttp);
  }

  private selectTarget(): ProbeTarget | undefined {
    const foreignPorts = new Set(
      [...this.portOpen].filter(([port, isOpen]) => isOpen && this.ownershipOf(port) === 'foreign').map(([port]) => port),
    );
    return selectProbeTarget({
      configUrl: this.config.url,
      configPort: this.config.port,
      places: this.places,
      sightings: this.sightings,
      movedAway: this.movedAway,
      movedTo: this.movedTo,
      listening: this.listening,
      foreignPorts,
    });
  }

  private ownershipOf(port: number): PortOwnership {
    if (this.listening.includes(port)) return 'owned';
    return this.options.canTellPortOwner && this.hasScanned ? 'foreign' : 'unknown';
  }

  // ---- transitions ----------------------------------------------------------------------------

  private enterReady(reason: string): void {
    this.clearTimers();
    this.errorOrigin = undefined;
    const target = this.currentTarget();
    const name = this.readyLine?.frameworkName ?? this.options.frameworkName();
    const isWatcher = this.readyLine?.isWatching === true && !target;
    const message = isWatcher ? `${name} watching for changes` : target ? `${name} ready on ${target.url}` : `${name} ready`;
    this.settleUntil = this.clock.now() + this.config.stabilityDelayMs;
    this.readyState = { message, reason };
    const settling = this.expectation === 'readiness' && this.config.stabilityDelayMs > 0;
    this.update({
      phase: 'ready',
      message,
      reason,
      url: target?.url,
      port: target?.port,
      readyAt: this.clock.now(),
      settling,
      logs: undefined,
    });
    if (settling) this.armSettleTimer();
    this.emitTargetIfChanged();
  }

  private enterError(message: string, reason: string, origin: ErrorOrigin): void {
    this.clearTimers();
    this.errorOrigin = origin;
    this.readyLine = undefined; // recovering needs a ready line printed after the error
    this.lineBeforeBuild = undefined;
    this.update({ phase: 'error', message, reason, logs: this.options.logs() });
    this.emitTargetIfChanged();
  }

  private onStartTimeout(): void {
    this.startTimer = undefined;
    if (!this.isLive || this.state.phase !== 'starting') return;
    const seconds = formatSeconds(this.config.timeoutMs);
    const target = this.currentTarget();
    const message =
      !this.readyLine || !target
        ? `No ready signal after ${seconds}`
        : this.pendingHttpPort === target.port
          ? `Ready line seen; port ${target.port} took a connection but has not answered HTTP after ${seconds}`
          : `Ready line seen, but port ${target.port} is not accepting connections after ${seconds}`;
    this.enterError(message, `timeout ${this.config.timeoutMs} ms`, 'timeout');
  }

  private onPortTimeout(port: number): void {
    this.portTimer = undefined;
    if (!this.isLive || !this.readyLine || this.state.phase !== 'starting') return;
    // It accepted our HTTP request and is working on it (slowly, on a loaded machine): the start timeout decides.
    if (this.pendingHttpPort === port) return;
    const name = this.readyLine.frameworkName;
    this.enterError(
      `${name} printed its ready line, but port ${port} is not accepting connections after ${formatSeconds(this.config.portTimeoutMs)}`,
      `pattern ${this.readyLine.patternId}, port ${port} closed for ${this.config.portTimeoutMs} ms`,
      'port-timeout',
    );
  }

  private update(patch: Partial<ReadinessInfo>): void {
    this.state = { ...this.state, ...patch };
    // Settling describes a ready phase only.
    if (this.state.phase !== 'ready') delete this.state.settling;
    this.fireChanged();
  }

  private fireChanged(): void {
    this.changedEmitter.fire(this.info);
  }

  private emitTargetIfChanged(force = false): void {
    const target = this.probeTarget;
    const key = target ? `${target.httpUrl ?? ''}|${target.port}|${target.confirmsWithHttp === true}|${this.isWaitingForPort}` : '';
    if (!force && key === this.lastTargetKey) return;
    this.lastTargetKey = key;
    this.targetEmitter.fire(target);
  }

  private clearStabilityTimer(): void {
    this.stabilityTimer?.dispose();
    this.stabilityTimer = undefined;
  }

  private clearPortTimer(): void {
    this.portTimer?.dispose();
    this.portTimer = undefined;
  }

  private armSettleTimer(): void {
    this.clearSettleTimer();
    this.settleTimer = this.clock.setTimer(() => {
      this.settleTimer = undefined;
      if (this.state.settling) this.update({ settling: false });
    }, this.config.stabilityDelayMs);
  }

  private clearSettleTimer(): void {
    this.settleTimer?.dispose();
    this.settleTimer = undefined;
  }

  private clearTimers(): void {
    this.startTimer?.dispose();
    this.startTimer = undefined;
    this.clearSettleTimer();
    this.clearStabilityTimer();
    this.clearPortTimer();
  }
}

// ---- helpers -----------------------------------------------------------------------------------

const SIGNAL_NAMES = new Map<number, string>(Object.entries(osConstants.signals).map(([name, number]) => [number, name]));

function exitPhrase(exit: ExitInfo): string {
  if (exit.signal) return `killed by ${SIGNAL_NAMES.get(exit.signal) ?? `signal ${exit.signal}`}`;
  return `exited with code ${exit.exitCode}`;
}

function describeExit(exit: ExitInfo): string {
  return exit.signal ? `exit signal ${SIGNAL_NAMES.get(exit.signal) ?? exit.signal}` : `exit code ${exit.exitCode}`;
}

function startingMessage(frameworkName: string): string {
  return frameworkName === 'Server' ? 'Starting…' : `Starting ${frameworkName}…`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
