/**
 * Claude Code's status-line input (the JSON it writes to a `statusLine` command's stdin), as far
 * as usage goes. Claude Code 2.1.332 builds `rate_limits` from Anthropic's unified rate-limit
 * response headers (`anthropic-ratelimit-unified-<5h|7d>-utilization`, a fraction, and `-reset`,
 * Unix seconds): `{ five_hour: { used_percentage, resets_at }, seven_day: { … } }`, a window only
 * while its reset is ahead, the key only once a response carried them (docs/usage.md).
 */
import type { UsageWindow } from '../../../shared/usage';

/** Claude Code's window keys and the names the usage records use (Codex's reader names them alike). */
const WINDOW_NAMES = [
  ['five_hour', '5h'],
  ['seven_day', 'weekly'],
] as const;

/** Longest model name the printed line carries. */
const MODEL_NAME_MAX = 40;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The usage windows the input carries, or undefined when it carries none (`rate_limits` absent:
 * an API key, or no response with the headers yet) — the windows known before then stay.
 */
export function windowsOfStatusLine(input: unknown): UsageWindow[] | undefined {
  if (!isObject(input) || !isObject(input.rate_limits)) return undefined;
  const limits = input.rate_limits;
  const windows: UsageWindow[] = [];
  for (const [key, name] of WINDOW_NAMES) {
    const w = limits[key];
    if (!isObject(w) || typeof w.used_percentage !== 'number' || !Number.isFinite(w.used_percentage)) continue;
    const resetsAt = typeof w.resets_at === 'number' && Number.isFinite(w.resets_at) && w.resets_at > 0 ? w.resets_at : undefined;
    windows.push({
      name,
      used_percent: Math.min(Math.max(w.used_percentage, 0), 100),
      resets_at: resetsAt === undefined ? null : new Date(resetsAt * 1000).toISOString(),
    });
  }
  return windows.length > 0 ? windows : undefined;
}

/**
 * The line Claude Code shows under its prompt: the model and the windows, e.g. `Opus 5.5 · 5h 42 % ·
 * weekly 85 %`. Only letters, digits and a few marks of the model's name reach the terminal.
 */
export function statusLineText(input: unknown, windows: readonly UsageWindow[]): string {
  const model = isObject(input) && isObject(input.model) ? input.model.display_name : undefined;
  const name =
    typeof model === 'string'
      ? model
          .replace(/[^\p{L}\p{N} .()-]/gu, '')
          .slice(0, MODEL_NAME_MAX)
          .trim()
      : '';
  const parts = [name, ...windows.map((w) => `${w.name} ${Math.round(w.used_percent)} %`)].filter((p) => p !== '');
  return parts.join(' · ');
}
