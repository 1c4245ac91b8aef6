/**
 * `autoRestart`: restart a command entry after it exits on its own — always, or only on failure —
 * or, with "unhealthy", also when its liveness probes fail after ready; with exponential backoff
 * and a cap on restarts per minute, after which it stays in error and says why. A requested stop
 * never triggers it.
 */
import { Emitter, toDisposable, DisposableStore, serviceKey } from '../base';
import type { ProcessEntry } from '../sessions';
import type { RunExited } from '../sessions';
import type { ProcessInfo } from '../../../shared/model';
import type { Event } from '../base';
import type { DecorationKey, EntryDecoration, EntryDecorator } from '../sessions';
import { READINESS, type ReadinessDecoration } from '../ready';

/** First backoff; doubles per consecutive restart (a crash loop should not spin the CPU). */
const RESTART_BACKOFF_BASE_MS = 1_000;
const RESTART_BACKOFF_MAX_MS = 30_000;
/** Restarts allowed within RESTART_WINDOW_MS before giving up (pm2-like crash-loop guard). */
const MAX_RESTARTS_PER_WINDOW = 5;
const RESTART_WINDOW_MS = 60_000;
/** A run that lasted this long resets the backoff: it was healthy for a while. */
const HEALTHY_RUN_MS = 30_000;

class AutoRestart implements EntryDecoration {
  private readonly store = new DisposableStore();
  private readonly changed = this.store.add(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  private restarts: number[] = [];
  private consecutive = 0;
  private timer: NodeJS.Timeout | undefined;
  private gaveUp: string | undefined;

  constructor(
    private readonly entry: ProcessEntry,
    private readonly policy: 'on-failure' | 'always' | 'unhealthy',
    private readonly now: () => number = Date.now,
    onUnhealthy?: Event<void>,
  ) {
    this.store.add(entry.onDidExitRun((exit) => this.onExit(exit)));
    this.store.add(entry.onDidStartRun(() => this.onStarted()));
    this.store.add(toDisposable(() => clearTimeout(this.timer)));
    if (onUnhealthy) this.store.add(onUnhealthy(() => this.onUnhealthy()));
  }

  describe(): Partial<ProcessInfo> {
    return this.gaveUp ? { state: 'error', message: this.gaveUp } : {};
  }

  dispose(): void {
    this.store.dispose();
  }

  private onStarted(): void {
    if (this.timer) return; // our own restart
    // A start by a person or an agent: the crash-loop count starts again.
    this.gaveUp = undefined;
  }

  private onExit(exit: RunExited): void {
    if (this.entry.wasStopRequested) return;
    const failed = exit.exitCode !== 0 || exit.signal !== undefined;
    if (this.policy !== 'always' && !failed) return;
    this.scheduleRestart(() => this.entry.start());
  }

  /** Alive but not answering: the run is replaced (stop, then start), under the same crash-loop guard. */
  private onUnhealthy(): void {
    if (this.timer || !this.entry.isRunning) return;
    this.scheduleRestart(() => this.entry.restart());
  }

  private scheduleRestart(restart: () => Promise<void>): void {
    const now = this.now();
    const startedAt = this.entry.startedAt ?? now;
    if (now - startedAt >= HEALTHY_RUN_MS) this.consecutive = 0;
    this.restarts = this.restarts.filter((t) => now - t < RESTART_WINDOW_MS);
    if (this.restarts.length >= MAX_RESTARTS_PER_WINDOW) {
      this.gaveUp = `Restarted ${MAX_RESTARTS_PER_WINDOW} times within ${RESTART_WINDOW_MS / 1000} s; not restarting again (${this.entry.message})`;
      this.changed.fire();
      return;
    }
    const delay = Math.min(RESTART_BACKOFF_MAX_MS, RESTART_BACKOFF_BASE_MS * 2 ** this.consecutive);
    this.consecutive += 1;
    this.restarts.push(now);
    this.timer = setTimeout(() => {
      restart()
        .catch(() => undefined) // the entry shows the spawn error itself
        .finally(() => (this.timer = undefined));
    }, delay);
  }
}

export const AUTO_RESTART: DecorationKey<EntryDecoration> = serviceKey('auto-restart');

export const autoRestartDecorator: EntryDecorator = (entry, context) => {
  const policy = entry.definition.ready?.autoRestart;
  if (entry.kind !== 'command' || !policy || policy === 'no') return undefined;
  const readiness = context.earlier(READINESS);
  const onUnhealthy = policy === 'unhealthy' && readiness ? unhealthyEvent(readiness) : undefined;
  return new AutoRestart(entry, policy, Date.now, onUnhealthy);
};

/** Fires when the entry's readiness turns `unhealthy`. */
function unhealthyEvent(readiness: ReadinessDecoration): Event<void> {
  return (listener) => readiness.tracker.onDidChange((info) => info.phase === 'unhealthy' && listener());
}
