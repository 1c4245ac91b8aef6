/**
 * The per-read work of an agent's usage without an entry around it (bench/usage.ts): the same
 * tail, accumulator, pricing and history an agent's usage decoration runs at each read, and the
 * capability's coalesced save.
 */
import { CoalescedSave, SAVE_WINDOW_MS } from '../coalescedSave';
import { ClaudeTranscriptAccumulator } from '../claudeTranscript';
import { JsonlTail } from '../jsonlTail';
import { toUsageRecord } from '../pricing';
import { UsageHistory } from '../usageHistory';
import type { UsageRecord } from '../../../../shared/usage';

export { SAVE_WINDOW_MS, UsageHistory };

export function claudeTranscriptReader(path: string, history: UsageHistory): { refresh(): UsageRecord; flush(): void } {
  const tail = new JsonlTail(path);
  const accumulator = new ClaudeTranscriptAccumulator();
  const saver = new CoalescedSave(() => history.save());
  return {
    flush: () => saver.flush(),
    refresh() {
      for (const record of tail.read().records) accumulator.push(record);
      const read = accumulator.current();
      const record = toUsageRecord(read, 'claude transcript');
      if (history.observe({ path, ...read.tokens, cost_usd: record.cost_usd, worktree: undefined })) saver.request();
      return record;
    },
  };
}
