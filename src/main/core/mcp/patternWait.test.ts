import { describe, expect, it } from 'vitest';
import { LineMatcher, MAX_PARTIAL_LINE_BYTES } from './patternWait';

const push = (m: LineMatcher, text: string, start: number) => m.push(Buffer.from(text), start);

describe('LineMatcher', () => {
  it('matches a line split across chunks, with the offset of its start', () => {
    const m = new LineMatcher(/server ready on port (\d+)/);
    expect(push(m, 'booting\r\nserver re', 100)).toBeUndefined();
    expect(push(m, 'ady on port 3000\r\n', 118)).toEqual({
      line: 'server ready on port 3000',
      groups: ['server ready on port 3000', '3000'],
      offset: 109,
    });
  });

  it('matches the unterminated last line (a prompt) and strips escape sequences first', () => {
    const m = new LineMatcher(/^\$ $/);
    expect(push(m, '\x1b[32m$\x1b[0m ', 0)).toMatchObject({ line: '$ ', offset: 0 });
  });

  it('matches text a carriage return later overwrote', () => {
    const m = new LineMatcher(/compiled/);
    expect(push(m, 'compiled\r⠋ rebuilding\n', 0)).toMatchObject({ line: 'compiled' });
  });

  it('does not match across lines and keeps the global flag harmless', () => {
    const m = new LineMatcher(/a.b/g);
    expect(push(m, 'a\nb\n', 0)).toBeUndefined();
    expect(push(m, 'axb\n', 4)).toMatchObject({ offset: 4 });
  });

  it('bounds a runaway line without newlines', () => {
    const m = new LineMatcher(/never/);
    for (let i = 0; i < 10; i++) expect(push(m, 'x'.repeat(MAX_PARTIAL_LINE_BYTES / 2), i)).toBeUndefined();
    expect((m as unknown as { partial: Buffer }).partial.length).toBeLessThanOrEqual(MAX_PARTIAL_LINE_BYTES);
  });
});
