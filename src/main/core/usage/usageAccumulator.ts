/** What a CLI's records add up to, before pricing: one accumulator per CLI record format. */
import { EMPTY_TOKENS, type TokenCounts, type UsageWindow } from '../../../shared/usage';

export interface ReadUsage {
  tokens: TokenCounts;
  /** The CLI's own cost for the tokens above; undefined when its records carry none (or it lags them). */
  cliCostUsd?: number;
  /** Tokens per model, for pricing. */
  byModel: Map<string, TokenCounts>;
  model?: string;
  contextUsed?: number;
  contextWindow?: number;
  windows: UsageWindow[];
}

/** Consumes a CLI's records one at a time, in file order. */
export interface UsageAccumulator {
  push(record: unknown): void;
  current(): ReadUsage;
}

export function emptyReadUsage(): ReadUsage {
  return { tokens: { ...EMPTY_TOKENS }, byModel: new Map(), windows: [] };
}

export function addTokens(into: TokenCounts, add: TokenCounts): void {
  into.input_tokens += add.input_tokens;
  into.output_tokens += add.output_tokens;
  into.cache_read_tokens += add.cache_read_tokens;
  into.cache_write_tokens += add.cache_write_tokens;
}

export function addModelTokens(byModel: Map<string, TokenCounts>, model: string, add: TokenCounts): void {
  const counts = byModel.get(model) ?? { ...EMPTY_TOKENS };
  addTokens(counts, add);
  byModel.set(model, counts);
}

/** A non-negative integer field, or 0. */
export function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A response's counts from a Gemini-style API, whose prompt count includes the part read from the cache: split off. */
export function splitCachedPrompt(prompt: number, cached: number, output: number): TokenCounts {
  const fromCache = Math.min(prompt, cached);
  return { input_tokens: prompt - fromCache, output_tokens: output, cache_read_tokens: fromCache, cache_write_tokens: 0 };
}

/** One model response: its tokens added to the totals and to its model's (the last named model is the current one); the model when it has a name. */
export function addResponse(usage: ReadUsage, tokens: TokenCounts, model: unknown): string | undefined {
  addTokens(usage.tokens, tokens);
  if (typeof model !== 'string' || !model) return undefined;
  addModelTokens(usage.byModel, model, tokens);
  usage.model = model;
  return model;
}

/** Every token of a response: what its context held once it was answered. */
export function totalTokens(t: TokenCounts): number {
  return t.input_tokens + t.output_tokens + t.cache_read_tokens + t.cache_write_tokens;
}
