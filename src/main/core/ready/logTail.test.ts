import { describe, expect, it } from 'vitest';
import { LogTail } from './logTail';

describe('log tail of a flood', () => {
  it('keeps its own copy of the bytes: the chunk they came in may be reused at once', () => {
    const tail = new LogTail();
    const chunk = Buffer.from('first line\r\nsecond line\r\n');
    tail.keepFloodBytes(chunk);
    chunk.fill('x'.charCodeAt(0)); // the ring the chunk viewed moved on
    expect(tail.snapshot()).toEqual(['first line', 'second line']);
  });

  it('ends with the newest lines of a long flood, whatever the chunk sizes', () => {
    const tail = new LogTail();
    for (let i = 0; i < 5_000; i++) tail.keepFloodBytes(Buffer.from(`line ${i}\r\n`.repeat(1 + (i % 7))));
    tail.keepFloodBytes(Buffer.from('x'.repeat(200 * 1024) + '\r\nthe last line\r\n')); // bigger than what is kept
    const lines = tail.snapshot();
    expect(lines.at(-1)).toBe('the last line');
    expect(lines.length).toBeLessThanOrEqual(40);
    const more = new LogTail();
    for (let i = 0; i < 5_000; i++) more.keepFloodBytes(Buffer.from(`line ${i}\r\n`));
    expect(more.snapshot().slice(-2)).toEqual(['line 4998', 'line 4999']);
  });
});
