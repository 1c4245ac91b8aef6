/**
 * Merges output chunks for viewers (VS Code's TerminalDataBufferer): one event per
 * BATCH_MS instead of one per PTY read. Flushed before resize and exit so a viewer never
 * sees bytes in the wrong geometry or misses the last line. Batches carry the PTY's raw bytes:
 * viewers' terminals decode UTF-8 themselves, so nothing is decoded or re-encoded on the way.
 */
import { Emitter, type Event } from '../base/lifecycle';

/** Within the 5–16 ms window: below a frame, above the typical PTY read interval under load. */
export const BATCH_MS = 8;
/**
 * Flush early past this size: keeps each message small, and below the flow-control high
 * watermark so a viewer that keeps up never pauses the PTY.
 */
export const MAX_BATCH_BYTES = 32 * 1024;

export interface OutputBatch {
  data: Buffer;
  /** Byte offsets covered by this batch in the entry's ring. */
  start: number;
  end: number;
}

export class OutputBatcher {
  private parts: Buffer[] = [];
  private bytes = 0;
  private start = -1;
  private end = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly flushed = new Emitter<OutputBatch>();
  readonly onDidFlush: Event<OutputBatch> = this.flushed.event;

  push(data: Buffer, start: number, end: number): void {
    if (this.start < 0) this.start = start;
    this.end = end;
    if (data.length > 0) this.parts.push(data);
    this.bytes += data.length;
    if (this.bytes >= MAX_BATCH_BYTES) this.flush();
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), BATCH_MS);
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.start < 0) return;
    const data = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.bytes);
    const batch: OutputBatch = { data, start: this.start, end: this.end };
    this.parts = [];
    this.bytes = 0;
    this.start = -1;
    this.flushed.fire(batch);
  }

  dispose(): void {
    this.flush();
    this.flushed.dispose();
  }
}
