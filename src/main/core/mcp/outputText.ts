/**
 * Terminal output as text an agent can read: escape sequences removed, carriage-return overwrites
 * applied, blank lines trimmed, cuts made on UTF-8 character boundaries so `next_offset` never
 * splits a character.
 */
import { stripAnsiKeepingCarriageReturns } from '../base';

/**
 * What a person would have seen of a stream: CR LF is a line end, a lone CR returns to the start
 * of the line and later text overwrites it (progress bars), a trailing CR is kept pending.
 */
export function renderStreamText(raw: string): string {
  const lines = stripAnsiKeepingCarriageReturns(raw).replace(/\r+\n/g, '\n').split('\n');
  return lines.map(applyCarriageReturns).join('\n');
}

function applyCarriageReturns(line: string): string {
  if (!line.includes('\r')) return line;
  let result = '';
  for (const segment of line.split('\r')) {
    if (segment.length === 0) continue;
    result = segment + result.slice(segment.length);
  }
  return result;
}

/**
 * The units patterns are matched against: lines, and within a line each carriage-return segment,
 * so a "ready" that a spinner later overwrote still counts.
 */
export function matchSegments(line: string): string[] {
  if (!line.includes('\r')) return [line];
  const segments = line.split('\r').filter((s) => s.length > 0);
  return segments.length > 0 ? segments : [''];
}

/** Screen lines for an agent: no leading or trailing blank lines, runs of blank lines collapsed to one. */
export function trimBlankLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of lines) {
    const line = raw.replace(/\s+$/, '');
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** Keeps the newest lines whose UTF-8 size fits in `maxBytes` (the bottom of a screen matters most). */
export function keepLastLines(lines: readonly string[], maxBytes: number): { lines: string[]; truncated: boolean } {
  let size = 0;
  let first = lines.length;
  while (first > 0) {
    const next = Buffer.byteLength(lines[first - 1]) + 1;
    if (size + next > maxBytes) break;
    size += next;
    first -= 1;
  }
  return { lines: lines.slice(first), truncated: first > 0 };
}

/** Length of `data` without a UTF-8 character cut off at its end (its rest comes with the next read). */
export function completeUtf8Length(data: Buffer): number {
  for (let back = 1; back <= Math.min(4, data.length); back++) {
    const byte = data[data.length - back];
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const needed = byte >= 0xf8 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1; // 0xf8+ never starts a character
    return needed > back ? data.length - back : data.length;
  }
  return data.length;
}

/** Leading continuation bytes to skip (a ring read may begin mid-character). */
export function utf8SafeStart(data: Buffer): number {
  let i = 0;
  while (i < data.length && i < 4 && (data[i] & 0xc0) === 0x80) i += 1;
  return i;
}

export function isValidUtf8(data: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}
