/**
 * The readiness state machine of one command entry (SPEC §3.4):
 *
 *   stopped → starting → ready ⇄ running,   any → error,   → stopped on a clean exit.
 *
 * Inputs are what the tracker observed (a ready line, an error message, a port probe, the
 * process tree's listening ports, the exit); the machine decides. Decision rules, in order:
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
 */
import { constants as osConstants } from 'node:os';
import { DisposableBase, Emitter, toDisposable, type Event } from '../base/lifecycle';
import type { FrameworkId, ReadinessInfo, ReadinessPhase } from '../../../shared/ready';
import type { UrlSighting } from '../../../shared/ports';
import type { ExitInfo } from '../../../shared/model';
import type { ResolvedReadinessConfig } from './readyConfig';
import type { PlaceHint } from './lineClassifier';
import type { ErrorReport } from './errorMessages';
import { clampMessage } from './messageTemplate';

/** Whether the process tree is seen listening on a port that answers. */
export type PortOwnership = 'owned' | 'foreign' | 'unknown';

export interface ProbeTarget {
  port: number;
  /** Display URL ("http://localhost:5173"). */
  url: string;
  /** Probe with an HTTP GET of this URL instead of a TCP connect (the `url` field). */
  httpUrl?: string;
  /** Came from the config or a framework line, not from a URL that merely appeared in output. */
  isTrusted: boolean;
  /** "config port", "pattern vite-local-url", "listening", … */
  source: string;
}

export interface ReadinessMachineOptions {
  config: ResolvedReadinessConfig;
  /** Detected or configured framework (updated by the tracker at each run start). */
  framework: () => FrameworkId;
  /** Display name for messages not tied to a framework's own line ("Vite", or "Server"). */
  frameworkName: () => string;
  /** Last lines of the current run, attached to errors. */
  logs: () => string[];
  /** Process-tree port scans work on this platform, so a foreign listener can be told apart. */
  canTellPortOwner: boolean;
  now?: () => number;
}

type Decision =
  | { kind: 'ready-now'; reason: string }
  | { kind: 'ready-when-stable'; reason: string }
  | { kind: 'wait-for-port'; port: number }
  | { kind: 'wait' };

interface ReadyLine {
  patternId: string;
  frameworkName: string;
}

type ErrorOrigin = 'pattern' | 'timeout' | 'port-timeout' | 'exit';

/** Exits that mean "someone stopped it", not "it failed": SIGHUP, SIGINT, SIGKILL, SIGTERM. */
const STOP_SIGNALS = new Set([1, 2, 9, 15]);
/** 128 + SIGINT / SIGTERM: how shells and Next.js report being stopped by those signals. */
const STOP_EXIT_CODES = new Set([130, 143]);

export class ReadinessMachine extends DisposableBase {
  private readonly config: ResolvedReadinessConfig;
  private readonly options: ReadinessMachineOptions;
  private readonly now: () => number;

  private state: ReadinessInfo = { phase: 'stopped', message: 'Not started', runId: 0 };
  private isLive = false;
  private errorOrigin: ErrorOrigin | undefined;

  // Per-run observations.
  private readyLine: ReadyLine | undefined;
  private places: PlaceHint[] = [];
  private sightings: UrlSighting[] = [];
  private movedTo: number | undefined;
  private movedAway = new Set<number>();
  private listening: number[] = [];
  private hasScanned = false;
  private portOpen = new Map<number, boolean>();
  private isHttpOk = false;

  private startTimer: NodeJS.Timeout | undefined;
  private stabilityTimer: NodeJS.Timeout | undefined;
  private portTimer: NodeJS.Timeout | undefined;

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
    this.now = options.now ?? Date.now;
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

  /** What to probe now, or undefined when probing is pointless (not starting, or nothing known). */
  get probeTarget(): ProbeTarget | undefined {
    if (!this.isLive || !this.wantsProbing()) return undefined;
    const target = this.currentTarget();
    return target?.source === 'listening' ? undefined : target; // already known to be open
  }

  /** A ready line is waiting for its port: probe fast. */
  get isWaitingForPort(): boolean {
    return this.readyLine !== undefined && this.portTimer !== undefined;
  }

  // ---- inputs ---------------------------------------------------------------------------------

  startRun(runId: number, at: number): void {
    this.clearTimers();
    this.isLive = true;
    this.errorOrigin = undefined;
    this.readyLine = undefined;
    this.places = [];
    this.sightings = [];
    this.movedTo = undefined;
    this.movedAway = new Set();
    this.listening = [];
    this.hasScanned = false;
    this.portOpen = new Map();
    this.isHttpOk = false;
    this.state = {
      phase: 'starting',
      message: startingMessage(this.options.frameworkName()),
      framework: this.options.framework(),
      runId,
      since: at,
      reason: 'run started',
    };
    this.startTimer = setTimeout(() => this.onStartTimeout(), this.config.timeoutMs);
    this.fireChanged();
    this.evaluate();
  }

