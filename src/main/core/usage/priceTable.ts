/**
 * Prices per million tokens and context windows, for CLIs whose records carry no cost of their
 * own. Data, not logic: one row per model id as the CLI records it.
 *
 * Source: the model catalog built into Claude Code 2.1.332 (`pricing_tiers` and each model's
 * `pricing` and `context.window`, read from its binary on 2026-11-29); Claude Code's own
 * `cost-state` figure for claude-opus-5-5 equals these prices applied to its tokens
 * (claudeTranscript.test.ts). OpenAI's and Google's models have no row: Codex, Gemini CLI and
 * the others' models are `unpriced` unless their CLI reports a cost (docs/usage.md).
 */
export interface ModelPrice {
  /** USD per million tokens. */
  input: number;
  output: number;
  cacheRead: number;
  /** Five-minute cache writes (Claude Code's default). */
  cacheWrite: number;
}

const tier = (input: number, output: number, cacheWrite: number, cacheRead: number): ModelPrice => ({
  input,
  output,
  cacheRead,
  cacheWrite,
});

const TIERS = {
  haiku_35: tier(0.8, 4, 1, 0.08),
  haiku_45: tier(1, 5, 1.25, 0.1),
  haiku_55: tier(0.1, 0.5, 0.125, 0.01),
  tier_2_10: tier(2, 10, 2.5, 0.2),
  tier_2_10_cache_read_0_10: tier(2, 10, 2.5, 0.1),
  tier_3_15: tier(3, 15, 3.75, 0.3),
  tier_4_20_cache_read_0_20: tier(4, 20, 5, 0.2),
  tier_5_25: tier(5, 25, 6.25, 0.5),
  tier_8_40_cache_read_0_20: tier(8, 40, 10, 0.2),
  tier_10_50: tier(10, 50, 12.5, 1),
  tier_10_50_cache_read_0_25: tier(10, 50, 12.5, 0.25),
  tier_15_75: tier(15, 75, 18.75, 1.5),
} as const;

interface ModelRow {
  price: ModelPrice;
  contextWindow?: number;
}

const row = (price: ModelPrice, contextWindow?: number): ModelRow => ({ price, ...(contextWindow ? { contextWindow } : {}) });

export const MODEL_TABLE: Readonly<Record<string, ModelRow>> = {
  'claude-3-5-haiku': row(TIERS.haiku_35),
  'claude-haiku-4-5': row(TIERS.haiku_45, 200_000),
  'claude-haiku-5-5': row(TIERS.haiku_55, 1_000_000),
  'claude-3-5-sonnet': row(TIERS.tier_3_15),
  'claude-3-7-sonnet': row(TIERS.tier_3_15),
  'claude-sonnet-4-0': row(TIERS.tier_3_15, 200_000),
  'claude-sonnet-4-5': row(TIERS.tier_3_15, 200_000),
  'claude-sonnet-4-6': row(TIERS.tier_3_15, 200_000),
  'claude-sonnet-5': row(TIERS.tier_2_10, 1_000_000),
  'claude-sonnet-5-5': row(TIERS.tier_2_10_cache_read_0_10, 1_000_000),
  'claude-opus-4-0': row(TIERS.tier_15_75, 200_000),
  'claude-opus-4-1': row(TIERS.tier_15_75, 200_000),
  'claude-opus-4-5': row(TIERS.tier_5_25, 200_000),
  'claude-opus-4-6': row(TIERS.tier_5_25, 200_000),
  'claude-opus-4-7': row(TIERS.tier_5_25, 1_000_000),
  'claude-opus-4-8': row(TIERS.tier_5_25, 1_000_000),
  'claude-opus-5': row(TIERS.tier_5_25, 1_000_000),
  'claude-opus-5-5': row(TIERS.tier_4_20_cache_read_0_20, 1_000_000),
  'claude-fable-5': row(TIERS.tier_10_50, 1_000_000),
  'claude-fable-5-1': row(TIERS.tier_10_50_cache_read_0_25, 1_000_000),
  'claude-fable-5-2': row(TIERS.tier_8_40_cache_read_0_20, 1_000_000),
  'claude-mythos-5': row(TIERS.tier_10_50, 1_000_000),
  'claude-mythos-5-1': row(TIERS.tier_10_50_cache_read_0_25, 1_000_000),
  'claude-mythos-5-2': row(TIERS.tier_8_40_cache_read_0_20, 1_000_000),
};

/** A model's row: its exact id, else the id without a date suffix (`claude-haiku-4-5-20251001`). */
export function modelRow(model: string): ModelRow | undefined {
  return MODEL_TABLE[model] ?? MODEL_TABLE[model.replace(/-\d{8}$/, '')];
}
