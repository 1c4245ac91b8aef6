/**
 * A save asked for many times a turn (every read that added tokens) written at most once per
 * window: the history's durable save (write, fsync, rename) was most of what reading usage cost a
 * turn. What is pending is written at once on `flush` (the capability's shutdown, the process's
 * exit). A crash loses at most the window's gains, and only those the CLI's session files no
 * longer hold: a file read again after a restart adds what the history had not counted.
 */
export const SAVE_WINDOW_MS = 10_000;

export class CoalescedSave {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly save: () => void,
    private readonly windowMs = SAVE_WINDOW_MS,
  ) {}

  /** A save within the window (the first request starts it). */
  request(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.windowMs);
    this.timer.unref(); // a pending save never keeps the process alive: exit flushes it
  }

  /** Writes what is pending now; nothing when nothing is. */
  flush(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.save();
  }

  get pending(): boolean {
    return this.timer !== undefined;
  }
}