  observeReadyLine(patternId: string, frameworkName: string, framework?: FrameworkId): void {
    if (!this.isLive) return;
    this.readyLine = { patternId, frameworkName };
    if (framework && framework !== 'generic' && this.state.framework === 'generic') this.state.framework = framework;
    if (this.state.phase === 'ready') return;
    if (this.state.phase === 'running') {
      this.enterReady(`pattern ${patternId} after a reported error`);
      return;
    }
    this.evaluate();
  }

  observeError(report: ErrorReport): void {
    if (!this.isLive) return;
    const message = report.message;
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
    this.portOpen.delete(from);
    if (this.state.phase === 'starting') this.update({ message, reason: `port ${from} in use${to ? `, moved to ${to}` : ''}` });
    this.evaluate();
  }

  /** Where a framework line says the server is (trusted). */
  observePlace(place: PlaceHint): void {
    if (!this.isLive) return;
    this.places = [place, ...this.places.filter((p) => p.url !== place.url)];
    this.evaluate();
  }

  /** URLs that appeared in the output (untrusted: "connecting to localhost:5432" is one too). */
  observeSightings(sightings: readonly UrlSighting[]): void {
    if (!this.isLive || sightings.length === 0) return;
    this.sightings.push(...sightings);
    this.evaluate();
  }

  observePortProbe(port: number, isOpen: boolean): void {
    if (!this.isLive) return;
    if (this.portOpen.get(port) === isOpen) return;
    this.portOpen.set(port, isOpen);
    this.evaluate();
  }

  observeHttpProbe(isOk: boolean): void {
    if (!this.isLive || this.isHttpOk === isOk) return;
    this.isHttpOk = isOk;
    this.evaluate();
  }

