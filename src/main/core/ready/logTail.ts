/**
 * The last lines of a run, attached to errors and one-shot results. During a flood the newest raw
 * bytes are kept (copied into one buffer: output chunks are valid only while they are delivered)
 * and split into lines only when someone asks (no decoding per chunk).
 */
import { OutputLineReader } from '../ports';

/** Lines kept for `logs` on failure: enough for a stack trace's head, small enough to read. */
const LOG_TAIL_LINES = 40;
/** Raw flood output kept for the log tail: LOG_TAIL_LINES lines of up to ~1.6 KB each. */
const FLOOD_TEXT_KEEP_BYTES = 64 * 1024;

export class LogTail {
  private lines: string[] = [];
  /** The newest flood bytes: the last FLOOD_TEXT_KEEP_BYTES of `floodBytes[0, floodUsed)`. */
  private floodBytes: Buffer | undefined;
  private floodUsed = 0;
  /** A partial line the program stopped in the middle of (a prompt, a progress bar). */
  private stalledLine: string | undefined;

  reset(): void {
    this.lines = [];
    this.floodUsed = 0;
    this.stalledLine = undefined;
  }

  remember(text: string): void {
    if (text.trim().length === 0) return;
    this.lines.push(text);
    // Trim in batches: a flood remembers every line, and a splice per line would be O(n²)-ish.
    if (this.lines.length > 2 * LOG_TAIL_LINES) this.lines = this.lines.slice(-LOG_TAIL_LINES);
  }

  setStalledLine(text: string | undefined): void {
    this.stalledLine = text;
  }

  /** A flood's chunk: its bytes join the newest ones kept (copied; twice the kept size, so a copy-down is rare). */
  keepFloodBytes(data: Uint8Array): void {
    const buffer = (this.floodBytes ??= Buffer.allocUnsafe(2 * FLOOD_TEXT_KEEP_BYTES));
    if (data.length >= FLOOD_TEXT_KEEP_BYTES) {
      buffer.set(data.subarray(data.length - FLOOD_TEXT_KEEP_BYTES));
      this.floodUsed = FLOOD_TEXT_KEEP_BYTES;
      return;
    }
    if (this.floodUsed + data.length > buffer.length) {
      const keep = FLOOD_TEXT_KEEP_BYTES - data.length;
      buffer.copyWithin(0, this.floodUsed - keep, this.floodUsed);
      this.floodUsed = keep;
    }
    buffer.set(data, this.floodUsed);
    this.floodUsed += data.length;
  }

  /** Turns the kept flood bytes into lines (when the flood ends or the tail is read). */
  settleFloodText(): void {
    if (!this.floodBytes || this.floodUsed === 0) return;
    const kept = this.floodBytes.subarray(Math.max(0, this.floodUsed - FLOOD_TEXT_KEEP_BYTES), this.floodUsed);
    this.floodUsed = 0;
    const reader = new OutputLineReader();
    const lines = reader.pushTail({ text: kept.toString('utf8'), start: 0 }, LOG_TAIL_LINES);
    reader.dispose();
    for (const line of lines) this.remember(line.text);
  }

  snapshot(): string[] {
    this.settleFloodText();
    const tail = this.lines.slice(-LOG_TAIL_LINES);
    return this.stalledLine ? [...tail, this.stalledLine] : tail;
  }
}
