/**
 * "Meaningful" screen change, for stuck detection: the screen with animation frames and counters
 * normalised away. A spinner that keeps turning and a timer that keeps counting over an otherwise
 * frozen screen is exactly what a hung request looks like, so neither counts as progress.
 */
import type { ProgressNormalizer } from './ruleSchema';

/** Normalisers every agent gets, before its own (rule file `progressNormalizers`). */
export const COMMON_PROGRESS_NORMALIZERS: readonly ProgressNormalizer[] = [
  // Braille spinners (cli-spinners "dots" family), anywhere on a row.
  { id: 'braille-spinner', pattern: /[\u2801-\u28FF]/gu, replace: '' },
  // Elapsed-time counters: "12s", "1m 5s", "3.2s", "500ms", "(4s)", "Retrying in 2s".
  { id: 'elapsed-time', pattern: /\b\d+(?:\.\d+)?\s?(?:ms|s|m|h|sec|secs|min|mins)\b/gu, replace: '#t' },
  // Token counters: "↓ 20 tokens", "1.2k tokens".
  { id: 'token-counter', pattern: /[↑↓]?\s?[\d.,]+k?\s+tokens\b/gu, replace: '# tokens' },
];

/** A string that changes only when the screen changes meaningfully. */
export function progressFingerprint(lines: readonly string[], normalizers: readonly ProgressNormalizer[]): string {
  let out = '';
  for (const raw of lines) {
    let line = raw.trimEnd();
    for (const n of COMMON_PROGRESS_NORMALIZERS) line = replaceAll(line, n);
    for (const n of normalizers) line = replaceAll(line, n);
    out += line + '\n';
  }
  return out;
}

function replaceAll(line: string, n: ProgressNormalizer): string {
  n.pattern.lastIndex = 0;
  return line.replace(n.pattern, n.replace);
}
