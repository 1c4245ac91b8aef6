import { describe, expect, it } from 'vitest';
import { ByteRing } from './ringBuffer';

describe('ByteRing', () => {
  it('keeps monotonic offsets and returns what was appended', () => {
    const ring = new ByteRing(16);
    ring.append(Buffer.from('hello '));
    ring.append(Buffer.from('world'));
    expect(ring.start).toBe(0);
    expect(ring.end).toBe(11);
    expect(ring.read(6).data.toString()).toBe('world');
    expect(ring.read(6)).toMatchObject({ start: 6, end: 11, truncated: false });
  });

  it('wraps, drops the oldest bytes and reports truncation', () => {
    const ring = new ByteRing(8);
    ring.append(Buffer.from('abcdef'));
    ring.append(Buffer.from('ghijk'));
    expect(ring.start).toBe(3);
    expect(ring.end).toBe(11);
    const read = ring.read(0);
    expect(read.data.toString()).toBe('defghijk');
    expect(read).toMatchObject({ start: 3, end: 11, truncated: true });
  });

  it('keeps only the tail of a chunk larger than the ring', () => {
    const ring = new ByteRing(4);
    ring.append(Buffer.from('0123456789'));
    expect(ring.read().data.toString()).toBe('6789');
    expect(ring.start).toBe(6);
    expect(ring.end).toBe(10);
  });

  it('honours max bytes and resumes from the returned end', () => {
    const ring = new ByteRing(32);
    ring.append(Buffer.from('abcdefghij'));
    const first = ring.read(0, 4);
    expect(first.data.toString()).toBe('abcd');
    expect(ring.read(first.end, 100).data.toString()).toBe('efghij');
    expect(ring.tail(3).data.toString()).toBe('hij');
    expect(ring.read(10).data.length).toBe(0);
  });

  it('rejects a non-positive capacity', () => {
    expect(() => new ByteRing(0)).toThrow(/positive integer/);
  });
});
