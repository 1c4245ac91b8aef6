import { describe, expect, it } from 'vitest';
import { decodeOutputFrame, encodeOutputFrame, slabFrameAllocator } from './outputFrame';

describe('output frames', () => {
  it('carry raw bytes (including split UTF-8) and offsets unchanged', () => {
    const data = Buffer.concat([Buffer.from('héllo \x1b[31mred\r\n'), Buffer.from('✓').subarray(0, 2)]);
    const frame = decodeOutputFrame(encodeOutputFrame({ id: 'p_abc123', start: 10, end: 10 + data.length, data }));
    expect(frame).toMatchObject({ id: 'p_abc123', start: 10, end: 10 + data.length });
    expect(Buffer.from(frame.data).equals(data)).toBe(true);
  });

  it('frames carved from one slab stay independent', () => {
    const allocate = slabFrameAllocator(256);
    const frames = [0, 1, 2, 3].map((i) =>
      encodeOutputFrame({ id: `p_00000${i}`, start: i * 10, end: i * 10 + 10, data: Buffer.from(`frame ${i} bytes!`) }, allocate),
    );
    expect(frames[0].buffer).toBe(frames[1].buffer); // shared slab
    frames.forEach((bytes, i) => {
      const frame = decodeOutputFrame(bytes);
      expect(frame).toMatchObject({ id: `p_00000${i}`, start: i * 10 });
      expect(Buffer.from(frame.data).toString()).toBe(`frame ${i} bytes!`);
    });
  });

  it('rejects a frame whose header runs past its end', () => {
    const bad = new Uint8Array(8);
    new DataView(bad.buffer).setUint32(0, 100);
    expect(() => decodeOutputFrame(bad)).toThrow(/Malformed output frame/);
  });
});
