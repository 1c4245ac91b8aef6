/**
 * opencode's model responses as its step-finish parts record them (opencode 1.18.33, posted by
 * the preset's plugin, agents/opencodeStatusPlugin.ts; sample in usageReaders.test.ts):
 * `{id, sessionID, model, tokens: {total, input, output, reasoning, cache: {read, write}}, cost}`.
 * opencode's `getUsage` already splits the cached part off `input` and the reasoning off
 * `output`; reasoning is added back to output (it is billed as output). `cost` is opencode's own
 * price of the step from its model catalog or config (0 without prices), summed as its
 * `opencode stats` sums its messages. Context used: the last step's tokens, as its TUI counts them.
 */
import { addResponse, count, emptyReadUsage, isObject, totalTokens, type ReadUsage, type UsageAccumulator } from './usageAccumulator';
import { roundUsd } from './pricing';
import type { TokenCounts } from '../../../shared/usage';

/** Longer ids are not opencode's (`prt_` + 26 characters). */
const MAX_ID_LENGTH = 200;

export class OpencodeStepAccumulator implements UsageAccumulator {
  private readonly usage = emptyReadUsage();
  private readonly seen = new Set<string>();
  private cost = 0;

  push(record: unknown): void {
    if (!isObject(record) || typeof record.id !== 'string' || record.id.length > MAX_ID_LENGTH || !isObject(record.tokens)) return;
    if (this.seen.has(record.id)) return;
    this.seen.add(record.id);
    const tokens = tokensOf(record.tokens);
    addResponse(this.usage, tokens, record.model);
    if (typeof record.cost === 'number' && Number.isFinite(record.cost) && record.cost > 0) this.cost += record.cost;
    this.usage.contextUsed = totalTokens(tokens);
  }

  current(): ReadUsage {
    return { ...this.usage, cliCostUsd: roundUsd(this.cost) };
  }
}

function tokensOf(tokens: Record<string, unknown>): TokenCounts {
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  return {
    input_tokens: count(tokens.input),
    output_tokens: count(tokens.output) + count(tokens.reasoning),
    cache_read_tokens: count(cache.read),
    cache_write_tokens: count(cache.write),
  };
}
