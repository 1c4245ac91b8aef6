/**
 * Timers as an entry decoration: each entry's ProcessInfo carries the live timers it owns
 * (nearest first), so the pane header, the sidebar and get_process_status show them.
 */
import { Emitter, serviceKey, type Disposable } from '../base';
import type { DecorationKey, EntryDecoration, EntryDecorator } from '../sessions';
import type { ProcessInfo } from '../../../shared/model';
import type { TimerManager } from './timerManager';

class TimerDecoration implements EntryDecoration {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: Disposable;

  constructor(
    private readonly entryId: string,
    private readonly timers: TimerManager,
  ) {
    this.subscription = timers.onDidChangeTimers((ownerId) => {
      if (ownerId === entryId) this.changed.fire();
    });
  }

  describe(): Partial<ProcessInfo> {
    const timers = this.timers.summariesFor(this.entryId);
    return timers.length > 0 ? { timers } : {};
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

export const TIMER_DECORATION: DecorationKey<EntryDecoration> = serviceKey('timers');

/** Decorates every entry with the timers it owns, while the manager lives. */
export function timerDecorator(manager: TimerManager): EntryDecorator {
  return (entry) => (manager.isDisposed ? undefined : new TimerDecoration(entry.id, manager));
}
