/**
 * Warnings before the wall: the first time an agent's usage window is at 80 % or more, the agent
 * is flagged for a person (attention: the pane's mark and a notification) with the reset time,
 * once per window and reset (a new reset is a new window).
 */
import { WINDOW_WARNING_PERCENT, type UsageRecord } from '../../../shared/usage';

export interface AttentionHost {
  requestAttention(id: string, reason: string, requestedBy: string): unknown;
}

export class WindowWarnings {
  private readonly warned = new Set<string>();

  constructor(private readonly host: AttentionHost) {}

  check(entry: { id: string; name: string }, record: UsageRecord): void {
    for (const w of record.windows) {
      if (w.used_percent < WINDOW_WARNING_PERCENT) continue;
      const key = `${entry.id}|${w.name}|${w.resets_at ?? ''}`;
      if (this.warned.has(key)) continue;
      this.warned.add(key);
      const resets = w.resets_at ? `; it resets at ${w.resets_at}` : '';
      this.host.requestAttention(entry.id, `${entry.name}: ${w.name} usage window at ${Math.round(w.used_percent)} %${resets}`, 'usage');
    }
  }
}
