/**
 * Gemini CLI's chat recording (`<GEMINI_CLI_HOME or ~>/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`,
 * appended to with `appendFileSync`), as Gemini CLI 0.61.0 writes it (`ChatRecordingService`,
 * bundle/chunk-JDPZ4CE3.js:286195): one `{"id","type":"gemini","model","tokens":{input, output,
 * cached, thoughts, tool, total}}` per model response of the conversation, from the response's
 * `usageMetadata` (`recordMessageTokens`). A message is appended again whole when it changes (its
 * tool calls, its tokens attached late), so it is counted once per id: the first record of it that
 * carries tokens. `input` (promptTokenCount) includes its `cached` part (split off here); thoughts
 * are output; `tool` (toolUsePromptTokenCount) is input the API adds for its built-in tools.
 * Gemini CLI records no cost and no usage windows; requests outside the conversation (its
 * next-speaker and loop checks, model routing, session summaries) are not in the file.
 */
import { addResponse, count, emptyReadUsage, isObject, splitCachedPrompt, type ReadUsage, type UsageAccumulator } from './usageAccumulator';
import type { TokenCounts } from '../../../shared/usage';

/**
 * The context window Gemini CLI 0.61.0 itself assumes (`tokenLimit`, bundle/chunk-JDPZ4CE3.js:333185,
 * models in `config/models.js`): 256,000 for its two Gemma 4 models, 1,048,576 for every other.
 */
const GEMMA_4_CONTEXT_WINDOW: Readonly<Record<string, number>> = { 'gemma-4-31b-it': 256_000, 'gemma-4-26b-a4b-it': 256_000 };
const DEFAULT_CONTEXT_WINDOW = 1_048_576;

export class GeminiChatAccumulator implements UsageAccumulator {
  private readonly usage = emptyReadUsage();
  private readonly counted = new Set<string>();

  push(record: unknown): void {
    if (!isObject(record) || record.type !== 'gemini' || typeof record.id !== 'string' || !isObject(record.tokens)) return;
    if (this.counted.has(record.id)) return;
    this.counted.add(record.id);
    const tokens = tokensOf(record.tokens);
    const model = addResponse(this.usage, tokens, record.model);
    if (model) {
      this.usage.contextWindow = GEMMA_4_CONTEXT_WINDOW[model] ?? DEFAULT_CONTEXT_WINDOW;
    }
    // Thinking is not sent back with the conversation: the context is the prompt and the answer.
    this.usage.contextUsed = count(record.tokens.input) + count(record.tokens.tool) + count(record.tokens.output);
  }

  current(): ReadUsage {
    return this.usage;
  }
}

function tokensOf(tokens: Record<string, unknown>): TokenCounts {
  return splitCachedPrompt(count(tokens.input) + count(tokens.tool), count(tokens.cached), count(tokens.output) + count(tokens.thoughts));
}
