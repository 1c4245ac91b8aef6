/**
 * The ports around a tracker under test, decided by the test: what the entry listens on, what
 * other processes hold, which ports accept TCP but never answer HTTP, and the HTTP status a port
 * answers with. Its `probes` are the tracker's probe seams answering from that state.
 */
import { realClock, type Clock } from '../../base';
import type { HttpProbeResult } from '../../ports';
import { LivenessScheduler } from '../livenessProbes';

export class FakeNetwork {
  /** The entry's own listening ports (its process tree's, as the port scan reports them). */
  readonly listening = new Set<number>();
  /** Ports other processes hold: they accept connections but are not the entry's. */
  readonly foreign = new Set<number>();
  /** Ports that accept TCP but never answer HTTP (bound, then stuck or dying). */
  readonly mute = new Set<number>();
  /** The HTTP status a port answers with; `defaultStatus` when not set (null: it does not answer). */
  readonly statuses = new Map<number, number>();

  constructor(private readonly defaultStatus: number | null = 200) {}

  accepts(port: number): boolean {
    return this.listening.has(port) || this.foreign.has(port);
  }

  answerHttp(url: string): HttpProbeResult {
    const port = Number(new URL(url).port);
    if (!this.accepts(port)) return { isOk: false, error: 'ECONNREFUSED' };
    if (this.mute.has(port)) return { isOk: false, error: 'timeout' };
    const status = this.statuses.get(port) ?? this.defaultStatus;
    if (status === null) return { isOk: false, error: 'timeout' };
    return status < 500 ? { isOk: true, status } : { isOk: false, status, error: `HTTP ${status}` };
  }

  private readonly probeTcp = async ({ port }: { port: number }) => this.accepts(port);
  private readonly probeHttp = async ({ url }: { url: string }) => this.answerHttp(url);
  /** Liveness probes of a ready server ask this network too, never the machine's real ports. */
  readonly liveness = new LivenessScheduler({ probeTcp: this.probeTcp, probeHttp: this.probeHttp, acceptQueueLength: async () => 0 });

  /** The tracker options that probe this network. */
  get probes() {
    return {
      probeTcp: this.probeTcp,
      probeHttp: this.probeHttp,
      listPorts: async () => [...this.listening].sort((a, b) => a - b),
      canTellPortOwner: true,
      liveness: this.liveness,
    };
  }
}

/** A clock whose time the test decides; its timers are the global ones (vitest's fake timers where faked). */
export function clockAt(now: () => number): Clock {
  return { now, setTimer: (fn, delayMs, options) => realClock.setTimer(fn, delayMs, options) };
}
