/**
 * Output events on the WebSocket travel as binary frames — the PTY's bytes untouched, no UTF-8
 * decode, no JSON escaping of every byte: [u32 header length][header JSON][payload bytes].
 * Everything else on the socket stays JSON text.
 */
interface OutputFrame {
  id: string;
  start: number;
  end: number;
  data: Uint8Array;
}

const HEADER_LENGTH_BYTES = 4;
/** One of each for every frame: a flood sends hundreds of frames a second. */
const headerEncoder = new TextEncoder();
const headerDecoder = new TextDecoder();

/** Gives out the bytes for one frame (a fresh array, or a view carved from a slab). */
type FrameAllocator = (size: number) => Uint8Array;

export function encodeOutputFrame(frame: OutputFrame, allocate: FrameAllocator = (size) => new Uint8Array(size)): Uint8Array {
  const header = headerEncoder.encode(JSON.stringify({ id: frame.id, start: frame.start, end: frame.end }));
  const out = allocate(HEADER_LENGTH_BYTES + header.length + frame.data.length);
  new DataView(out.buffer, out.byteOffset, out.byteLength).setUint32(0, header.length);
  out.set(header, HEADER_LENGTH_BYTES);
  out.set(frame.data, HEADER_LENGTH_BYTES + header.length);
  return out;
}

export function decodeOutputFrame(buffer: ArrayBuffer | Uint8Array): OutputFrame {
  const bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer);
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  const headerEnd = HEADER_LENGTH_BYTES + headerLength;
  if (headerEnd > bytes.length) throw new Error('Malformed output frame: header longer than the frame');
  const header = JSON.parse(headerDecoder.decode(bytes.subarray(HEADER_LENGTH_BYTES, headerEnd))) as Omit<OutputFrame, 'data'>;
  return { ...header, data: bytes.subarray(headerEnd) };
}

/** Slab size for frame allocation: one slab serves ~30 frames of a flood. */
const FRAME_SLAB_BYTES = 1024 * 1024;
/** Slabs kept for reuse once every frame carved from them was released. */
const SPARE_SLABS = 4;

interface Slab {
  bytes: Uint8Array;
  used: number;
  /** Frames carved from it and not released yet. */
  held: number;
  /** Full: no frame is carved from it any more; it is reused once `held` is 0. */
  isFull: boolean;
}

/** A frame's bytes and the call that gives them back once they are sent. */
export interface FrameLease {
  bytes: Uint8Array;
  release(): void;
}

/**
 * Frames carved from slabs that are reused once every frame carved from one was released (its
 * socket wrote it). A slab allocated per ~30 frames of a flood cost more in garbage collection
 * than the frames' copies: a process with a sizeable heap ran a full collection every ~100 ms to
 * free the slabs' memory. A frame bigger than a slab gets bytes of its own.
 */
export class FrameSlabs {
  private current: Slab | undefined;
  private readonly spare: Slab[] = [];

  constructor(private readonly slabBytes = FRAME_SLAB_BYTES) {}

  /** `frame` encoded into leased bytes: release them once the socket wrote them. */
  encode(frame: OutputFrame): FrameLease {
    let lease: FrameLease | undefined;
    const bytes = encodeOutputFrame(frame, (size) => (lease = this.lease(size)).bytes);
    return { bytes, release: () => lease?.release() };
  }

  lease(size: number): FrameLease {
    if (size > this.slabBytes) return { bytes: new Uint8Array(size), release: () => undefined };
    let slab = this.current;
    if (!slab || slab.used + size > slab.bytes.length) {
      if (slab) this.retire(slab);
      slab = this.spare.pop() ?? { bytes: new Uint8Array(this.slabBytes), used: 0, held: 0, isFull: false };
      slab.used = 0;
      slab.isFull = false;
      this.current = slab;
    }
    const bytes = slab.bytes.subarray(slab.used, slab.used + size);
    slab.used += size;
    slab.held += 1;
    let isReleased = false;
    const owner = slab;
    return {
      bytes,
      release: () => {
        if (isReleased) return;
        isReleased = true;
        owner.held -= 1;
        if (owner.isFull && owner.held === 0) this.recycle(owner);
      },
    };
  }

  private retire(slab: Slab): void {
    slab.isFull = true;
    if (slab.held === 0) this.recycle(slab);
  }

  private recycle(slab: Slab): void {
    if (this.spare.length < SPARE_SLABS) this.spare.push(slab);
  }
}
