/**
 * Liveness after ready: every ready server's port (or `url`) is probed periodically, and after
 * `failureThreshold` failures in a row its entry turns `unhealthy`; one passing probe makes it
 * ready again. One timer serves every watched entry (armed for the earliest due probe), so twenty
 * ready servers cost one wake-up per period, not twenty intervals.
 *
 * A stopped process (SIGSTOP, a breakpoint, a stuck event loop) still completes TCP handshakes
 * from the kernel's backlog, so a connect alone proves nothing. Instead of asking the server
 * something (a request runs the app's code and shows up in its request log every period), a
 * probe connects, gives the server `timeoutMs` to accept, and reads the listener's accept queue:
 * connections still waiting there mean the process accepts nothing. A `url` is asked with HTTP,
 * as the user chose that endpoint; any status is an answer.
 */
import { realClock, toDisposable, type Clock, type Disposable } from '../base';
import {
  acceptQueueLength as realAcceptQueueLength,
  probeHttp as realProbeHttp,
  probeTcp as realProbeTcp,
  type HttpProbeOptions,
  type HttpProbeResult,
  type ListPortsOptions,
  type TcpProbeOptions,
} from '../ports';

/** process-compose's liveness defaults: a probe every 10 s, unhealthy after 3 failures, 1 s each. */
export const DEFAULT_LIVENESS_PERIOD_MS = 10_000;
export const DEFAULT_LIVENESS_FAILURE_THRESHOLD = 3;
export const DEFAULT_LIVENESS_TIMEOUT_MS = 1_000;

export interface LivenessSettings {
  periodMs: number;
  failureThreshold: number;
  timeoutMs: number;
}

interface LivenessWatch {
  port: number;
  /** The `url` field: always probed with HTTP. */
  httpUrl?: string;
  settings: LivenessSettings;
  /** Called when the verdict changes: dead after the threshold, alive on the first pass after. */
  onVerdict(isAlive: boolean, reason: string): void;
  /** Called after every probe, before any verdict (one failure is already a doubt). */
  onProbe?(isAlive: boolean): void;
}

interface Probes {
  probeHttp: (options: HttpProbeOptions) => Promise<HttpProbeResult>;
  probeTcp: (options: TcpProbeOptions) => Promise<boolean>;
  acceptQueueLength: (port: number, options: ListPortsOptions) => Promise<number | undefined>;
}

interface LivenessProbeSeams extends Partial<Probes> {
  clock?: Clock;
}

interface WatchState {
  watch: LivenessWatch;
  dueAt: number;
  failures: number;
  isAlive: boolean;
  isProbing: boolean;
}

interface ProbeOutcome {
  isAlive: boolean;
  reason: string;
}

export class LivenessScheduler {
  private readonly watches = new Set<WatchState>();
  private timer: Disposable | undefined;
  private armedFor = Infinity;
  private readonly clock: Clock;
  private readonly probes: Probes;

  constructor(seams: LivenessProbeSeams = {}) {
    this.clock = seams.clock ?? realClock;
    this.probes = {
      probeHttp: seams.probeHttp ?? realProbeHttp,
      probeTcp: seams.probeTcp ?? realProbeTcp,
      acceptQueueLength: seams.acceptQueueLength ?? realAcceptQueueLength,
    };
  }

  get size(): number {
    return this.watches.size;
  }

  /** Probes at once, then every period until disposed. */
  watch(watch: LivenessWatch): Disposable {
    const state: WatchState = {
      watch,
      dueAt: this.clock.now(),
      failures: 0,
      isAlive: true,
      isProbing: false,
    };
    this.watches.add(state);
    this.arm();
    return toDisposable(() => {
      this.watches.delete(state);
      if (this.watches.size === 0) this.disarm();
    });
  }

  private arm(): void {
    let earliest = Infinity;
    for (const state of this.watches) if (!state.isProbing && state.dueAt < earliest) earliest = state.dueAt;
    if (earliest === Infinity) return this.disarm();
    if (this.timer && earliest >= this.armedFor) return;
    this.disarm();
    this.armedFor = earliest;
    // In the background: probes of the servers that are left never keep the app from quitting.
    this.timer = this.clock.setTimer(() => this.tick(), earliest - this.clock.now(), { background: true });
  }

  private disarm(): void {
    this.timer?.dispose();
    this.timer = undefined;
    this.armedFor = Infinity;
  }

  private tick(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = this.clock.now();
    for (const state of this.watches) if (!state.isProbing && state.dueAt <= now) void this.probe(state);
    this.arm();
  }

  private async probe(state: WatchState): Promise<void> {
    state.isProbing = true;
    const startedAt = this.clock.now();
    const outcome = await probeOnce(state.watch, this.probes, this.clock);
    state.isProbing = false;
    if (!this.watches.has(state)) return;
    state.dueAt = startedAt + state.watch.settings.periodMs;
    this.record(state, outcome);
    this.arm();
  }

  private record(state: WatchState, outcome: ProbeOutcome): void {
    state.watch.onProbe?.(outcome.isAlive);
    if (outcome.isAlive) {
      state.failures = 0;
      if (!state.isAlive) {
        state.isAlive = true;
        state.watch.onVerdict(true, outcome.reason);
      }
      return;
    }
    state.failures += 1;
    if (state.isAlive && state.failures >= state.watch.settings.failureThreshold) {
      state.isAlive = false;
      const times = state.failures === 1 ? '1 probe' : `${state.failures} probes in a row`;
      state.watch.onVerdict(false, `${outcome.reason} (${times})`);
    }
  }
}

/** One probe of a watched server: HTTP for a `url`, else a connect and the listener's accept queue. */
export async function probeOnce(
  watch: Pick<LivenessWatch, 'port' | 'httpUrl' | 'settings'>,
  probes: Probes,
  clock: Clock = realClock,
): Promise<ProbeOutcome> {
  const timeoutMs = watch.settings.timeoutMs;
  if (watch.httpUrl) {
    const answer = await probes.probeHttp({ url: watch.httpUrl, timeoutMs });
    // Any status is an answer: a 404 or a 500 comes from a live server.
    if (answer.status !== undefined) return { isAlive: true, reason: `${watch.httpUrl} answered HTTP ${answer.status}` };
    return { isAlive: false, reason: `${watch.httpUrl} did not answer (${answer.error ?? 'no response'})` };
  }
  const port = watch.port;
  if (!(await probes.probeTcp({ port, timeoutMs }))) return { isAlive: false, reason: `port ${port} refuses connections` };
  await delay(clock, timeoutMs);
  // One read of the tables serves every server probed in the same round.
  const waiting = await probes.acceptQueueLength(port, { maxAgeMs: timeoutMs / 4 });
  if (waiting) {
    const connections = waiting === 1 ? '1 connection' : `${waiting} connections`;
    return { isAlive: false, reason: `port ${port} did not answer (${connections} not accepted within ${timeoutMs} ms)` };
  }
  return { isAlive: true, reason: `port ${port} accepts connections` };
}

function delay(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimer(resolve, ms, { background: true }));
}

/** The scheduler every tracker shares unless a test passes its own. */
export const sharedLivenessScheduler = new LivenessScheduler();
