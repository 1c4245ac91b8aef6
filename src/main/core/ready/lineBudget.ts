/**
 * How many output lines the readiness tracker may classify per second. A flood (a verbose build,
 * a server logging every request at full speed) must not cost a core, yet the ready line that ends
 * it, or an error after ready, must still be seen: over budget only the newest lines are sampled.
 */

/**
 * In a flood of output only the newest lines of a chunk are classified (their meaning is current):
 * this many per PTY read merged into the chunk (the kernel hands a terminal's output over in reads
 * of up to PTY_READ_BYTES; a burst merged into one chunk keeps every line a read would have had).
 */
const MAX_CLASSIFIED_LINES_PER_READ = 200;
const PTY_READ_BYTES = 4 * 1024;

/** Lines of a chunk of `bytes` that may be classified (the newest ones). */
export function maxClassifiedLinesPerChunk(bytes: number): number {
  return MAX_CLASSIFIED_LINES_PER_READ * Math.max(1, Math.ceil(bytes / PTY_READ_BYTES));
}
/**
 * After ready, lines are classified (for `running`) up to this rate; the table costs ~20 µs a
 * line, so a server logging every request at full speed cannot take more than ~4% of a core.
 */
const MAX_CLASSIFIED_LINES_PER_SECOND_AFTER_READY = 2_000;
/**
 * Before ready every line counts up to this rate, well above real start-up logs (Next.js,
 * webpack verbose: a few hundred lines a second; the table costs ~20–40 µs a line). Past it the
 * start is a flood, and classifying every line would cap the entry's output at ~3 MB/s of one core.
 */
export const MAX_CLASSIFIED_LINES_PER_SECOND_BEFORE_READY = 2_000;
/**
 * Every entry of the process (every project shares one event loop) draws on this rate too: ten
 * entries flooding at once must cost what one does, not ten budgets (they took half the core's
 * time, and a keystroke's echo in a quiet pane waited behind their lines).
 */
export const MAX_CLASSIFIED_LINES_PER_SECOND_SHARED = 2_000;
/** An entry that classified fewer lines than this in the second is never held back by the others (a start-up log, a prompt). */
export const FAIR_SHARE_LINES_PER_SECOND = 100;
/** Over budget, the newest lines of a chunk are still classified, this often (their meaning is current)... */
const OVER_BUDGET_SAMPLE_INTERVAL_MS = 50;
/** ...and this often while the shared rate is spent too (many entries flooding at once). */
const SHARED_SPENT_SAMPLE_INTERVAL_MS = 250;
export const OVER_BUDGET_SAMPLE_LINES = 20;
/** A flood ends after a second with less output than this (a busy but readable log). */
const FLOOD_END_BYTES_PER_SECOND = 64 * 1024;
const BUDGET_WINDOW_MS = 1_000;

/** The classified lines of every entry of the process within the current second. */
export class SharedLineRate {
  private windowStart = -Infinity;
  private lines = 0;

  /** Lines the process may still classify this second. */
  remaining(now: number): number {
    this.roll(now);
    return MAX_CLASSIFIED_LINES_PER_SECOND_SHARED - this.lines;
  }

  count(now: number, lines: number): void {
    this.roll(now);
    this.lines += lines;
  }

  private roll(now: number): void {
    // A clock behind the window (another entry's clock in tests) starts a new one, never stalls it.
    if (now - this.windowStart < BUDGET_WINDOW_MS && now >= this.windowStart) return;
    this.windowStart = now;
    this.lines = 0;
  }
}

/** The process's one rate, shared by every readiness tracker. */
const sharedLineRate = new SharedLineRate();

export class LineBudget {
  private windowStart = 0;
  private linesInWindow = 0;
  private bytesInWindow = 0;
  private lastSampleAt = 0;
  private flooding = false;

  constructor(private readonly shared: SharedLineRate = sharedLineRate) {}

  get isFlooding(): boolean {
    return this.flooding;
  }

  /** A new run is not a flood until it floods. */
  reset(): void {
    this.flooding = false;
  }

  /**
   * Lines that may still be classified in this second. A flood (budget used up) stays a flood —
   * samples only — until a second brings less than FLOOD_END_BYTES_PER_SECOND, so a long flood
   * does not pay for a full budget every second.
   */
  remaining(now: number, bytes: number, isStarting: boolean): number {
    if (now - this.windowStart >= BUDGET_WINDOW_MS) {
      if (this.flooding && this.bytesInWindow < FLOOD_END_BYTES_PER_SECOND) this.flooding = false;
      this.windowStart = now;
      this.linesInWindow = 0;
      this.bytesInWindow = 0;
    }
    this.bytesInWindow += bytes;
    const limit = isStarting ? MAX_CLASSIFIED_LINES_PER_SECOND_BEFORE_READY : MAX_CLASSIFIED_LINES_PER_SECOND_AFTER_READY;
    const fairShareLeft = FAIR_SHARE_LINES_PER_SECOND - this.linesInWindow;
    const remaining = Math.min(limit - this.linesInWindow, Math.max(fairShareLeft, this.shared.remaining(now)));
    if (remaining <= 0) this.flooding = true;
    return remaining;
  }

  countClassified(now: number, lines: number): void {
    this.linesInWindow += lines;
    this.shared.count(now, lines);
  }

  /** While over budget, the newest lines are looked at every OVER_BUDGET_SAMPLE_INTERVAL_MS (less often while the process's rate is spent). */
  takeSample(now: number): boolean {
    const interval = this.shared.remaining(now) > 0 ? OVER_BUDGET_SAMPLE_INTERVAL_MS : SHARED_SPENT_SAMPLE_INTERVAL_MS;
    if (now - this.lastSampleAt < interval) return false;
    this.lastSampleAt = now;
    return true;
  }
}
