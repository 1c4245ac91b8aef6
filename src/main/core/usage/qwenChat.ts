/**
 * Qwen Code's chat recording (`<QWEN_HOME or ~/.qwen>/projects/<sanitized cwd>/chats/<session>.jsonl`,
 * `ChatRecordingService.ensureConversationFile`), as Qwen Code 0.24.4 writes it
 * (`recordAssistantTurn`, chunks/chunk-DPEB6S2R.js:31401):
 * `{"uuid","sessionId","type":"assistant","cwd","model","usageMetadata":{promptTokenCount,
 * candidatesTokenCount, cachedContentTokenCount, thoughtsTokenCount, totalTokenCount},
 * "contextWindowSize"}` per model response of the conversation. `promptTokenCount` includes its
 * cached part (split off here); thoughts are output. Qwen Code records no cost and no usage
 * windows; requests outside the conversation (its classifier, memory extraction) are not in it.
 */
import { addResponse, count, emptyReadUsage, isObject, splitCachedPrompt, type ReadUsage, type UsageAccumulator } from './usageAccumulator';
import type { TokenCounts } from '../../../shared/usage';

export class QwenChatAccumulator implements UsageAccumulator {
  private readonly usage = emptyReadUsage();
  private readonly seen = new Set<string>();

  push(record: unknown): void {
    if (!isObject(record) || record.type !== 'assistant' || !isObject(record.usageMetadata)) return;
    if (typeof record.uuid === 'string') {
      if (this.seen.has(record.uuid)) return;
      this.seen.add(record.uuid);
    }
    const tokens = tokensOf(record.usageMetadata);
    addResponse(this.usage, tokens, record.model);
    this.usage.contextUsed = tokens.input_tokens + tokens.cache_read_tokens + tokens.output_tokens;
    if (count(record.contextWindowSize) > 0) this.usage.contextWindow = count(record.contextWindowSize);
  }

  current(): ReadUsage {
    return this.usage;
  }
}

function tokensOf(usage: Record<string, unknown>): TokenCounts {
  const output = count(usage.candidatesTokenCount) + count(usage.thoughtsTokenCount);
  return splitCachedPrompt(count(usage.promptTokenCount), count(usage.cachedContentTokenCount), output);
}
