import { describe, expect, it } from 'vitest';
import { VirtualClock } from './clock';

describe('VirtualClock', () => {
  it('fires timers in due order at their own due time, including timers set by timers', () => {
    const clock = new VirtualClock(1_000);
    const fired: Array<[string, number]> = [];
    clock.setTimer(() => fired.push(['b', clock.now()]), 200);
    clock.setTimer(() => {
      fired.push(['a', clock.now()]);
      clock.setTimer(() => fired.push(['c', clock.now()]), 50);
    }, 100);
    clock.advanceTo(1_500);
    expect(fired).toEqual([
      ['a', 1_100],
      ['c', 1_150],
      ['b', 1_200],
    ]);
    expect(clock.now()).toBe(1_500);
  });

  it('cancelled timers never fire and do not count as pending', () => {
    const clock = new VirtualClock(0);
    let fired = false;
    const t = clock.setTimer(() => (fired = true), 10);
    expect(clock.pendingTimers).toBe(1);
    t.dispose();
    clock.advanceBy(100);
    expect(fired).toBe(false);
    expect(clock.pendingTimers).toBe(0);
  });
});
