import { describe, expect, it } from 'vitest';
import { MAX_LINE_CHARS, NdjsonReader, parseLine, type NdjsonItem } from './ndjsonReader';
import { readCapture } from './testing/fakeTaskSession';

function readAll(chunks: string[]): NdjsonItem[] {
  const reader = new NdjsonReader();
  return [...chunks.flatMap((c) => reader.push(c)), ...reader.flush()];
}

describe('NdjsonReader', () => {
  it('parses CRLF lines and bare LF lines alike', () => {
    const items = readAll(['{"a":1}\r\n{"b":2}\n']);
    expect(items).toEqual([
      { kind: 'json', value: { a: 1 } },
      { kind: 'json', value: { b: 2 } },
    ]);
  });

  it('joins lines split across chunks at any position', () => {
    const text = '{"type":"x","text":"héllo ✓"}\r\n{"type":"y"}\r\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const items = readAll([text.slice(0, cut), text.slice(cut)]);
      expect(items.map((i) => (i.kind === 'json' ? i.value.type : i.line))).toEqual(['x', 'y']);
    }
  });

  it('reports non-JSON lines as noise and keeps going', () => {
    const items = readAll(['[wrapper] starting claude\r\n', 'Warning: something odd\r\n{"ok":true}\r\n', 'not {json}\r\n']);
    expect(items).toEqual([
      { kind: 'noise', line: '[wrapper] starting claude' },
      { kind: 'noise', line: 'Warning: something odd' },
      { kind: 'json', value: { ok: true } },
      { kind: 'noise', line: 'not {json}' },
    ]);
  });

  it('strips terminal escapes around a message and ignores escape-only lines', () => {
    const items = readAll(['\x1b[?25l{"ok":1}\x1b[0m\r\n', '\x1b[?1006l\x1b(B\x0f\x1b[<u\x1b7\x1b[r\x1b8\x1b]0;\x07\x1b[?25h']);
    expect(items).toEqual([{ kind: 'json', value: { ok: 1 } }]);
  });

  it('takes a message behind a prefix on the same line', () => {
    expect(parseLine('[wrap] {"type":"result"}')).toEqual({ kind: 'json', value: { type: 'result' } });
  });

  it('treats JSON that is not an object, and broken JSON, as noise', () => {
    expect(parseLine('[1,2,3]')).toMatchObject({ kind: 'noise' });
    expect(parseLine('"text"')).toMatchObject({ kind: 'noise' });
    expect(parseLine('{"cut": ')).toMatchObject({ kind: 'noise' });
    expect(parseLine('{"a":1}{"b":2}')).toMatchObject({ kind: 'noise' });
  });

  it('parses an unterminated last line on flush', () => {
    const reader = new NdjsonReader();
    expect(reader.push('{"type":"result"}')).toEqual([]);
    expect(reader.flush()).toEqual([{ kind: 'json', value: { type: 'result' } }]);
  });

  it('drops an oversized line as noise without holding it, then reads on', () => {
    const reader = new NdjsonReader();
    const big = 'x'.repeat(1024 * 1024);
    for (let i = 0; i <= MAX_LINE_CHARS / big.length; i++) expect(reader.push(big)).toEqual([]);
    const items = reader.push('tail\n{"after":true}\n');
    expect(items[0]).toMatchObject({ kind: 'noise', line: expect.stringContaining('dropped') });
    expect(items[1]).toEqual({ kind: 'json', value: { after: true } });
  });

  it('reads a real Claude Code PTY capture in 7-byte chunks: every line a message, no noise', () => {
    const capture = readCapture('claude-2.1.197-bash-success');
    const chunks = capture.match(/[\s\S]{1,7}/g) ?? [];
    const items = readAll(chunks);
    expect(items.filter((i) => i.kind === 'noise')).toEqual([]);
    const types = items.map((i) => (i.kind === 'json' ? String(i.value.type) : ''));
    expect(types[0]).toBe('system');
    expect(types.at(-1)).toBe('result');
    expect(types).toContain('stream_event');
    expect(types).toContain('user');
  });
});