  observeListeningPorts(ports: readonly number[]): void {
    if (!this.isLive) return;
    const changed = !this.hasScanned || ports.length !== this.listening.length || ports.some((p, i) => p !== this.listening[i]);
    this.hasScanned = true;
    if (!changed) return;
    this.listening = [...ports];
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
    const phase = this.state.phase;
    if (phase === 'starting' || (phase === 'error' && this.errorOrigin !== 'exit')) {
      const message =
        phase === 'error' && this.errorOrigin === 'pattern'
          ? `${this.state.message} (${exitPhrase(exit)})`
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

  // ---- decisions ------------------------------------------------------------------------------

  private wantsProbing(): boolean {
    return this.state.phase === 'starting' || (this.state.phase === 'error' && this.errorOrigin !== 'exit' && this.readyLine !== undefined);
  }

  private evaluate(): void {
    this.emitTargetIfChanged();
    if (!this.isLive || !this.wantsProbing()) return;
    const decision = this.decide();
    switch (decision.kind) {
      case 'ready-now':
        this.enterReady(decision.reason);
        return;
      case 'ready-when-stable':
        this.clearPortTimer();
        if (!this.stabilityTimer) {
          this.stabilityTimer = setTimeout(() => {
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
          this.portTimer = setTimeout(() => this.onPortTimeout(port), this.config.portTimeoutMs);
          this.emitTargetIfChanged(true); // probe faster now
        }
        return;
      case 'wait':
        this.clearStabilityTimer();
        return;
    }
  }

  private decide(): Decision {
    const line = this.readyLine;
    const target = this.currentTarget();
    if (target) {
      const isOpen = target.httpUrl ? this.isHttpOk : target.source === 'listening' || this.portOpen.get(target.port) === true;
      const ownership: PortOwnership = target.source === 'listening' ? 'owned' : this.ownershipOf(target.port);
      const what = target.httpUrl ? `${target.httpUrl} answers` : `port ${target.port} open`;
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
    if (line) return { kind: 'ready-when-stable', reason: `pattern ${line.patternId}, no port known` };
    return { kind: 'wait' };
  }

  private currentTarget(): ProbeTarget | undefined {
    const usable = (port: number) => !this.movedAway.has(port) || port === this.movedTo;
    if (this.config.url) {
      const parsed = new URL(this.config.url);
      const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
      return { port, url: displayUrl(this.config.url), httpUrl: this.config.url, isTrusted: true, source: 'config url' };
    }
    if (this.movedTo !== undefined) return this.targetFor(this.movedTo, true, 'moved port');
    if (this.config.port !== undefined && usable(this.config.port)) return this.targetFor(this.config.port, true, 'config port');
    const place = this.places.find((p) => usable(p.port));
    if (place) return { port: place.port, url: displayUrl(place.url), isTrusted: true, source: `pattern ${place.patternId}` };
    // A URL in the output may name another service ("connected to localhost:5432"): skip it when
    // it is someone else's open port, or when the tree listens elsewhere.
    const sighting = this.sightings.find(
      (s) =>
        usable(s.port) &&
        isLoopbackOrWildcard(s.host) &&
        !this.isKnownForeign(s.port) &&
        (this.listening.length === 0 || this.listening.includes(s.port)),
    );
    if (sighting) {
      // The port of the first sighting; the URL as the server printed it last ("listening on
      // http://127.0.0.1:8080" after "starting on port 8080").
      const latest = [...this.sightings].reverse().find((s) => s.port === sighting.port && isLoopbackOrWildcard(s.host)) ?? sighting;
      return { port: sighting.port, url: displayUrl(latest.url), isTrusted: false, source: 'url sighting' };
    }
    const listeningPort = this.listening.find(usable);
    if (listeningPort !== undefined) return this.targetFor(listeningPort, true, 'listening');
    return undefined;
  }

  private targetFor(port: number, isTrusted: boolean, source: string): ProbeTarget {
    const seen = this.places.find((p) => p.port === port)?.url ?? this.sightings.find((s) => s.port === port)?.url;
    return { port, url: displayUrl(seen ?? `http://localhost:${port}/`), isTrusted, source };
  }

  private isKnownForeign(port: number): boolean {
    return this.portOpen.get(port) === true && this.ownershipOf(port) === 'foreign';
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
    const message = target ? `${name} ready on ${target.url}` : `${name} ready`;
    this.update({
      phase: 'ready',
      message,
      reason,
      url: target?.url,
      port: target?.port,
      readyAt: this.now(),
      logs: undefined,
    });
    this.emitTargetIfChanged();
  }

  private enterError(message: string, reason: string, origin: ErrorOrigin): void {
    this.clearTimers();
    this.errorOrigin = origin;
    this.readyLine = undefined; // recovering needs a ready line printed after the error
    this.update({ phase: 'error', message, reason, logs: this.options.logs() });
    this.emitTargetIfChanged();
  }

  private onStartTimeout(): void {
    this.startTimer = undefined;
    if (!this.isLive || this.state.phase !== 'starting') return;
    const seconds = formatSeconds(this.config.timeoutMs);
    const target = this.currentTarget();
    const message =
      this.readyLine && target
        ? `Ready line seen, but port ${target.port} is not accepting connections after ${seconds}`
        : `No ready signal after ${seconds}`;
    this.enterError(message, `timeout ${this.config.timeoutMs} ms`, 'timeout');
  }

  private onPortTimeout(port: number): void {
    this.portTimer = undefined;
    if (!this.isLive || !this.readyLine || this.state.phase !== 'starting') return;
    const name = this.readyLine.frameworkName;
    this.enterError(
      `${name} printed its ready line, but port ${port} is not accepting connections after ${formatSeconds(this.config.portTimeoutMs)}`,
      `pattern ${this.readyLine.patternId}, port ${port} closed for ${this.config.portTimeoutMs} ms`,
      'port-timeout',
    );
  }

  private update(patch: Partial<ReadinessInfo>): void {
    this.state = { ...this.state, ...patch };
    this.fireChanged();
  }

  private fireChanged(): void {
    this.changedEmitter.fire(this.info);
  }

  private emitTargetIfChanged(force = false): void {
    const target = this.probeTarget;
    const key = target ? `${target.httpUrl ?? ''}|${target.port}|${this.isWaitingForPort}` : '';
    if (!force && key === this.lastTargetKey) return;
    this.lastTargetKey = key;
    this.targetEmitter.fire(target);
  }

  private clearStabilityTimer(): void {
    if (this.stabilityTimer) clearTimeout(this.stabilityTimer);
    this.stabilityTimer = undefined;
  }

  private clearPortTimer(): void {
    if (this.portTimer) clearTimeout(this.portTimer);
    this.portTimer = undefined;
  }

  private clearTimers(): void {
    if (this.startTimer) clearTimeout(this.startTimer);
    this.startTimer = undefined;
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

/** "30 s", "1.5 s", "250 ms". */
export function formatSeconds(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  const seconds = ms / 1_000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** "http://localhost:5173/" → "http://localhost:5173" (as people write it); paths stay. */
export function displayUrl(url: string): string {
  return url.replace(/^(https?:\/\/[^/]+)\/$/, '$1');
}

function isLoopbackOrWildcard(host: string): boolean {
  return /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|\[::\])$/i.test(host);
}
