/**
 * Merges the PTY's reads into batches for viewers (VS Code's TerminalDataBufferer): one batch per
 * BATCH_MS instead of one per read. The first read after a quiet BATCH_MS goes out at once (a
 * keystroke's echo waits for no timer, which a busy event loop runs a whole turn later); only what
 * follows it within BATCH_MS is merged. While a flood is under way (`isFlooding`) the entry hands
 * the screen and the detectors these batches too instead of every read. Flushed before resize and
 * exit so nothing downstream sees bytes in the wrong geometry or misses the last line. Batches
 * carry the PTY's raw bytes: viewers' terminals decode UTF-8 themselves, so nothing is decoded or
 * re-encoded on the way.
 *
 * The batcher keeps only offsets and reads its range from the entry's ring when it flushes: a
 * batch's `data` is valid while the batch is delivered (a view of the ring, or of a scratch copy
 * where the range wraps), and whoever keeps bytes past that copies them (viewers encode or clone
 * them at once). Holding the PTY's read buffers, or allocating a buffer per batch, made floods
 * cost as much in garbage collection as in reading: V8 ran a full collection every ~100 ms of a
 * flood to sweep the batches' memory in a process with a sizeable heap.
 */
/** Within the 5–16 ms window: below a frame, above the typical PTY read interval under load. */
const BATCH_MS = 8;
/**
 * Flush early past this size: keeps each message small, and below the flow-control high
 * watermark so a viewer that keeps up never pauses the PTY.
 */
const MAX_BATCH_BYTES = 32 * 1024;

/**
 * A batch this big means a flood: more than the two full PTY reads (~4 KB each, the kernel's tty
 * buffer) an echo, a prompt or an agent's redraw come in within BATCH_MS.
 */
const FLOOD_BATCH_BYTES = 8 * 1024;

export interface OutputBatch {
  /** The bytes, valid during delivery only: copy what you keep. */
  data: Buffer;
  /** Byte offsets covered by this batch in the entry's ring. */
  start: number;
  end: number;
}

export class OutputBatcher {
  private start = -1;
  private end = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastFlushAt = -Infinity;
  private lastFloodBatchAt = -Infinity;
  private isDisposed = false;

  /**
   * `readRange` gives ring bytes [start, end) (the ring already holds them), valid until the next
   * append; `deliver` receives each batch.
   */
  constructor(
    private readonly readRange: (start: number, end: number) => Buffer,
    private readonly deliver: (batch: OutputBatch) => void,
  ) {}

  /** Bytes pushed and not delivered yet. */
  get pendingBytes(): number {
    return this.start < 0 ? 0 : this.end - this.start;
  }

  /** A flood is under way: a batch of FLOOD_BATCH_BYTES or more went out within the last BATCH_MS. */
  isFlooding(now: number): boolean {
    return now - this.lastFloodBatchAt < BATCH_MS;
  }

  /** Bytes [start, end) were appended to the ring. */
  push(start: number, end: number): void {
    const isQuiet = this.start < 0 && !this.timer && performance.now() - this.lastFlushAt >= BATCH_MS;
    if (this.start < 0) this.start = start;
    this.end = end;
    if (isQuiet || this.end - this.start >= MAX_BATCH_BYTES) this.flush();
    // A timer armed for an earlier batch delivers this one too (sooner, never later): under a
    // flood, batches fill up every millisecond and a timer set and cleared for each cost more
    // than the batch.
    else if (!this.timer) this.timer = setTimeout(() => this.flushOnTimer(), BATCH_MS);
  }

  flush(): void {
    if (this.start < 0) return;
    this.lastFlushAt = performance.now();
    if (this.end - this.start >= FLOOD_BATCH_BYTES) this.lastFloodBatchAt = this.lastFlushAt;
    const batch: OutputBatch = { data: this.readRange(this.start, this.end), start: this.start, end: this.end };
    this.start = -1;
    if (!this.isDisposed) this.deliver(batch);
  }

  private flushOnTimer(): void {
    this.timer = undefined;
    this.flush();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
    this.isDisposed = true;
  }
}
