/**
 * Time as the status tracker, readiness, timers and tasks see it. Injected so recording replays and tests run
 * at their original timing on a virtual clock, fast but faithfully (every debounce and stuck timer
 * fires at its due time).
 */
import { toDisposable, type Disposable } from './lifecycle';

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Run `fn` once after `delayMs`; dispose to cancel. */
  /** `background`: the timer alone does not keep the process alive (background probes). */
  setTimer(fn: () => void, delayMs: number, options?: { background?: boolean }): Disposable;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, delayMs, options) {
    const handle = setTimeout(fn, Math.max(0, delayMs));
    if (options?.background) handle.unref?.();
    return toDisposable(() => clearTimeout(handle));
  },
};

interface VirtualTimer {
  due: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** A clock that only moves when told to; timers fire in due order as it advances. */
export class VirtualClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: VirtualTimer[] = [];

  constructor(startEpochMs = Date.UTC(2025, 0, 1)) {
    this.current = startEpochMs;
  }

  now(): number {
    return this.current;
  }

  setTimer(fn: () => void, delayMs: number): Disposable {
    const timer: VirtualTimer = { due: this.current + Math.max(0, delayMs), seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    return toDisposable(() => {
      timer.cancelled = true;
    });
  }

  /** Advance to `epochMs`, firing every timer due on the way at its own due time. */
  advanceTo(epochMs: number): void {
    for (;;) {
      this.timers = this.timers.filter((t) => !t.cancelled);
      let next: VirtualTimer | undefined;
      for (const t of this.timers) {
        if (t.due <= epochMs && (!next || t.due < next.due || (t.due === next.due && t.seq < next.seq))) next = t;
      }
      if (!next) break;
      next.cancelled = true;
      this.current = Math.max(this.current, next.due);
      next.fn();
    }
    this.current = Math.max(this.current, epochMs);
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.current + ms);
  }

  /** Timers still pending (for leak checks in tests). */
  get pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }
}
