/**
 * Splits a headless agent's output into JSON messages and noise. The output comes through a PTY,
 * so it is stdout and stderr merged, every newline is `\r\n`, chunks end mid-line, and the program
 * may write terminal escapes (Claude Code resets mouse and keyboard modes at exit) or a wrapper
 * script may print anything before it execs the agent. None of that may break the stream.
 */
import { stripAnsi } from '../base';

/**
 * A single line longer than this is dropped as noise. A `user` message carrying a large tool
 * result can reach a few MiB; anything beyond 8 MiB is not a message we can afford to hold.
 */
export const MAX_LINE_CHARS = 8 * 1024 * 1024;

export type NdjsonItem = { kind: 'json'; value: Record<string, unknown> } | { kind: 'noise'; line: string };

export class NdjsonReader {
  private partial = '';
  private isOversized = false;

  /** Feeds decoded text; returns the items completed by it. */
  push(text: string): NdjsonItem[] {
    const items: NdjsonItem[] = [];
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      if (newline < 0) break;
      this.append(text.slice(start, newline));
      this.takeLine(items);
      start = newline + 1;
    }
    this.append(text.slice(start));
    return items;
  }

  /** Ends the stream: an unterminated last line is parsed too. */
  flush(): NdjsonItem[] {
    const items: NdjsonItem[] = [];
    if (this.partial.length > 0 || this.isOversized) this.takeLine(items);
    return items;
  }

  private append(piece: string): void {
    if (this.isOversized) return;
    if (this.partial.length + piece.length > MAX_LINE_CHARS) {
      this.isOversized = true;
      this.partial = '';
      return;
    }
    this.partial += piece;
  }

  private takeLine(items: NdjsonItem[]): void {
    if (this.isOversized) {
      this.isOversized = false;
      items.push({ kind: 'noise', line: `[line longer than ${MAX_LINE_CHARS} characters dropped]` });
      return;
    }
    const item = parseLine(this.partial);
    this.partial = '';
    if (item) items.push(item);
  }
}

/** One line → a JSON object, noise, or nothing (blank). */
export function parseLine(raw: string): NdjsonItem | undefined {
  const line = stripAnsi(raw).trim();
  if (line === '') return undefined;
  if (line.endsWith('}')) {
    // Usually the whole line; a wrapper's prefix on the same line ("[wrap] {…}") is tolerated too.
    const value = tryParseObject(line) ?? (line.indexOf('{') > 0 ? tryParseObject(line.slice(line.indexOf('{'))) : undefined);
    if (value) return { kind: 'json', value };
  }
  return { kind: 'noise', line: line.length > 500 ? `${line.slice(0, 499)}…` : line };
}

function tryParseObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // not JSON after all: the caller reports it as noise
  }
}
