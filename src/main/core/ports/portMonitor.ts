/**
 * What one entry's current run tells about its ports: URL sightings from its output lines and the
 * TCP ports its process tree listens on (scanned while the run lives). Sightings of an earlier
 * run are dropped when a new run begins.
 */
import { DisposableBase, Emitter, type Event } from '../base';
import type { PortInfo, UrlSighting } from '../../../shared/ports';
import { listListeningPorts, type ListPortsOptions } from './listeningPorts';
import type { OutputLine } from './outputLines';
import { ProbeLoop } from './probeLoop';
import { sightingsAt } from './urlSightings';

/** Scan cadence once a server is up: ports change rarely, and lsof on macOS is not free. */
export const STEADY_SCAN_INTERVAL_MS = 2_000;
/** A sighting list longer than this is a log of requests, not of places to reach the server. */
export const MAX_SIGHTINGS = 20;

interface PortMonitorOptions {
  scanIntervalMs?: number;
  /** Replaceable for tests; the real /proc or lsof scan by default. */
  listPorts?: (rootPid: number, options: ListPortsOptions) => Promise<number[]>;
  now?: () => number;
}

export class PortMonitor extends DisposableBase {
  private sightings: UrlSighting[] = [];
  private listening: number[] = [];
  private rootPid: number | undefined;
  private readonly now: () => number;
  private readonly scanner: ProbeLoop<number[]>;
  private scanIntervalMs: number;

  private readonly changedEmitter = this.register(new Emitter<PortInfo>());
  readonly onDidChange: Event<PortInfo> = this.changedEmitter.event;
  private readonly scannedEmitter = this.register(new Emitter<readonly number[]>());
  /** A scan of the tree finished (changed or not): "nothing listens" is an answer too. */
  readonly onDidScan: Event<readonly number[]> = this.scannedEmitter.event;

  constructor(options: PortMonitorOptions = {}) {
    super();
    this.now = options.now ?? Date.now;
    const listPorts = options.listPorts ?? listListeningPorts;
    this.scanIntervalMs = options.scanIntervalMs ?? STEADY_SCAN_INTERVAL_MS;
    this.scanner = this.register(
      new ProbeLoop<number[]>({
        intervalMs: this.scanIntervalMs,
        // Tables read by another entry's scan within half an interval are as fresh as this beat needs.
        probe: async () => (this.rootPid === undefined ? [] : listPorts(this.rootPid, { maxAgeMs: this.scanIntervalMs / 2 })),
      }),
    );
    this.register(
      this.scanner.onDidProbe((ports) => {
        this.updateListening(ports);
        this.scannedEmitter.fire(this.listening);
      }),
    );
    // A failing scan (permissions, lsof missing) leaves the last list; the sightings still work.
    this.register(this.scanner.onDidFail(() => undefined));
  }

  get info(): PortInfo {
    return { sightings: this.sightings.map((s) => ({ ...s })), listening: [...this.listening] };
  }

  get listeningPorts(): readonly number[] {
    return this.listening;
  }

  /** A new run: forget the previous run's sightings and ports, scan the new tree. */
  beginRun(rootPid: number | undefined): void {
    this.scanner.stop();
    this.rootPid = rootPid;
    const hadAny = this.sightings.length > 0 || this.listening.length > 0;
    this.sightings = [];
    this.listening = [];
    if (rootPid !== undefined) this.scanner.start();
    if (hadAny) this.fireChanged();
  }

  /** The run exited: nothing listens any more. Sightings stay visible until the next run. */
  endRun(): void {
    this.scanner.stop();
    this.rootPid = undefined;
    this.updateListening([]);
  }

  setScanInterval(intervalMs: number): void {
    this.scanIntervalMs = intervalMs;
    this.scanner.setInterval(intervalMs);
  }

  scanNow(): void {
    this.scanner.probeNow();
  }

  /** Sightings in this line that are new for the run (already recorded when this returns). */
  recordLine(line: OutputLine): UrlSighting[] {
    if (line.isPartial) return []; // "http://localhost:51" may be half of ":5173"
    const fresh = sightingsAt(line.text, line.offset, this.now()).filter((s) => !this.sightings.some((known) => known.url === s.url));
    if (fresh.length === 0 || this.sightings.length >= MAX_SIGHTINGS) return [];
    this.sightings.push(...fresh.slice(0, MAX_SIGHTINGS - this.sightings.length));
    this.fireChanged();
    return fresh;
  }

  private updateListening(ports: number[]): void {
    if (ports.length === this.listening.length && ports.every((p, i) => p === this.listening[i])) return;
    this.listening = ports;
    this.fireChanged();
  }

  private fireChanged(): void {
    this.changedEmitter.fire(this.info);
  }
}
