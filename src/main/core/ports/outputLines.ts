/**
 * Splits a run's output chunks into plain-text lines for detectors (ready patterns, URL
 * sightings). Event-driven: lines come out of `push`, and a prompt left without a line break
 * ("Would you like to run the app on another port instead? › (Y/n)") is reported once the
 * output has been quiet for a moment, so nothing has to poll the output.
 */
import { DisposableBase, Emitter, stripAnsi, toDisposable, type Event } from '../base';

/**
 * How long an unterminated line must sit unchanged before detectors see it. Long enough that a
 * line written in two chunks is not split in the common case (PTY reads arrive < 10 ms apart),
 * short enough that a prompt waiting for input is noticed at once by a person's standards.
 */
export const PARTIAL_LINE_IDLE_MS = 150;
/** A "line" longer than this (minified bundles, progress bars without breaks) is cut here. */
export const MAX_LINE_CHARS = 4_096;

/** One line break: CRLF, a lone CR (progress redraws) or LF. */
const LINE_BREAK = /\r\n|\r|\n/g;

export interface OutputLine {
  /** The line without escape sequences or the line break. */
  text: string;
  /** Byte offset in the entry's ring where the line starts (approximate across split UTF-8). */
  offset: number;
  /** True when reported because output stalled mid-line; the full line follows later. */
  isPartial: boolean;
}

interface OutputChunkText {
  text: string;
  start: number;
  /** Byte offset one past the chunk (lets `pushTail` place its lines without measuring the head). */
  end?: number;
}

export class OutputLineReader extends DisposableBase {
  private pending = '';
  private pendingOffset = 0;
  /** A chunk ended in "\r": hold it to see whether "\n" follows (one break, not two). */
  private isPendingCarriageReturn = false;
  private idleTimer: NodeJS.Timeout | undefined;

  private readonly stalledEmitter = this.register(new Emitter<OutputLine>());
  /** The output stopped in the middle of a line for PARTIAL_LINE_IDLE_MS. */
  readonly onDidStallOnPartialLine: Event<OutputLine> = this.stalledEmitter.event;

  constructor(private readonly idleMs = PARTIAL_LINE_IDLE_MS) {
    super();
    this.register(toDisposable(() => this.clearIdleTimer()));
  }

  /** Completed lines of this chunk, in order. */
  push(chunk: OutputChunkText): OutputLine[] {
    if (this.isDisposed) return [];
    this.clearIdleTimer();
    const lines: OutputLine[] = [];
    const text = chunk.text;
    let lineStartIndex = 0;
    let offset = chunk.start;
    if (this.pending.length === 0 && !this.isPendingCarriageReturn) this.pendingOffset = offset;

    if (this.isPendingCarriageReturn) {
      this.isPendingCarriageReturn = false;
      if (text.charCodeAt(0) === 0x0a) {
        lineStartIndex = 1;
        offset += 1;
        this.pendingOffset = offset;
      }
    }
    // Native scanning for breaks: this runs on every byte of every entry's output.
    LINE_BREAK.lastIndex = lineStartIndex;
    for (let match = LINE_BREAK.exec(text); match !== null; match = LINE_BREAK.exec(text)) {
      const segment = text.slice(lineStartIndex, match.index);
      this.pending += segment;
      if (match[0] === '\r' && match.index === text.length - 1) this.isPendingCarriageReturn = true;
      lines.push(this.takePending(false));
      offset += Buffer.byteLength(segment) + match[0].length;
      this.pendingOffset = offset;
      lineStartIndex = match.index + match[0].length;
    }
    this.pending += text.slice(lineStartIndex);
    if (this.pending.length > MAX_LINE_CHARS) lines.push(this.takePending(false));
    if (this.pending.length > 0) this.armIdleTimer();
    return lines;
  }

  /**
   * Like `push`, but reads only the chunk's last `maxLines` lines; everything before them, and the
   * line pending from earlier chunks, is skipped unread. For floods, where only the newest lines
   * matter (logs, samples) and splitting every line would cost more than the PTY read itself.
   */
  pushTail(chunk: OutputChunkText, maxLines: number): OutputLine[] {
    const text = chunk.text;
    let breakAt = text.length;
    for (let n = 0; n <= maxLines; n++) {
      breakAt = Math.max(text.lastIndexOf('\n', breakAt - 1), text.lastIndexOf('\r', breakAt - 1));
      if (breakAt < 0) return this.push(chunk); // fewer lines than asked: read them all
    }
    const tail = text.slice(breakAt + 1);
    const start =
      chunk.end !== undefined ? chunk.end - Buffer.byteLength(tail) : chunk.start + Buffer.byteLength(text.slice(0, breakAt + 1));
    this.reset();
    return this.push({ text: tail, start });
  }

  /** Completes the pending line (the run exited: no line break will come). */
  flush(): OutputLine[] {
    this.clearIdleTimer();
    this.isPendingCarriageReturn = false;
    return this.pending.length > 0 ? [this.takePending(false)] : [];
  }

  /** Drops everything pending (a new run starts: its output must not join the old one's). */
  reset(): void {
    this.clearIdleTimer();
    this.pending = '';
    this.isPendingCarriageReturn = false;
  }

  private takePending(isPartial: boolean): OutputLine {
    const line = { text: stripAnsi(this.pending), offset: this.pendingOffset, isPartial };
    if (!isPartial) this.pending = '';
    return line;
  }

  private armIdleTimer(): void {
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.isDisposed || this.pending.length === 0) return;
      const line = this.takePending(true);
      if (line.text.trim().length > 0) this.stalledEmitter.fire(line);
    }, this.idleMs);
    this.idleTimer.unref?.();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
