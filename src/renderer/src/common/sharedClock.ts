/**
 * One ticking clock for every badge that shows elapsed time: with 30 panes a timer each would wake
 * the page 30 times a second for the same answer. The interval runs only while someone listens.
 */
import { useSyncExternalStore } from 'react';

const CLOCK_TICK_MS = 1000;

const listeners = new Set<() => void>();
let now = Date.now();
let interval: number | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (interval === undefined) {
    now = Date.now();
    interval = window.setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, CLOCK_TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0 || interval === undefined) return;
    window.clearInterval(interval);
    interval = undefined;
  };
}

const noSubscription = () => () => undefined;
const wallClock = () => Date.now();

/** The current time, re-rendered once a second from the shared clock while `active`. */
export function useNow(active = true): number {
  const snapshot = active ? () => now : wallClock;
  // The same snapshot when rendered to a string (tests render components on the server).
  return useSyncExternalStore(active ? subscribe : noSubscription, snapshot, snapshot);
}
