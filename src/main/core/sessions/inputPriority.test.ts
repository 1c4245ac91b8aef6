import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BACKGROUND_BURST_BYTES,
  BACKGROUND_BYTES_PER_SECOND,
  InputPriority,
  MAX_HOLD_MS,
  TYPING_WINDOW_MS,
  type PriorityClient,
} from './inputPriority';

function client() {
  const changes: boolean[] = [];
  const c: PriorityClient & { changes: boolean[] } = { changes, setHeld: (held) => changes.push(held) };
  return c;
}

/** A flood's PTY reads: 4 KB each (the kernel's tty buffer), `perMs` of them a millisecond, for `ms`. */
function flood(priority: InputPriority, entry: PriorityClient, clock: { now: number }, ms: number, held?: { changes: boolean[] }): number {
  let read = 0;
  for (let t = 0; t < ms; t++) {
    clock.now += 1;
    vi.advanceTimersByTime(1);
    if (held?.changes.at(-1) === true) continue; // paused: its PTY is not read
    priority.read(entry, 4096);
    read += 4096;
  }
  return read;
}

/** An InputPriority on a fake clock, with an entry typed into and one in the background. */
function harness() {
  vi.useFakeTimers();
  const clock = { now: 0 };
  return { clock, priority: new InputPriority(() => clock.now), typedInto: client(), background: client() };
}

describe('InputPriority', () => {
  afterEach(() => vi.useRealTimers());

  it('nobody typing: a flood reads as fast as it prints', () => {
    const { clock, priority, background } = harness();
    flood(priority, background, clock, 1_000, background);
    expect(background.changes).toEqual([]);
  });

  it('while someone types into one entry, a flood in another reads about BACKGROUND_BYTES_PER_SECOND', () => {
    const { clock, priority, typedInto, background } = harness();
    let read = 0;
    for (let keystroke = 0; keystroke < 10; keystroke++) {
      priority.typed(typedInto);
      read += flood(priority, background, clock, TYPING_WINDOW_MS / 2, background);
    }
    const seconds = (10 * TYPING_WINDOW_MS) / 2 / 1000;
    expect(read).toBeLessThanOrEqual(BACKGROUND_BYTES_PER_SECOND * seconds + BACKGROUND_BURST_BYTES + 4096);
    expect(read).toBeGreaterThan(BACKGROUND_BYTES_PER_SECOND * seconds * 0.5);
    expect(background.changes).toContain(true);
  });

  it('never holds the entry typed into, nor an entry that prints less than its allowance', () => {
    const { clock, priority, typedInto, background: quietLog } = harness();
    for (let ms = 0; ms < 2_000; ms += 100) {
      priority.typed(typedInto);
      priority.read(typedInto, 64 * 1024); // an agent redrawing its whole screen
      priority.read(quietLog, 200); // two log lines every 100 ms
      clock.now += 100;
      vi.advanceTimersByTime(100);
    }
    expect(typedInto.changes).toEqual([]);
    expect(quietLog.changes).toEqual([]);
  });

  it('holds a flood at most MAX_HOLD_MS at a time, and not at all once the typing stopped', () => {
    const { clock, priority, typedInto, background } = harness();
    priority.typed(typedInto);
    priority.read(background, 1024 * 1024);
    expect(background.changes).toEqual([true]);
    clock.now += MAX_HOLD_MS;
    vi.advanceTimersByTime(MAX_HOLD_MS);
    expect(background.changes).toEqual([true, false]);

    clock.now += TYPING_WINDOW_MS;
    flood(priority, background, clock, 500, background);
    expect(background.changes).toEqual([true, false]);
  });

  it('releases an entry as soon as it is typed into itself', () => {
    const { priority, typedInto: first, background: second } = harness();
    priority.typed(first);
    priority.read(second, 64 * 1024);
    expect(second.changes).toEqual([true]);
    priority.typed(second);
    expect(second.changes).toEqual([true, false]);
  });

  it('never resumes an entry it was told to forget', () => {
    const { priority, typedInto, background } = harness();
    priority.typed(typedInto);
    priority.read(background, 64 * 1024);
    priority.forget(background);
    vi.advanceTimersByTime(MAX_HOLD_MS);
    expect(background.changes).toEqual([true]);
  });
});
