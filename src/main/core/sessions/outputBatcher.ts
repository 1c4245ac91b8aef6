/**
 * Merges output chunks for viewers (VS Code's TerminalDataBufferer): one event per
 * BATCH_MS instead of one per PTY read. Flushed before resize and exit so a viewer never
 * sees bytes in the wrong geometry or misses the last line.
 */
import { Emitter, type Event } from '../base/lifecycle';

/** Within the 5–16 ms window: below a frame, above the typical PTY read interval under load. */
export const BATCH_MS = 8;
/** Flush early past this size so one flood cannot build huge IPC messages. */
export const MAX_BATCH_CHARS = 32 * 1024;

export interface OutputBatch {
  data: string;
  /** Byte offsets covered by this batch in the entry's ring. */
  start: number;
  end: number;
}

export class OutputBatcher {
  private parts: string[] = [];
  private chars = 0;
  private start = -1;
  private end = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly flushed = new Emitter<OutputBatch>();
  readonly onDidFlush: Event<OutputBatch> = this.flushed.event;

  push(text: string, start: number, end: number): void {
    if (this.start < 0) this.start = start;
    this.end = end;
    if (text.length > 0) this.parts.push(text);
    this.chars += text.length;
    if (this.chars >= MAX_BATCH_CHARS) this.flush();
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), BATCH_MS);
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.start < 0) return;
    const batch: OutputBatch = { data: this.parts.join(''), start: this.start, end: this.end };
    this.parts = [];
    this.chars = 0;
    this.start = -1;
    this.flushed.fire(batch);
  }

  dispose(): void {
    this.flush();
    this.flushed.dispose();
  }
}
