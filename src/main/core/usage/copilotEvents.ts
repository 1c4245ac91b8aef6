/**
 * Copilot CLI's session event log (`<COPILOT_HOME or ~/.copilot>/session-state/<session>/events.jsonl`),
 * as Copilot CLI 1.0.102 writes it (schemas/session-events.schema.json of its package; sample in
 * usageReaders.test.ts): a durable `session.usage_record` event per model call, `data.usage` =
 * `{model, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens, cost,
 * maxPromptTokens, …}` — the live `assistant.usage` event is ephemeral (never on disk), this is
 * its durable receipt with the same figures. Sub-agents' calls are in the same log (`agentId`).
 * `inputTokens` includes the cached part (Copilot's own accounting subtracts cache read and write
 * to get the uncached input), `outputTokens` includes reasoning. `cost` is a premium-request
 * multiplier, not USD: the cost comes from the price table or is `unpriced`. The context window
 * is `maxPromptTokens`, the prompt limit Copilot applied to the call.
 */
import { addResponse, count, emptyReadUsage, isObject, totalTokens, type ReadUsage, type UsageAccumulator } from './usageAccumulator';
import type { TokenCounts } from '../../../shared/usage';

export class CopilotEventsAccumulator implements UsageAccumulator {
  private readonly usage = emptyReadUsage();
  private readonly seen = new Set<string>();

  push(record: unknown): void {
    if (!isObject(record) || record.type !== 'session.usage_record' || !isObject(record.data) || !isObject(record.data.usage)) return;
    if (typeof record.id === 'string') {
      if (this.seen.has(record.id)) return;
      this.seen.add(record.id);
    }
    const usage = record.data.usage;
    const tokens = tokensOf(usage);
    addResponse(this.usage, tokens, usage.model);
    this.usage.contextUsed = totalTokens(tokens);
    const window = count(usage.maxPromptTokens);
    if (window > 0) this.usage.contextWindow = window;
  }

  current(): ReadUsage {
    return { ...this.usage };
  }
}

function tokensOf(usage: Record<string, unknown>): TokenCounts {
  const cacheRead = count(usage.cacheReadTokens);
  const cacheWrite = count(usage.cacheWriteTokens);
  return {
    input_tokens: Math.max(0, count(usage.inputTokens) - cacheRead - cacheWrite),
    output_tokens: count(usage.outputTokens),
    cache_read_tokens: cacheRead,
    cache_write_tokens: cacheWrite,
  };
}
