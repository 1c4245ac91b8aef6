/** Turns what a CLI's records add up to into a usage record: the CLI's own cost, else the price table's. */
import type { CostSource, TokenCounts, UsageRecord } from '../../../shared/usage';
import { modelRow, type ModelPrice } from './priceTable';
import type { ReadUsage } from './usageAccumulator';

const PER_MILLION = 1_000_000;

export function toUsageRecord(read: ReadUsage, source: string | null): UsageRecord {
  const { cost_usd, cost_source } = costOf(read);
  return {
    ...read.tokens,
    cost_usd,
    cost_source,
    context_used: read.contextUsed ?? null,
    context_window: read.contextWindow ?? (read.model ? modelRow(read.model)?.contextWindow : undefined) ?? null,
    windows: read.windows,
    model: read.model ?? null,
    source,
  };
}

function costOf(read: ReadUsage): { cost_usd: number | null; cost_source: CostSource } {
  if (read.cliCostUsd !== undefined) return { cost_usd: read.cliCostUsd, cost_source: 'cli' };
  let total = 0;
  for (const [model, tokens] of read.byModel) {
    const price = modelRow(model)?.price;
    if (!price) return { cost_usd: null, cost_source: 'unpriced' };
    total += priced(tokens, price);
  }
  if (read.byModel.size === 0 && hasTokens(read.tokens)) return { cost_usd: null, cost_source: 'unpriced' };
  return { cost_usd: roundUsd(total), cost_source: 'estimated' };
}

function priced(t: TokenCounts, p: ModelPrice): number {
  return (
    (t.input_tokens * p.input + t.output_tokens * p.output + t.cache_read_tokens * p.cacheRead + t.cache_write_tokens * p.cacheWrite) /
    PER_MILLION
  );
}

/** Micro-dollars: the precision the CLIs print, without float noise in sums. */
export function roundUsd(usd: number): number {
  return Math.round(usd * PER_MILLION) / PER_MILLION;
}

function hasTokens(t: TokenCounts): boolean {
  return t.input_tokens + t.output_tokens + t.cache_read_tokens + t.cache_write_tokens > 0;
}
