/**
 * pi's session file (`<agent dir>/sessions/--<cwd>--/<time>_<session>.jsonl`, agent dir
 * `$PI_CODING_AGENT_DIR` or `~/.pi/agent`), as pi 0.73.1 writes it (`SessionManager.appendMessage`,
 * dist/core/session-manager.js; sample in usageReaders.test.ts):
 * - `{"type":"session","id","cwd",…}` first;
 * - `{"type":"message","id","message":{"role":"assistant","model","usage":{input, output,
 *   cacheRead, cacheWrite, totalTokens, cost:{…, total}}}}` per response. `input` excludes the
 *   cached part (pi splits `prompt_tokens` itself, pi-ai openai-completions.js); `cost.total` is
 *   pi's own price of the response from its model catalog or models.json (0 without prices).
 * pi's footer adds up exactly these lines (modes/interactive/components/footer.js), so the sums
 * and cost match what it shows. The context window is not in the file.
 */
import { addResponse, count, emptyReadUsage, isObject, type ReadUsage, type UsageAccumulator } from './usageAccumulator';
import { roundUsd } from './pricing';
import type { TokenCounts } from '../../../shared/usage';

export class PiSessionAccumulator implements UsageAccumulator {
  private readonly usage = emptyReadUsage();
  private readonly seen = new Set<string>();
  private cost = 0;

  push(record: unknown): void {
    if (!isObject(record) || record.type !== 'message' || !isObject(record.message)) return;
    const message = record.message;
    if (message.role !== 'assistant' || !isObject(message.usage)) return;
    if (typeof record.id === 'string') {
      if (this.seen.has(record.id)) return;
      this.seen.add(record.id);
    }
    const tokens = tokensOf(message.usage);
    addResponse(this.usage, tokens, message.model);
    if (isObject(message.usage.cost) && typeof message.usage.cost.total === 'number' && Number.isFinite(message.usage.cost.total))
      this.cost += message.usage.cost.total;
    this.usage.contextUsed = tokens.input_tokens + tokens.output_tokens + tokens.cache_read_tokens + tokens.cache_write_tokens;
  }

  current(): ReadUsage {
    return { ...this.usage, cliCostUsd: roundUsd(this.cost) };
  }
}

function tokensOf(usage: Record<string, unknown>): TokenCounts {
  return {
    input_tokens: count(usage.input),
    output_tokens: count(usage.output),
    cache_read_tokens: count(usage.cacheRead),
    cache_write_tokens: count(usage.cacheWrite),
  };
}
