/**
 * Timers as an entry decoration: each entry's ProcessInfo carries the live timers it owns
 * (nearest first), so the pane header, the sidebar and get_process_status show them.
 */
import { serviceKey } from '../base';
import { KeyedStateDecoration, type DecorationKey, type EntryDecoration, type EntryDecorator } from '../sessions';
import type { TimerManager } from './timerManager';

export const TIMER_DECORATION: DecorationKey<EntryDecoration> = serviceKey('timers');

/** Decorates every entry with the timers it owns, while the manager lives. */
export function timerDecorator(manager: TimerManager): EntryDecorator {
  return (entry) => {
    if (manager.isDisposed) return undefined;
    return new KeyedStateDecoration(entry.id, manager.onDidChangeTimers, () => {
      const timers = manager.summariesFor(entry.id);
      return timers.length > 0 ? { timers } : {};
    });
  };
}
