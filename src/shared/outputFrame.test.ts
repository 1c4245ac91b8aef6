import { describe, expect, it } from 'vitest';
import { decodeOutputFrame, encodeOutputFrame, FrameSlabs, type FrameLease } from './outputFrame';

describe('output frames', () => {
  it('carry raw bytes (including split UTF-8) and offsets unchanged', () => {
    const data = Buffer.concat([Buffer.from('héllo \x1b[31mred\r\n'), Buffer.from('✓').subarray(0, 2)]);
    const frame = decodeOutputFrame(encodeOutputFrame({ id: 'p_abc123', start: 10, end: 10 + data.length, data }));
    expect(frame).toMatchObject({ id: 'p_abc123', start: 10, end: 10 + data.length });
    expect(Buffer.from(frame.data).equals(data)).toBe(true);
    const leased = new FrameSlabs().encode({ id: 'p_abc123', start: 10, end: 10 + data.length, data });
    expect(decodeOutputFrame(leased.bytes)).toEqual(frame);
    leased.release();
  });

  it('frames carved from one slab stay independent', () => {
    const slabs = new FrameSlabs(256);
    const frames = [0, 1, 2, 3].map((i) =>
      encodeOutputFrame(
        { id: `p_00000${i}`, start: i * 10, end: i * 10 + 10, data: Buffer.from(`frame ${i} bytes!`) },
        (size) => slabs.lease(size).bytes,
      ),
    );
    expect(frames[0].buffer).toBe(frames[1].buffer); // shared slab
    frames.forEach((bytes, i) => {
      const frame = decodeOutputFrame(bytes);
      expect(frame).toMatchObject({ id: `p_00000${i}`, start: i * 10 });
      expect(Buffer.from(frame.data).toString()).toBe(`frame ${i} bytes!`);
    });
  });

  it('reuses a full slab only once every frame carved from it was released', () => {
    const slabs = new FrameSlabs(100);
    const first = [slabs.lease(40), slabs.lease(40)];
    first.forEach((lease, i) => lease.bytes.fill(i + 1));
    const held = first[1];
    first[0].release();
    const second: FrameLease[] = [slabs.lease(40), slabs.lease(40)]; // the first slab is full: a new one
    expect(second[0].bytes.buffer).not.toBe(held.bytes.buffer);
    second.forEach((lease) => lease.bytes.fill(9));
    expect([...held.bytes].every((b) => b === 2)).toBe(true); // a held frame is never written over
    held.release();
    second.forEach((lease) => lease.release());
    const third = slabs.lease(80); // the second slab is full: a released one comes back, none is allocated
    expect([held.bytes.buffer, second[0].bytes.buffer]).toContain(third.bytes.buffer);
    expect(slabs.lease(200).bytes.length).toBe(200); // bigger than a slab: bytes of its own
  });

  it('rejects a frame whose header runs past its end', () => {
    const bad = new Uint8Array(8);
    new DataView(bad.buffer).setUint32(0, 100);
    expect(() => decodeOutputFrame(bad)).toThrow(/Malformed output frame/);
  });
});
