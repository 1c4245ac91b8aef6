/**
 * The last lines of a run, attached to errors and one-shot results. During a flood the raw bytes
 * are kept by reference and split into lines only when someone asks (no decoding per chunk).
 */
import { OutputLineReader } from '../ports';

/** Lines kept for `logs` on failure: enough for a stack trace's head, small enough to read. */
const LOG_TAIL_LINES = 40;
/** Raw flood output kept for the log tail: LOG_TAIL_LINES lines of up to ~1.6 KB each. */
const FLOOD_TEXT_KEEP_BYTES = 64 * 1024;

export class LogTail {
  private lines: string[] = [];
  private floodBytes: Buffer[] = [];
  private floodByteCount = 0;
  /** A partial line the program stopped in the middle of (a prompt, a progress bar). */
  private stalledLine: string | undefined;

  reset(): void {
    this.lines = [];
    this.floodBytes = [];
    this.floodByteCount = 0;
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

  /** Raw bytes of a flood's newest chunks (enough for the tail), kept by reference. */
  keepFloodBytes(data: Buffer): void {
    this.floodBytes.push(data);
    this.floodByteCount += data.length;
    while (this.floodBytes.length > 1 && this.floodByteCount - this.floodBytes[0].length >= FLOOD_TEXT_KEEP_BYTES) {
      this.floodByteCount -= this.floodBytes.shift()!.length;
    }
  }

  /** Turns the kept flood bytes into lines (when the flood ends or the tail is read). */
  settleFloodText(): void {
    if (this.floodBytes.length === 0) return;
    const reader = new OutputLineReader();
    const lines = reader.pushTail({ text: Buffer.concat(this.floodBytes).toString('utf8'), start: 0 }, LOG_TAIL_LINES);
    reader.dispose();
    this.floodBytes = [];
    this.floodByteCount = 0;
    for (const line of lines) this.remember(line.text);
  }

  snapshot(): string[] {
    this.settleFloodText();
    const tail = this.lines.slice(-LOG_TAIL_LINES);
    return this.stalledLine ? [...tail, this.stalledLine] : tail;
  }
}
