/**
 * Warnings before the wall: the first time an agent's usage window is at 80 % or more, the agent
 * is flagged for a person (attention: the pane's mark and a notification) with the reset time and
 * the entry gets an inbox row (`usageWarnings`), once per window and reset (a new reset is a new
 * window). A row stays until a person dismisses it or the window is no longer past the share.
 */
import { Emitter, serviceKey, type ServiceKey } from '../base';
import type { DecorationKey, EntryDecoration, EntryDecorator } from '../sessions';
import type { ProcessInfo } from '../../../shared/model';
import { InvalidArgumentError } from '../../../shared/errors';
import { WINDOW_WARNING_PERCENT, type UsageRecord, type UsageWarning } from '../../../shared/usage';

export interface AttentionHost {
  requestAttention(id: string, reason: string, requestedBy: string): unknown;
}

/** One agent's open warnings: what its inbox rows show. */
class WarningRows implements EntryDecoration {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  rows: UsageWarning[] = [];

  constructor(private readonly onDispose: () => void) {}

  describe(): Partial<ProcessInfo> {
    return this.rows.length ? { usageWarnings: this.rows } : {};
  }

  replace(rows: UsageWarning[]): void {
    if (JSON.stringify(rows) === JSON.stringify(this.rows)) return;
    this.rows = rows;
    this.changed.fire();
  }

  dispose(): void {
    this.onDispose();
    this.changed.dispose();
  }
}

export const USAGE_WARNING_ROWS: DecorationKey<WarningRows> = serviceKey('usage warning rows');

const keyOf = (id: string, window: string, resetsAt: string | null) => `${id}|${window}|${resetsAt ?? ''}`;

export class WindowWarnings {
  /** Every window and reset warned about, dismissed or not: each is told once. */
  private readonly warned = new Set<string>();
  private readonly dismissed = new Set<string>();
  private readonly rowsById = new Map<string, WarningRows>();

  constructor(
    private readonly host: AttentionHost,
    private readonly now: () => number = Date.now,
  ) {}

  /** Agent entries get a place for their rows; the usage decoration feeds it through `check`. */
  readonly decorator: EntryDecorator<WarningRows> = (entry) => {
    if (entry.kind !== 'agent') return undefined;
    const rows = new WarningRows(() => this.rowsById.delete(entry.id));
    this.rowsById.set(entry.id, rows);
    return rows;
  };

  check(entry: { id: string; name: string }, record: UsageRecord): void {
    const previous = this.rowsById.get(entry.id)?.rows ?? [];
    const rows: UsageWarning[] = [];
    for (const w of record.windows) {
      if (w.used_percent < WINDOW_WARNING_PERCENT) continue;
      const key = keyOf(entry.id, w.name, w.resets_at);
      if (this.dismissed.has(key)) continue;
      const earlier = previous.find((r) => r.window === w.name && r.resets_at === w.resets_at);
      rows.push({ window: w.name, used_percent: w.used_percent, resets_at: w.resets_at, raised_at: earlier?.raised_at ?? this.now() });
      if (this.warned.has(key)) continue;
      this.warned.add(key);
      const resets = w.resets_at ? `; it resets at ${w.resets_at}` : '';
      this.host.requestAttention(entry.id, `${entry.name}: ${w.name} usage window at ${Math.round(w.used_percent)} %${resets}`, 'usage');
    }
    this.rowsById.get(entry.id)?.replace(rows);
  }

  /** A person read the row: it goes, and the same window and reset is not shown again. */
  dismiss(id: string, window: string, resetsAt: string | null): null {
    const rows = this.rowsById.get(id);
    if (!rows?.rows.some((r) => r.window === window && r.resets_at === resetsAt))
      throw new InvalidArgumentError(`No usage warning of ${id} for the ${window} window${resetsAt ? ` resetting at ${resetsAt}` : ''}`);
    this.dismissed.add(keyOf(id, window, resetsAt));
    rows.replace(rows.rows.filter((r) => !(r.window === window && r.resets_at === resetsAt)));
    return null;
  }
}

export const USAGE_WARNINGS: ServiceKey<WindowWarnings> = serviceKey('usage warnings');
