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

/** Slab size for frame allocation: one ArrayBuffer per ~30 frames of a flood instead of one each. */
const FRAME_SLAB_BYTES = 1024 * 1024;

/**
 * Carves frames from slabs. Views are never reused (a socket may still hold one while it writes);
 * a slab is collected once its last frame is gone.
 */
export function slabFrameAllocator(slabBytes = FRAME_SLAB_BYTES): FrameAllocator {
  let slab = new Uint8Array(0);
  let used = 0;
  return (size) => {
    if (used + size > slab.length) {
      slab = new Uint8Array(Math.max(slabBytes, size));
      used = 0;
    }
    const view = slab.subarray(used, used + size);
    used += size;
    return view;
  };
}
