/**
 * Bounded ring of raw output bytes addressed by monotonically increasing offsets.
 * Offsets never reset (not even across runs), so readers can resume with `since_offset`.
 */
interface RingRead {
  data: Buffer;
  /** Offset of the first returned byte (may be later than asked when old bytes were dropped). */
  start: number;
  /** Offset one past the last returned byte: pass it as the next `since`. */
  end: number;
  /** True when bytes between `since` and `start` were already overwritten. */
  truncated: boolean;
}

export class ByteRing {
  private readonly buf: Buffer;
  private endOffset = 0;
  private length = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new RangeError(`Ring capacity must be a positive integer, got ${capacity}`);
    }
    this.buf = Buffer.allocUnsafe(capacity);
  }

  get start(): number {
    return this.endOffset - this.length;
  }

  get end(): number {
    return this.endOffset;
  }

  append(data: Uint8Array): void {
    let chunk = data;
    if (chunk.length >= this.capacity) {
      this.endOffset += chunk.length - this.capacity;
      chunk = chunk.subarray(chunk.length - this.capacity);
    }
    const writeAt = this.endOffset % this.capacity;
    const firstPart = Math.min(chunk.length, this.capacity - writeAt);
    if (firstPart === chunk.length) {
      this.buf.set(chunk, writeAt); // the usual case: no view to allocate per PTY read
    } else {
      this.buf.set(chunk.subarray(0, firstPart), writeAt);
      this.buf.set(chunk.subarray(firstPart), 0);
    }
    this.endOffset += chunk.length;
    this.length = Math.min(this.capacity, this.length + chunk.length);
  }

  /** Bytes from `since` (clamped to what is retained), at most `maxBytes` of them. */
  read(since = this.start, maxBytes = this.capacity): RingRead {
    const from = Math.max(since, this.start);
    const to = Math.min(this.endOffset, from + Math.max(0, maxBytes));
    const data = this.copy(from, to);
    return { data, start: from, end: to, truncated: since < this.start };
  }

  /** The newest bytes, at most `maxBytes`. */
  tail(maxBytes: number): RingRead {
    return this.read(Math.max(this.start, this.endOffset - maxBytes), maxBytes);
  }

  /**
   * Retained bytes [from, to) without a copy, when they lie in one piece of the buffer (not across
   * its wrap); valid until the next append.
   */
  view(from: number, to: number): Buffer | undefined {
    if (from < this.start || to > this.endOffset || from > to) return undefined;
    const readAt = from % this.capacity;
    if (readAt + (to - from) > this.capacity) return undefined;
    return this.buf.subarray(readAt, readAt + (to - from));
  }

  /** Copies retained bytes [from, to) into `target` at `at`; returns the number copied. */
  copyTo(target: Uint8Array, at: number, from: number, to: number): number {
    const start = Math.max(from, this.start);
    const size = Math.min(to, this.endOffset) - start;
    if (size <= 0) return 0;
    const readAt = start % this.capacity;
    const firstPart = Math.min(size, this.capacity - readAt);
    target.set(this.buf.subarray(readAt, readAt + firstPart), at);
    if (firstPart < size) target.set(this.buf.subarray(0, size - firstPart), at + firstPart);
    return size;
  }

  private copy(from: number, to: number): Buffer {
    const size = to - from;
    if (size <= 0) return Buffer.alloc(0);
    const out = Buffer.allocUnsafe(size);
    this.copyTo(out, 0, from, to);
    return out;
  }
}
