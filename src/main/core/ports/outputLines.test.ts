import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_LINE_CHARS, OutputLineReader, PARTIAL_LINE_IDLE_MS } from './outputLines';

function feed(reader: OutputLineReader, chunks: string[]): string[] {
  const lines: string[] = [];
  let start = 0;
  for (const text of chunks) {
    lines.push(...reader.push({ text, start }).map((l) => l.text));
    start += Buffer.byteLength(text);
  }
  return lines;
}

describe('OutputLineReader', () => {
  afterEach(() => vi.useRealTimers());

  it.each([
    ['LF', ['a\nb\n'], ['a', 'b']],
    ['CRLF as a PTY writes it', ['a\r\nb\r\n'], ['a', 'b']],
    ['a line split across chunks', ['VITE v7.3', '.8  ready in 662 ms\r\n'], ['VITE v7.3.8  ready in 662 ms']],
    ['CRLF split between chunks is one break', ['a\r', '\nb\r\n'], ['a', 'b']],
    ['bare CR (progress redraw) breaks lines', ['45%\r46%\r\n'], ['45%', '46%']],
    ['escape sequences removed', ['\x1b[32m\x1b[1mVITE\x1b[22m v7.3.8\x1b[39m\r\n'], ['VITE v7.3.8']],
    ["vite's clear-screen before its banner", ['\r\n\x1b[1;1H\x1b[0J\r\n  ready\r\n'], ['', '', '  ready']],
  ])('%s', (_name, chunks, expected) => {
    const reader = new OutputLineReader();
    expect(feed(reader, chunks)).toEqual(expected);
    reader.dispose();
  });

  it('reports byte offsets of line starts (multi-byte characters counted as bytes)', () => {
    const reader = new OutputLineReader();
    const lines = reader.push({ text: '➜ a\nb\n', start: 100 });
    expect(lines.map((l) => l.offset)).toEqual([100, 100 + Buffer.byteLength('➜ a\n')]);
    reader.dispose();
  });

  it('reports a prompt left without a line break once output is quiet, then the full line again', () => {
    vi.useFakeTimers();
    const reader = new OutputLineReader();
    const stalled: string[] = [];
    reader.onDidStallOnPartialLine((line) => stalled.push(`${line.isPartial}:${line.text}`));
    expect(reader.push({ text: '? Port 6006 is not available. Use 6007 instead? › (Y/n)', start: 0 })).toEqual([]);
    vi.advanceTimersByTime(PARTIAL_LINE_IDLE_MS - 1);
    expect(stalled).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(stalled).toEqual(['true:? Port 6006 is not available. Use 6007 instead? › (Y/n)']);
    const completed = reader.push({ text: ' y\n', start: 60 });
    expect(completed.map((l) => [l.isPartial, l.text])).toEqual([[false, '? Port 6006 is not available. Use 6007 instead? › (Y/n) y']]);
    reader.dispose();
  });

  it('does not report a partial line while chunks keep arriving', () => {
    vi.useFakeTimers();
    const reader = new OutputLineReader();
    const stalled: string[] = [];
    reader.onDidStallOnPartialLine((line) => stalled.push(line.text));
    for (let i = 0; i < 5; i++) {
      reader.push({ text: 'x', start: i });
      vi.advanceTimersByTime(PARTIAL_LINE_IDLE_MS / 2);
    }
    expect(stalled).toEqual([]);
    reader.dispose();
    vi.advanceTimersByTime(PARTIAL_LINE_IDLE_MS * 2);
    expect(stalled).toEqual([]); // disposed: the timer is gone
  });

  it('flush completes the pending line; reset drops it', () => {
    const reader = new OutputLineReader();
    reader.push({ text: 'no newline at exit', start: 0 });
    expect(reader.flush().map((l) => l.text)).toEqual(['no newline at exit']);
    reader.push({ text: 'old run', start: 0 });
    reader.reset();
    expect(reader.push({ text: 'new run\n', start: 0 }).map((l) => l.text)).toEqual(['new run']);
    reader.dispose();
  });

  it(`cuts a line longer than ${MAX_LINE_CHARS} characters`, () => {
    const reader = new OutputLineReader();
    const lines = reader.push({ text: 'x'.repeat(MAX_LINE_CHARS + 10), start: 0 });
    expect(lines).toHaveLength(1);
    reader.dispose();
  });
});

describe('pushTail (floods)', () => {
  it('reads only the last lines of a chunk, with their offsets', () => {
    const reader = new OutputLineReader();
    const text = 'one\ntwo\nthree\nfour\n';
    const lines = reader.pushTail({ text, start: 100, end: 100 + text.length }, 2);
    expect(lines.map((l) => l.text)).toEqual(['three', 'four']);
    expect(lines[0].offset).toBe(100 + 'one\ntwo\n'.length);
    reader.dispose();
  });

  it('reads everything when the chunk has fewer lines than asked', () => {
    const reader = new OutputLineReader();
    expect(reader.pushTail({ text: 'a\r\nb\r\n', start: 0 }, 10).map((l) => l.text)).toEqual(['a', 'b']);
    reader.dispose();
  });
});
