/**
 * The rows of the prompt a waiting rule recognised, cut from the screen by the rule's prompt layout
 * (ruleSchema `PromptLayoutInput`): the question or permission request with its options, without
 * the banner, the transcript above it or the key hints below it.
 */
import type { PromptLayout } from './ruleSchema';

/** The prompt's rows (raw, as on screen), or undefined when the screen shows no row of it. */
export function promptRows(lines: readonly string[], layout: PromptLayout): string[] | undefined {
  const anchor = lastIndexMatching(lines, layout.anchor);
  if (anchor < 0) return undefined;
  let first = 0;
  let last = lines.length - 1;
  if (layout.within) {
    first = runStart(lines, anchor, layout.within);
    last = runEnd(lines, anchor, layout.within);
  }
  // A prompt taller than the screen has lost its top: it starts where the screen (or the run) does.
  first = layout.top ? nearestAbove(lines, anchor, first, layout.top) : layout.within ? first : anchor;
  if (layout.bottom) last = nearestBelow(lines, anchor, last, layout.bottom);
  return lines.slice(first, last + 1).filter((row) => !layout.omit.some((omit) => omit.test(row)));
}

function lastIndexMatching(lines: readonly string[], pattern: RegExp): number {
  for (let y = lines.length - 1; y >= 0; y--) if (pattern.test(lines[y])) return y;
  return -1;
}

function runStart(lines: readonly string[], from: number, within: RegExp): number {
  let y = from;
  while (y > 0 && within.test(lines[y - 1])) y--;
  return y;
}

function runEnd(lines: readonly string[], from: number, within: RegExp): number {
  let y = from;
  while (y < lines.length - 1 && within.test(lines[y + 1])) y++;
  return y;
}

/** The nearest row at or above `from` (not above `limit`) matching `pattern`, else `limit`. */
function nearestAbove(lines: readonly string[], from: number, limit: number, pattern: RegExp): number {
  for (let y = from; y >= limit; y--) if (pattern.test(lines[y])) return y;
  return limit;
}

/** The nearest row at or below `from` (not below `limit`) matching `pattern`, else `limit`. */
function nearestBelow(lines: readonly string[], from: number, limit: number, pattern: RegExp): number {
  for (let y = from; y <= limit; y++) if (pattern.test(lines[y])) return y;
  return limit;
}
