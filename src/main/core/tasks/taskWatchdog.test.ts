import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../base';
import { TaskWatchdog, type WatchdogExpiry } from './taskWatchdog';

const TIMEOUTS = { idleMs: 2_000, turnMs: 5_000, wallClockMs: 20_000 };

/** A watchdog on a virtual clock; `fired` records each expiry with its time since setup. */
function setup() {
  const clock = new VirtualClock();
  const start = clock.now();
  const watchdog = new TaskWatchdog(clock, TIMEOUTS, 0);
  const fired: Array<WatchdogExpiry & { at: number }> = [];
  watchdog.onDidExpire((e) => fired.push({ ...e, at: clock.now() - start }));
  return { clock, watchdog, fired, start };
}

describe('TaskWatchdog', () => {
  it('fires idle after the idle timeout with no message', () => {
    const { clock, watchdog, fired } = setup();
    watchdog.start();
    clock.advanceBy(1_999);
    expect(fired).toEqual([]);
    clock.advanceBy(1);
    expect(fired.map((f) => [f.trigger, f.at])).toEqual([['idle', 2_000]]);
  });

  it('every message re-arms idle; only assistant messages re-arm turn; nothing re-arms the wall clock', () => {
    const { clock, watchdog, fired } = setup();
    watchdog.start();
    for (let t = 0; t < 25; t++) {
      clock.advanceBy(1_000);
      watchdog.noteMessage(); // a message every second: never idle
      if (t % 4 === 3) watchdog.noteAssistantMessage(); // an assistant message every 4 s: never a turn timeout
    }
    expect(fired.map((f) => [f.trigger, f.at])).toEqual([['wall_clock', 20_000]]);
  });

  it('a trickling stream without assistant messages hits the turn deadline', () => {
    const { clock, watchdog, fired } = setup();
    watchdog.start();
    for (let t = 0; t < 6; t++) {
      clock.advanceBy(1_000);
      watchdog.noteMessage();
    }
    expect(fired.map((f) => [f.trigger, f.at])).toEqual([['turn', 5_000]]);
  });

  it('an extension moves the deadline; the next message re-arms it normally', () => {
    const { clock, watchdog, fired, start } = setup();
    watchdog.start();
    clock.advanceBy(2_000);
    watchdog.extend('idle', start + 10_000);
    expect(watchdog.deadlineOf('idle')).toBe(start + 10_000);
    clock.advanceBy(3_000); // 5 s: turn fires, idle held
    watchdog.noteMessage(); // at 5 s: idle re-armed to 7 s
    clock.advanceBy(2_000);
    expect(fired.map((f) => [f.trigger, f.at])).toEqual([
      ['idle', 2_000],
      ['turn', 5_000],
      ['idle', 7_000],
    ]);
  });

  it('before the first message the deadlines wait at least the start-up grace', () => {
    const clock = new VirtualClock();
    const start = clock.now();
    const watchdog = new TaskWatchdog(clock, TIMEOUTS, 30_000);
    const fired: Array<[string, number]> = [];
    watchdog.onDidExpire((e) => fired.push([e.trigger, clock.now() - start]));
    watchdog.start();
    clock.advanceBy(29_999);
    expect(fired).toEqual([['wall_clock', 20_000]]);
    watchdog.start();
    clock.advanceBy(5_000);
    watchdog.noteMessage(); // the agent is up: the normal idle timeout applies from here
    clock.advanceBy(2_000);
    expect(fired.slice(1)).toEqual([['idle', 29_999 + 7_000]]);
  });

  it('stop and dispose leave no timer behind and fire nothing', () => {
    const { clock, watchdog, fired } = setup();
    watchdog.start();
    expect(clock.pendingTimers).toBe(3);
    watchdog.stop();
    expect(clock.pendingTimers).toBe(0);
    watchdog.noteMessage(); // ignored once stopped
    clock.advanceBy(60_000);
    expect(fired).toEqual([]);
    watchdog.start();
    watchdog.dispose();
    expect(clock.pendingTimers).toBe(0);
  });
});
