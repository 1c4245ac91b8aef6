/**
 * Claude Code's transcript (`$CLAUDE_CONFIG_DIR/projects/<folder>/<session>.jsonl`, the file its
 * hooks name as `transcript_path`), as Claude Code 2.1.332 writes it (observed against the mock
 * Messages API, sample in claudeTranscript.test.ts):
 * - `{"type":"assistant","message":{"id","model","usage":{input_tokens, output_tokens,
 *   cache_read_input_tokens, cache_creation_input_tokens, …}}}`: one line per content block of a
 *   response, each with the response's whole usage, so a message id counts once.
 * - `{"type":"cost-state","totalCostUSD",…}`: its own running cost of the session, written after
 *   a turn; it is the CLI's figure only while no response came after it.
 * Requests outside the conversation (its side requests, sub-agents' own transcripts) are not in
 * this file (docs/usage.md).
 */
import { addResponse, count, emptyReadUsage, isObject, totalTokens, type ReadUsage, type UsageAccumulator } from './usageAccumulator';
import type { TokenCounts } from '../../../shared/usage';

/** Claude Code's own model for a response it made up locally (an error shown as a message). */
const SYNTHETIC_MODEL = '<synthetic>';

export class ClaudeTranscriptAccumulator implements UsageAccumulator {
  private readonly usage = emptyReadUsage();
  private readonly seen = new Set<string>();
  private cost: number | undefined;
  private responseAfterCost = false;

  push(record: unknown): void {
    if (!isObject(record)) return;
    if (record.type === 'assistant') this.pushAssistant(record.message);
    else if (record.type === 'cost-state' && typeof record.totalCostUSD === 'number') {
      this.cost = record.totalCostUSD;
      this.responseAfterCost = false;
    }
  }

  current(): ReadUsage {
    return { ...this.usage, cliCostUsd: this.responseAfterCost ? undefined : this.cost };
  }

  private pushAssistant(message: unknown): void {
    if (!isObject(message) || !isObject(message.usage)) return;
    const id = typeof message.id === 'string' ? message.id : undefined;
    if (id !== undefined) {
      if (this.seen.has(id)) return;
      this.seen.add(id);
    }
    const model = typeof message.model === 'string' ? message.model : undefined;
    if (model === SYNTHETIC_MODEL) return;
    const tokens = tokensOf(message.usage);
    addResponse(this.usage, tokens, model);
    this.usage.contextUsed = totalTokens(tokens);
    this.responseAfterCost = true;
  }
}

function tokensOf(usage: Record<string, unknown>): TokenCounts {
  return {
    input_tokens: count(usage.input_tokens),
    output_tokens: count(usage.output_tokens),
    cache_read_tokens: count(usage.cache_read_input_tokens),
    cache_write_tokens: count(usage.cache_creation_input_tokens),
  };
}
