/**
 * Lazy UTF-8 text for output chunks: most chunks of a flood are never read as text (no detector
 * listens to terminals), so decoding happens only when asked. A multi-byte character split
 * across PTY reads belongs to the chunk where it completes, as with a StringDecoder.
 */

/** Length of an incomplete UTF-8 sequence at the end of `data` (0 when it ends on a boundary). */
export function incompleteTailLength(data: Uint8Array): number {
  const length = data.length;
  for (let back = 1; back <= Math.min(3, length); back++) {
    const byte = data[length - back];
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? back : 0;
  }
  return 0; // only continuation bytes: invalid, decoded as replacement characters
}

/** A chunk's text: the carried-in start of a split character, then its bytes up to its own split tail. */
export function decodeChunk(carryIn: Uint8Array, data: Buffer, tailLength: number): string {
  const body = tailLength > 0 ? data.subarray(0, data.length - tailLength) : data;
  return carryIn.length > 0 ? Buffer.concat([carryIn, body]).toString('utf8') : body.toString('utf8');
}

/** An output chunk whose text is decoded on first read (a class: one shape, no closure per chunk). */
export class LazyTextChunk {
  private decoded: string | undefined;

  constructor(
    readonly data: Buffer,
    readonly start: number,
    readonly end: number,
    readonly runId: number,
    private readonly carryIn: Uint8Array,
    private readonly tailLength: number,
  ) {}

  get text(): string {
    return (this.decoded ??= decodeChunk(this.carryIn, this.data, this.tailLength));
  }
}
