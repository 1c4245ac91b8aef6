/**
 * `autoRestart` (SPEC §2): restart a command entry after it exits on its own — always, or only on
 * failure — with exponential backoff and a cap on restarts per minute, after which it stays in
 * error and says why. A requested stop never triggers it.
 */
import { Emitter, toDisposable, DisposableStore } from '../base/lifecycle';
import type { ProcessEntry } from '../sessions';
import type { RunExited } from '../sessions/types';
import type { ProcessInfo } from '../../../shared/model';
import type { EntryDecoration, EntryDecorator } from './entryDecoration';

/** First backoff; doubles per consecutive restart (a crash loop should not spin the CPU). */
export const RESTART_BACKOFF_BASE_MS = 1_000;
export const RESTART_BACKOFF_MAX_MS = 30_000;
/** Restarts allowed within RESTART_WINDOW_MS before giving up (pm2-like crash-loop guard). */
export const MAX_RESTARTS_PER_WINDOW = 5;
export const RESTART_WINDOW_MS = 60_000;
/** A run that lasted this long resets the backoff: it was healthy for a while. */
export const HEALTHY_RUN_MS = 30_000;

export class AutoRestart implements EntryDecoration {
  private readonly store = new DisposableStore();
  private readonly changed = this.store.add(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  private restarts: number[] = [];
  private consecutive = 0;
  private timer: NodeJS.Timeout | undefined;
  private gaveUp: string | undefined;

  constructor(
    private readonly entry: ProcessEntry,
    private readonly policy: 'on-failure' | 'always',
    private readonly now: () => number = Date.now,
  ) {
    this.store.add(entry.onRunExited((exit) => this.onExit(exit)));
    this.store.add(entry.onRunStarted(() => this.onStarted()));
    this.store.add(toDisposable(() => clearTimeout(this.timer)));
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
    if (this.policy === 'on-failure' && !failed) return;
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
      this.entry
        .start()
        .catch(() => undefined) // the entry shows the spawn error itself
        .finally(() => (this.timer = undefined));
    }, delay);
  }
}

export const autoRestartDecorator: EntryDecorator = (entry) => {
  const policy = entry.definition.ready?.autoRestart;
  if (entry.kind !== 'command' || !policy || policy === 'no') return undefined;
  return new AutoRestart(entry, policy);
};
