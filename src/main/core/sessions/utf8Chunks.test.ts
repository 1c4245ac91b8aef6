import { describe, expect, it } from 'vitest';
import { decodeChunk, incompleteTailLength } from './utf8Chunks';

describe('lazy UTF-8 chunk text', () => {
  it.each([
    ['ascii', Buffer.from('abc'), 0],
    ['complete 3-byte char', Buffer.from('a✓'), 0],
    ['first byte of ✓', Buffer.from('a✓').subarray(0, 2), 1],
    ['two bytes of ✓', Buffer.from('a✓').subarray(0, 3), 2],
    ['three bytes of a 4-byte emoji', Buffer.from('😀').subarray(0, 3), 3],
    ['complete emoji', Buffer.from('x😀'), 0],
  ])('%s', (_name, data, expected) => {
    expect(incompleteTailLength(data)).toBe(expected);
  });

  it('puts a split character in the chunk where it completes, like a StringDecoder', () => {
    const whole = Buffer.from('héllo ✓ wörld 😀!');
    for (let cut = 1; cut < whole.length; cut++) {
      const first = whole.subarray(0, cut);
      const second = whole.subarray(cut);
      const tail = incompleteTailLength(first);
      const text1 = decodeChunk(Buffer.alloc(0), first, tail);
      const text2 = decodeChunk(first.subarray(first.length - tail), second, incompleteTailLength(second));
      expect(text1 + text2).toBe(whole.toString('utf8'));
    }
  });
});
