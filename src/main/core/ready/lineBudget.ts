/**
 * How many output lines the readiness tracker may classify per second. A flood (a verbose build,
 * a server logging every request at full speed) must not cost a core, yet the ready line that ends
 * it, or an error after ready, must still be seen: over budget only the newest lines are sampled.
 */

/** In a flood of output only the newest lines of a chunk are classified (their meaning is current). */
export const MAX_CLASSIFIED_LINES_PER_CHUNK = 200;
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
/** Over budget, the newest lines of a chunk are still classified, this often (their meaning is current). */
const OVER_BUDGET_SAMPLE_INTERVAL_MS = 50;
export const OVER_BUDGET_SAMPLE_LINES = 20;
/** A flood ends after a second with less output than this (a busy but readable log). */
const FLOOD_END_BYTES_PER_SECOND = 64 * 1024;
const BUDGET_WINDOW_MS = 1_000;

export class LineBudget {
  private windowStart = 0;
  private linesInWindow = 0;
  private bytesInWindow = 0;
  private lastSampleAt = 0;
  private flooding = false;

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
    const remaining = limit - this.linesInWindow;
    if (remaining <= 0) this.flooding = true;
    return remaining;
  }

  countClassified(lines: number): void {
    this.linesInWindow += lines;
  }

  /** While over budget, the newest lines are looked at every OVER_BUDGET_SAMPLE_INTERVAL_MS. */
  takeSample(now: number): boolean {
    if (now - this.lastSampleAt < OVER_BUDGET_SAMPLE_INTERVAL_MS) return false;
    this.lastSampleAt = now;
    return true;
  }
}
