/**
 * The per-read work of an agent's usage without an entry around it (bench/usage.ts): the same
 * tail, accumulator, pricing and history an agent's usage decoration runs at each read, and the
 * capability's coalesced save; and the receiver's work per status-line report.
 */
import { CoalescedSave, SAVE_WINDOW_MS } from '../coalescedSave';
import { ClaudeTranscriptAccumulator } from '../claudeTranscript';
import { JsonlTail } from '../jsonlTail';
import { toUsageRecord } from '../pricing';
import { UsageHistory } from '../usageHistory';
import type { UsageRecord, UsageWindow } from '../../../../shared/usage';
import { statusLineText, windowsOfStatusLine } from '../claudeStatusLine';

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

/** What the receiver does with one posted status-line body: parse, map, compare with the windows known (AgentUsage.reportWindows), answer the line. */
export function statusLineReceiver(): (body: string) => string {
  let known: UsageWindow[] | undefined;
  return (body) => {
    const input = JSON.parse(body) as unknown;
    const windows = windowsOfStatusLine(input);
    if (windows && JSON.stringify(windows) !== JSON.stringify(known)) known = windows;
    return statusLineText(input, known ?? []);
  };
}
