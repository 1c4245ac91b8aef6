/**
 * Codex's rollout log (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl`), as Codex
 * 0.171.0 writes it (observed against the mock Responses API, sample in codexRollout.test.ts):
 * - `{"type":"turn_context","payload":{"model",…}}` before each turn;
 * - `{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{input_tokens,
 *   cached_input_tokens, cache_write_input_tokens, output_tokens, reasoning_output_tokens},
 *   "last_token_usage":{…},"model_context_window"},"rate_limits":{"primary":{used_percent,
 *   window_minutes, resets_at (Unix s)},"secondary":{…}}}}` after each response. The totals are
 *   the session's running sums; `input_tokens` includes its cached part; the rate limits are the
 *   `x-codex-primary-*` / `x-codex-secondary-*` headers of the response (a ChatGPT plan's).
 * Codex records no cost (docs/usage.md).
 */
import { addModelTokens, count, emptyReadUsage, isObject, type ReadUsage, type UsageAccumulator } from './usageAccumulator';
import { EMPTY_TOKENS, type TokenCounts, type UsageWindow } from '../../../shared/usage';

const WINDOW_NAMES: Record<number, string> = { 300: '5h', 1440: 'daily', 10080: 'weekly' };

export class CodexRolloutAccumulator implements UsageAccumulator {
  private readonly usage = emptyReadUsage();
  private model: string | undefined;

  push(record: unknown): void {
    if (!isObject(record) || !isObject(record.payload)) return;
    const payload = record.payload;
    if (record.type === 'turn_context' && typeof payload.model === 'string') this.model = payload.model;
    else if (record.type === 'event_msg' && payload.type === 'token_count') this.pushTokenCount(payload);
  }

  current(): ReadUsage {
    return this.usage;
  }

  private pushTokenCount(payload: Record<string, unknown>): void {
    const info = payload.info;
    if (isObject(info) && isObject(info.total_token_usage)) {
      const total = tokensOf(info.total_token_usage);
      // The totals are running sums: what is new since the last report goes to the current model.
      if (this.model) addModelTokens(this.usage.byModel, this.model, difference(total, this.usage.tokens));
      this.usage.tokens = total;
      this.usage.model = this.model;
      if (isObject(info.last_token_usage)) this.usage.contextUsed = count(info.last_token_usage.total_tokens) || undefined;
      if (count(info.model_context_window) > 0) this.usage.contextWindow = count(info.model_context_window);
    }
    if (isObject(payload.rate_limits)) this.usage.windows = windowsOf(payload.rate_limits);
  }
}

/** OpenAI counts cached input inside `input_tokens`; ours are the uncached part (shared/usage.ts). */
function tokensOf(usage: Record<string, unknown>): TokenCounts {
  const input = count(usage.input_tokens);
  const cached = Math.min(input, count(usage.cached_input_tokens));
  return {
    input_tokens: input - cached,
    output_tokens: count(usage.output_tokens),
    cache_read_tokens: cached,
    cache_write_tokens: count(usage.cache_write_input_tokens),
  };
}

function difference(now: TokenCounts, before: TokenCounts): TokenCounts {
  const d = { ...EMPTY_TOKENS };
  for (const key of Object.keys(d) as Array<keyof TokenCounts>) d[key] = Math.max(0, now[key] - before[key]);
  return d;
}

function windowsOf(limits: Record<string, unknown>): UsageWindow[] {
  const prefix = typeof limits.limit_id === 'string' && limits.limit_id !== 'codex' ? `${limits.limit_id} ` : '';
  const windows: UsageWindow[] = [];
  for (const slot of ['primary', 'secondary']) {
    const w = limits[slot];
    if (!isObject(w) || typeof w.used_percent !== 'number') continue;
    const minutes = count(w.window_minutes);
    const name = WINDOW_NAMES[minutes] ?? (minutes ? `${minutes}m` : slot);
    const resetsAt = count(w.resets_at);
    windows.push({
      name: prefix + name,
      used_percent: w.used_percent,
      resets_at: resetsAt ? new Date(resetsAt * 1000).toISOString() : null,
    });
  }
  return windows;
}
