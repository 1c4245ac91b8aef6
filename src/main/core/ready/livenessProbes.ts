/**
 * Liveness after ready: every ready server's port (or `url`) is probed periodically, and after
 * `failureThreshold` failures in a row its entry turns `unhealthy`; one passing probe makes it
 * ready again. One timer serves every watched entry (armed for the earliest due probe), so twenty
 * ready servers cost one wake-up per period, not twenty intervals.
 *
 * A stopped process (SIGSTOP, a breakpoint) still completes TCP handshakes from the kernel's
 * backlog, so a server is probed with an HTTP request (any status counts: it answered). Whether
 * it speaks HTTP is learnt from its answers: an HTTP answer → HTTP from then on; an error or a
 * close (another protocol) with a TCP accept → TCP connects; silence is a failure either way.
 */
import { toDisposable, type Disposable } from '../base';
import {
  probeHttp as realProbeHttp,
  probeTcp as realProbeTcp,
  type HttpProbeOptions,
  type HttpProbeResult,
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
}

interface LivenessProbeSeams {
  probeHttp?: (options: HttpProbeOptions) => Promise<HttpProbeResult>;
  probeTcp?: (options: TcpProbeOptions) => Promise<boolean>;
  now?: () => number;
}

type Protocol = 'unknown' | 'http' | 'tcp';

interface WatchState {
  watch: LivenessWatch;
  dueAt: number;
  failures: number;
  isAlive: boolean;
  isProbing: boolean;
  protocol: Protocol;
  /** The loopback URL that answered last: asked alone next time (half the connections). */
  answeringUrl?: string;
}

interface ProbeOutcome {
  isAlive: boolean;
  reason: string;
  protocol: Protocol;
  /** The URL whose HTTP answer made it alive. */
  answeringUrl?: string;
}

export class LivenessScheduler {
  private readonly watches = new Set<WatchState>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;
  private readonly now: () => number;
  private readonly probeHttp: (options: HttpProbeOptions) => Promise<HttpProbeResult>;
  private readonly probeTcp: (options: TcpProbeOptions) => Promise<boolean>;

  constructor(seams: LivenessProbeSeams = {}) {
    this.now = seams.now ?? Date.now;
    this.probeHttp = seams.probeHttp ?? realProbeHttp;
    this.probeTcp = seams.probeTcp ?? realProbeTcp;
  }

  get size(): number {
    return this.watches.size;
  }

  /** Probes at once (learning the protocol), then every period until disposed. */
  watch(watch: LivenessWatch): Disposable {
    const state: WatchState = {
      watch,
      dueAt: this.now(),
      failures: 0,
      isAlive: true,
      isProbing: false,
      protocol: watch.httpUrl ? 'http' : 'unknown',
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
    this.timer = setTimeout(() => this.tick(), Math.max(0, earliest - this.now()));
    this.timer.unref?.();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
  }

  private tick(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = this.now();
    for (const state of this.watches) if (!state.isProbing && state.dueAt <= now) void this.probe(state);
    this.arm();
  }

  private async probe(state: WatchState): Promise<void> {
    state.isProbing = true;
    const startedAt = this.now();
    const probes = { probeHttp: this.probeHttp, probeTcp: this.probeTcp };
    const outcome = await probeOnce(state.watch, state.protocol, probes, state.answeringUrl);
    state.isProbing = false;
    if (!this.watches.has(state)) return;
    state.protocol = outcome.protocol;
    state.answeringUrl = outcome.answeringUrl;
    state.dueAt = startedAt + state.watch.settings.periodMs;
    this.record(state, outcome);
    this.arm();
  }

  private record(state: WatchState, outcome: ProbeOutcome): void {
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

type Probes = {
  probeHttp: (options: HttpProbeOptions) => Promise<HttpProbeResult>;
  probeTcp: (options: TcpProbeOptions) => Promise<boolean>;
};

/**
 * One probe of a watched server with what is known of its protocol. `answeringUrl` (the loopback
 * that answered last) is asked alone first; only when it does not answer are both asked.
 */
export async function probeOnce(
  watch: Pick<LivenessWatch, 'port' | 'httpUrl' | 'settings'>,
  protocol: Protocol,
  probes: Probes,
  answeringUrl?: string,
): Promise<ProbeOutcome> {
  const timeoutMs = watch.settings.timeoutMs;
  if (protocol !== 'tcp') {
    const askHttp = async (urls: string[]) =>
      Promise.all(urls.map((url) => probes.probeHttp({ url, timeoutMs }).then((answer) => ({ url, answer }))));
    // Any status is an answer: a 404 or a 500 comes from a live server.
    const answeredIn = (answers: Awaited<ReturnType<typeof askHttp>>): ProbeOutcome | undefined => {
      const answered = answers.find(({ answer }) => answer.status !== undefined);
      if (!answered) return undefined;
      const reason = `${answered.url} answered HTTP ${answered.answer.status}`;
      return { isAlive: true, reason, protocol: 'http', answeringUrl: answered.url };
    };
    if (answeringUrl && !watch.httpUrl) {
      const first = await askHttp([answeringUrl]);
      const known = answeredIn(first);
      if (known) return known;
      // Silence from the address that answered before is the stuck server itself: asking the
      // other loopback too would only double the wait.
      if (first[0].answer.error === 'timeout') return { isAlive: false, reason: `${answeringUrl} did not answer (timeout)`, protocol };
    }
    // Servers bind 127.0.0.1, ::1 or both: ask both loopbacks at once, either answer counts.
    const urls = watch.httpUrl ? [watch.httpUrl] : [`http://127.0.0.1:${watch.port}/`, `http://[::1]:${watch.port}/`];
    const answers = await askHttp(urls);
    const answered = answeredIn(answers);
    if (answered) return answered;
    // Other protocols answer an HTTP request with an error or a close (Postgres, Redis, MySQL,
    // HTTP/2): only silence means the server is stuck, whatever it speaks.
    const isSilent = answers.some(({ answer }) => answer.error === 'timeout');
    if (protocol === 'http' || isSilent) {
      const why = answers.map(({ answer }) => answer.error ?? 'no response');
      const shown = watch.httpUrl ?? `http://localhost:${watch.port}/`;
      return { isAlive: false, reason: `${shown} did not answer (${[...new Set(why)].join(', ')})`, protocol };
    }
  }
  const isOpen = await probes.probeTcp({ port: watch.port, timeoutMs });
  if (isOpen) return { isAlive: true, reason: `port ${watch.port} accepts connections`, protocol: 'tcp' };
  return { isAlive: false, reason: `port ${watch.port} refuses connections`, protocol };
}

/** The scheduler every tracker shares unless a test passes its own. */
export const sharedLivenessScheduler = new LivenessScheduler();
