/**
 * "Meaningful" screen change, for stuck detection. A spinner that keeps turning, a timer that keeps
 * counting, a verb or tip that rotates and a counter suffix that appears after a few seconds over an
 * otherwise frozen screen is exactly what a hung request looks like, so none of it is progress.
 *
 * Each row is reduced to its meaningful text: animation glyphs, counters and key hints are removed,
 * and rows that are pure animation (a spinner row, a status row with an interrupt hint, a tip) are
 * dropped. Progress is then a meaningful row the screen did not show since the last progress: rows
 * that merely disappear (an animation row, a row scrolled off the top) or come back are not news.
 */
import type { ProgressNormalizer } from './ruleSchema';

/** Normalisers every agent gets, after its own (rule file `progressNormalizers`). */
const COMMON_PROGRESS_NORMALIZERS: readonly ProgressNormalizer[] = [
  // Spinner glyphs anywhere on a row: braille (cli-spinners "dots"), block elements (scanner bars)
  // and the geometric frames TUIs cycle through.
  { id: 'spinner-glyphs', pattern: /[\u2800-\u28FF\u2580-\u259F◐◓◑◒◴◵◶◷◰◳◲◱⬝⬞■□▪▫⬡⬢]/gu, replace: '' },
  // One glyph that leads a row and blinks or cycles (`✶`/`✻`/`·`, a blinking `●`, `⎿`, `•`).
  { id: 'leading-glyph', pattern: /^\s*[^\p{L}\p{N}\s(["'`$/\\.~#>-]\s+(?=\S)/gmu, replace: '' },
  // Elapsed-time counters: "12s", "1m 5s", "3.2s", "500ms", "Retrying in 2s", a clock "0:12".
  { id: 'elapsed-time', pattern: /\b\d+(?:\.\d+)?\s?(?:ms|s|m|h|sec|secs|min|mins)\b|\b\d{1,2}:\d{2}(?::\d{2})?\b/gu, replace: '' },
  // Token counters: "↓ 20 tokens", "1.2k tokens", "↑ 3,400 tokens".
  { id: 'token-counter', pattern: /[↑↓]?\s?[\d.,]+[kKmM]?\s+tokens\b/gu, replace: '' },
  // Key hints shown only while busy: "esc to interrupt", "esc interrupt", "ctrl+c to stop".
  { id: 'key-hint', pattern: /\b(?:esc|ctrl\+[a-z])(?: to)? (?:interrupt|cancel|stop|run in background)\b/giu, replace: '' },
  // What the removals leave behind: empty brackets and dangling separators.
  { id: 'empty-brackets', pattern: /[([]\s*(?:[·•,|;:–—-]\s*)*[)\]]/gu, replace: '' },
  { id: 'dangling-separators', pattern: /(?:\s*[·•|,;–—])+\s*$|^\s*(?:[·•|,;–—]\s*)+/gu, replace: '' },
  { id: 'whitespace', pattern: /\s+/gu, replace: ' ' },
];

/** A row carrying a busy key hint is a status row (spinner, timer, hint): animation as a whole. */
const BUSY_HINT_ROW = /\b(?:esc|ctrl\+[a-z])(?: to)? (?:interrupt|cancel|stop)\b/iu;

/** Rows that are animation as a whole, checked on the normalised row. */
const ANIMATION_ROWS: readonly RegExp[] = [
  // A spinner row: a few words ending in an ellipsis ("Thundering…", "Consulting the spirits...").
  /^[\p{L}'’ -]{1,60}(?:…|\.\.\.)$/u,
  // A rotating tip.
  /^(?:Tip|Did you know)\b/iu,
];

/** A row led by a braille spinner glyph (cli-spinners "dots"): the head of a status row. */
const SPINNER_LED_ROW = /^\s*[\u2800-\u28FF]\s/u;

/** The meaningful rows of a screen, in order, blank and pure-animation rows left out. */
export function meaningfulRows(lines: readonly string[], normalizers: readonly ProgressNormalizer[]): string[] {
  return collectRows(lines, (raw) => meaningfulRow(raw, normalizers));
}

/** A wrapped status row spans at most this many rows above its busy hint (its head included). */
const MAX_WRAPPED_STATUS_ROWS = 3;

/**
 * Rows through `rowOf`, in order. A narrow terminal wraps a status row: its spinner and phrase on
 * one row (or two), the busy hint ("(6s · esc to cancel)") on the next. The hint row is animation
 * as a whole, and so is the rest of its status row above it, from the spinner-led head down (a
 * rotating phrase there is not progress).
 */
function collectRows(lines: readonly string[], rowOf: (raw: string) => string | undefined): string[] {
  const rows: string[] = [];
  const rawIndexOfRow: number[] = [];
  lines.forEach((raw, i) => {
    const row = rowOf(raw);
    if (row !== undefined) {
      rows.push(row);
      rawIndexOfRow.push(i);
      return;
    }
    // A busy-hint row is never meaningful: only rows left out (cached above) are tested for one.
    const head = raw.trim() !== '' && BUSY_HINT_ROW.test(raw) ? wrappedHeadAbove(lines, i) : undefined;
    while (head !== undefined && rawIndexOfRow.length > 0 && rawIndexOfRow[rawIndexOfRow.length - 1] >= head) {
      rows.pop();
      rawIndexOfRow.pop();
    }
  });
  return rows;
}

/** The spinner-led row that starts the status row whose busy hint is at `hintAt`, if it wrapped. */
function wrappedHeadAbove(lines: readonly string[], hintAt: number): number | undefined {
  for (let i = hintAt - 1; i >= Math.max(0, hintAt - MAX_WRAPPED_STATUS_ROWS); i--) {
    if (SPINNER_LED_ROW.test(lines[i])) return i;
  }
  return undefined;
}

/** One row's meaningful text, or undefined for a blank or pure-animation row. */
export function meaningfulRow(raw: string, normalizers: readonly ProgressNormalizer[]): string | undefined {
  if (raw.trim() === '' || BUSY_HINT_ROW.test(raw)) return undefined;
  let row = raw.trimEnd();
  for (const n of normalizers) row = replaceAll(row, n);
  for (const n of COMMON_PROGRESS_NORMALIZERS) row = replaceAll(row, n);
  row = row.trim();
  return row === '' || ANIMATION_ROWS.some((r) => r.test(row)) ? undefined : row;
}

/**
 * Remembers the meaningful rows shown since the last progress; `observe` says whether a screen
 * brings one that is new.
 */
export class ProgressDetector {
  private seen: ReadonlySet<string> | undefined;
  /** Raw row → meaningful row: most rows are unchanged between two screens of a session. */
  private readonly rowCache = new Map<string, string | undefined>();

  constructor(private readonly normalizers: readonly ProgressNormalizer[]) {}

  /** True when the screen shows a meaningful row not seen since the last progress (or is the first). */
  observe(lines: readonly string[]): boolean {
    const rows = collectRows(lines, (raw) => this.rowOf(raw));
    if (this.seen !== undefined && rows.every((r) => this.seen!.has(r))) return false;
    this.seen = new Set(rows);
    return true;
  }

  reset(): void {
    this.seen = undefined;
    this.rowCache.clear();
  }

  private rowOf(raw: string): string | undefined {
    if (this.rowCache.has(raw)) return this.rowCache.get(raw);
    // Bounded: a few screens' worth of distinct rows; a flood of new rows just starts over.
    if (this.rowCache.size >= ROW_CACHE_MAX) this.rowCache.clear();
    const row = meaningfulRow(raw, this.normalizers);
    this.rowCache.set(raw, row);
    return row;
  }
}

/** Distinct raw rows remembered per detector (a 40-row screen changes a handful per redraw). */
const ROW_CACHE_MAX = 1_000;

function replaceAll(line: string, n: ProgressNormalizer): string {
  n.pattern.lastIndex = 0;
  return line.replace(n.pattern, n.replace);
}
