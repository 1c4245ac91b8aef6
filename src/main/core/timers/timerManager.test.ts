/**
 * The timer manager on a virtual clock with a fake host: exact firing times, idle semantics,
 * ownership, delivery gating, close/exit drops, persistence across a restart, and no clock timer
 * left behind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../base';
import { FakeTimerHost } from './testing/fakeTimerHost';
import { TimerManager, legacyWaitLine } from './timerManager';
import { MemoryTimerStore } from './timerStore';
import { APP_ACTOR, type TimerActor } from './timerTypes';
import { FRESH_AGENT_GRACE_MS } from './idleness';
import { TURN_START_TIMEOUT_MS } from './deliveryScheduler';
import type { SwitchboardError } from '../../../shared/errors';

const as = (processId: string): TimerActor => ({ kind: 'process', processId });

let clock: VirtualClock;
let host: FakeTimerHost;
let store: MemoryTimerStore;
const managers: TimerManager[] = [];

function setup(): TimerManager {
  clock ??= new VirtualClock();
  host ??= new FakeTimerHost(clock);
  store ??= new MemoryTimerStore();
  const manager = new TimerManager({ host, clock, store });
  managers.push(manager);
  return manager;
}

function fresh(): TimerManager {
  clock = new VirtualClock();
  host = new FakeTimerHost(clock);
  store = new MemoryTimerStore();
  return setup();
}

/** Let delivery promises settle (the fake host's deliver is async). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

async function advance(ms: number): Promise<void> {
  clock.advanceBy(ms);
  await settle();
}

function errorOf(fn: () => unknown): SwitchboardError {
  try {
    fn();
  } catch (err) {
    return err as SwitchboardError;
  }
  throw new Error('expected an error');
}

afterEach(() => {
  while (managers.length) managers.pop()!.dispose();
  expect(clock.pendingTimers).toBe(0);
});

describe('delay timers', () => {
  it('deliver the body to an idle owner exactly when due, then move to history', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    const { timer } = timers.setDelay(as('p_a'), { seconds: 30, body: 'check the build', label: 'build' });
    expect(timer).toMatchObject({
      kind: 'delay',
      state: 'pending',
      ownerId: 'p_a',
      remainingMs: 30_000,
      firesAt: clock.now() + 30_000,
      label: 'build',
    });
    await advance(29_999);
    expect(host.delivered).toEqual([]);
    await advance(1);
    expect(host.delivered).toEqual([{ id: 'p_a', text: 'check the build', at: clock.now() }]);
    expect(timers.list(as('p_a'))).toMatchObject({
      timers: [],
      history: [{ id: timer.id, state: 'fired', reason: 'delay', ownerId: 'p_a' }],
    });
  });

  it('wait for a busy owner: due on time, typed only once it is back at its prompt', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    const fired: string[] = [];
    timers.onDidFireTimer((e) => fired.push(e.timer.id));
    const { timer } = timers.setDelay(as('p_a'), { seconds: 1, body: 'later' });
    host.setStatus('p_a', 'active');
    await advance(1_000);
    expect(fired).toEqual([timer.id]);
    expect(timers.summariesFor('p_a')).toMatchObject([{ id: timer.id, state: 'due' }]);
    host.setStatus('p_a', 'waiting');
    await advance(60_000);
    expect(host.delivered).toEqual([]);
    host.setStatus('p_a', 'idle');
    await settle();
    expect(host.delivered.map((d) => d.text)).toEqual(['later']);
  });

  it('pause keeps the remaining time exactly; resume counts it down', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    const { timer } = timers.setDelay(as('p_a'), { seconds: 10, body: 'x' });
    await advance(3_250);
    const paused = timers.pause(as('p_a'), timer.id);
    expect(paused).toMatchObject({ state: 'paused', remainingMs: 6_750 });
    expect(paused.firesAt).toBeUndefined();
    expect(clock.pendingTimers).toBe(0);
    await advance(3_600_000);
    expect(host.delivered).toEqual([]);
    expect(timers.resume(as('p_a'), timer.id)).toMatchObject({ state: 'pending', remainingMs: 6_750, firesAt: clock.now() + 6_750 });
    await advance(6_749);
    expect(host.delivered).toEqual([]);
    await advance(1);
    expect(host.delivered).toHaveLength(1);
  });

  it('pause and resume refuse the wrong state with a clear message', () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    const { timer } = timers.setDelay(as('p_a'), { seconds: 10, body: 'x' });
    expect(errorOf(() => timers.resume(as('p_a'), timer.id)).message).toMatch(/is not paused \(it is pending\)/);
    timers.pause(as('p_a'), timer.id);
    expect(errorOf(() => timers.pause(as('p_a'), timer.id)).message).toMatch(/already paused/);
  });

  it('cancel stops it for good and records who cancelled', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    const { timer } = timers.setDelay(as('p_a'), { seconds: 5, body: 'x' });
    expect(timers.cancel(APP_ACTOR, timer.id)).toMatchObject({ state: 'cancelled', reason: 'cancelled by external' });
    await advance(10_000);
    expect(host.delivered).toEqual([]);
    expect(errorOf(() => timers.cancel(APP_ACTOR, timer.id)).code).toBe('not_found');
  });

  it('fire now delivers at once (UI)', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    const { timer } = timers.setDelay(as('p_a'), { seconds: 500, body: 'now please' });
    timers.pause(APP_ACTOR, timer.id);
    timers.fireNow(APP_ACTOR, timer.id);
    await settle();
    expect(host.delivered.map((d) => d.text)).toEqual(['now please']);
    expect(timers.list(APP_ACTOR).history[0]).toMatchObject({ state: 'fired', reason: 'fire_now' });
  });

  it('timer_wait (legacy) delivers its fixed line to the caller; an external caller is told to use timer_set', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    timers.setLegacyWait(as('p_a'), { seconds: 2, label: 'nap' });
    await advance(2_000);
    expect(host.delivered.map((d) => d.text)).toEqual([legacyWaitLine(2, 'nap')]);
    expect(legacyWaitLine(2, 'nap')).toBe('[switchboard] timer_wait: 2 s elapsed (nap).');
    expect(errorOf(() => timers.setLegacyWait(APP_ACTOR, { seconds: 1 })).message).toMatch(/Use timer_set with owner_process_id/);
  });

  it('a second due body waits until the owner took the first one (went busy) and is idle again', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    timers.setDelay(as('p_a'), { seconds: 1, body: 'first' });
    timers.setDelay(as('p_a'), { seconds: 1, body: 'second' });
    await advance(1_000);
    expect(host.delivered.map((d) => d.text)).toEqual(['first']);
    host.setStatus('p_a', 'active');
    await settle();
    expect(host.delivered).toHaveLength(1);
    host.setStatus('p_a', 'idle');
    await settle();
    expect(host.delivered.map((d) => d.text)).toEqual(['first', 'second']);
  });

  it('an owner idle by status but still showing its turn on screen gets the body once the prompt is back', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    host.setScreenBusy('p_a', true); // a Stop hook said idle; the UI still shows the spinner
    timers.setDelay(as('p_a'), { seconds: 0, body: 'after the prompt' });
    await advance(0);
    expect(host.delivered).toEqual([]);
    expect(host.screenListenerCount).toBe(1);
    host.setScreenBusy('p_a', false);
    await settle();
    expect(host.delivered.map((d) => d.text)).toEqual(['after the prompt']);
    expect(host.screenListenerCount).toBe(0);
  });

  it('an owner that never starts the turn gets the next body after TURN_START_TIMEOUT_MS', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    timers.setDelay(as('p_a'), { seconds: 0, body: 'one' });
    timers.setDelay(as('p_a'), { seconds: 0, body: 'two' });
    await advance(0);
    expect(host.delivered).toHaveLength(1);
    await advance(TURN_START_TIMEOUT_MS - 1);
    expect(host.delivered).toHaveLength(1);
    await advance(1);
    expect(host.delivered.map((d) => d.text)).toEqual(['one', 'two']);
  });

  it('entries that are not agents get their body while they run', async () => {
    const timers = fresh();
    host.addProcess('p_t', 'terminal');
    timers.setDelay(APP_ACTOR, { seconds: 1, body: 'echo hi', ownerId: 'p_t' });
    await advance(1_000);
    expect(host.delivered.map((d) => d.text)).toEqual(['echo hi']);
  });

  it('a failed delivery drops the timer with the reason', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    host.failDeliveriesWith = 'Process "a" (p_a) is not running';
    timers.setDelay(as('p_a'), { seconds: 0, body: 'x' });
    await advance(0);
    expect(timers.list(APP_ACTOR).history[0]).toMatchObject({
      state: 'dropped',
      reason: 'delivery failed: Process "a" (p_a) is not running',
    });
  });
});

describe('idle-any timers', () => {
  it('fire on a watched agent ending a turn, not for one that was already idle', async () => {
    const timers = fresh();
    host.addAgent('p_owner', 'active');
    host.addWorkedAgent('p_idle');
    host.addAgent('p_busy', 'active');
    host.addAgent('p_other', 'active');
    const armed = timers.setIdle(as('p_owner'), { kind: 'idle_any', watched: ['p_idle', 'p_busy'], body: 'someone finished' });
    expect(armed.alreadyIdle).toEqual(['p_idle']);
    expect(armed.waitingOn).toEqual(['p_idle', 'p_busy']);
    host.setStatus('p_owner', 'idle');
    host.setStatus('p_other', 'idle'); // not watched
    await advance(60_000);
    expect(host.delivered).toEqual([]);
    host.setStatus('p_busy', 'idle');
    await settle();
    expect(host.delivered).toEqual([{ id: 'p_owner', text: 'someone finished', at: clock.now() }]);
    expect(timers.list(APP_ACTOR).history[0]).toMatchObject({ kind: 'idle_any', state: 'fired', reason: 'idle' });
  });

  it('a watched agent blocked on its limit ends no turn: the timer waits, and timer_list says why', async () => {
    const timers = fresh();
    host.addAgent('p_owner', 'active');
    host.addAgent('p_w', 'active');
    const armed = timers.setIdle(as('p_owner'), { kind: 'idle_any', watched: ['p_w'], body: 'w done' });
    host.setStatus('p_owner', 'idle');
    const blockedReason = 'limit: API Error: Request rejected (429) · rate limited';
    host.setBlocked('p_w', blockedReason);
    await advance(60_000);
    expect(host.delivered).toEqual([]);
    const listed = timers.list(APP_ACTOR).timers.find((t) => t.id === armed.timer.id)!;
    expect(listed.waitingOn).toEqual(['p_w']);
    expect(listed.blockedOn).toEqual([{ id: 'p_w', reason: blockedReason }]);
    host.setBlocked('p_w', undefined);
    await settle();
    expect(host.delivered.map((d) => d.text)).toEqual(['w done']);
  });

  it('an already-idle agent counts once it works and comes back', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_owner');
    host.addWorkedAgent('p_w');
    timers.setIdle(as('p_owner'), { kind: 'idle_any', watched: ['p_w'], body: 'w done' });
    host.setStatus('p_w', 'active');
    await settle();
    expect(host.delivered).toEqual([]);
    host.setStatus('p_w', 'idle');
    await settle();
    expect(host.delivered.map((d) => d.text)).toEqual(['w done']);
  });

  it('a fresh agent reaching its first prompt is no transition; its first finished turn is', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_owner');
    host.addAgent('p_new', 'starting');
    const armed = timers.setIdle(as('p_owner'), { kind: 'idle_any', watched: ['p_new'], body: 'new one finished' });
    expect(armed.alreadyIdle).toEqual([]);
    host.setStatus('p_new', 'idle'); // the first prompt, before instructions
    await advance(FRESH_AGENT_GRACE_MS * 2);
    expect(host.delivered).toEqual([]);
    host.setStatus('p_new', 'active');
    host.setStatus('p_new', 'idle');
    await settle();
    expect(host.delivered.map((d) => d.text)).toEqual(['new one finished']);
  });

  it('pausing stops listening; after resume, transitions count again', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_owner');
    host.addAgent('p_w', 'active');
    const { timer } = timers.setIdle(as('p_owner'), { kind: 'idle_any', watched: ['p_w'], body: 'x' });
    timers.pause(as('p_owner'), timer.id);
    host.setStatus('p_w', 'idle');
    await settle();
    expect(host.delivered).toEqual([]);
    expect(timers.summariesFor('p_owner')).toMatchObject([{ state: 'paused', waitingOn: ['p_w'] }]);
    timers.resume(as('p_owner'), timer.id);
    host.setStatus('p_w', 'active');
    host.setStatus('p_w', 'idle');
    await settle();
    expect(host.delivered).toHaveLength(1);
  });

  it('max_wait_seconds fires the body when nobody finishes in time', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_owner');
    host.addAgent('p_w', 'active');
    const { timer } = timers.setIdle(as('p_owner'), { kind: 'idle_any', watched: ['p_w'], body: 'timeout', maxWaitSeconds: 90 });
    expect(timer).toMatchObject({ remainingMs: 90_000, firesAt: clock.now() + 90_000 });
    await advance(89_999);
    expect(host.delivered).toEqual([]);
    await advance(1);
    expect(host.delivered.map((d) => d.text)).toEqual(['timeout']);
    expect(timers.list(APP_ACTOR).history[0]).toMatchObject({ reason: 'max_wait' });
  });
});

describe('idle-all timers', () => {
  it('stay pending while one agent works and fire when it finishes', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_owner');
    host.addWorkedAgent('p_a');
    host.addAgent('p_b', 'active');
    const armed = timers.setIdle(as('p_owner'), { kind: 'idle_all', watched: ['p_a', 'p_b'], body: 'all done' });
    expect(armed).toMatchObject({ alreadyIdle: ['p_a'], waitingOn: ['p_b'], timer: { state: 'pending', waitingOn: ['p_b'] } });
    host.setStatus('p_b', 'waiting');
    await settle();
    expect(host.delivered).toEqual([]);
    host.setStatus('p_b', 'idle');
    await settle();
    expect(host.delivered.map((d) => d.text)).toEqual(['all done']);
  });

  it('fire at once when every watched agent is already idle', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_owner');
    host.addWorkedAgent('p_a');
    host.addWorkedAgent('p_b');
    const armed = timers.setIdle(as('p_owner'), { kind: 'idle_all', watched: ['p_a', 'p_b'], body: 'all idle' });
    expect(armed).toMatchObject({ alreadyIdle: ['p_a', 'p_b'], waitingOn: [], timer: { state: 'due' } });
    await settle();
    expect(host.delivered.map((d) => d.text)).toEqual(['all idle']);
  });

  it('need every agent idle at the same time', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_owner');
    host.addAgent('p_a', 'active');
    host.addAgent('p_b', 'active');
    timers.setIdle(as('p_owner'), { kind: 'idle_all', watched: ['p_a', 'p_b'], body: 'x' });
    host.setStatus('p_a', 'idle');
    host.setStatus('p_a', 'active');
    host.setStatus('p_b', 'idle');
    await settle();
    expect(host.delivered).toEqual([]);
    host.setStatus('p_a', 'idle');
    await settle();
    expect(host.delivered).toHaveLength(1);
  });

  it('a fresh agent is not idle until it took its first instructions (or sat untouched through the grace)', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_owner');
    host.addAgent('p_new', 'starting');
    const armed = timers.setIdle(as('p_owner'), { kind: 'idle_all', watched: ['p_new'], body: 'x' });
    expect(armed.waitingOn).toEqual(['p_new']);
    host.setStatus('p_new', 'idle');
    await advance(FRESH_AGENT_GRACE_MS - 1);
    expect(host.delivered).toEqual([]);
    host.setStatus('p_new', 'active'); // the instructions arrived
    await advance(FRESH_AGENT_GRACE_MS * 2);
    expect(host.delivered).toEqual([]);
    host.setStatus('p_new', 'idle');
    await settle();
    expect(host.delivered).toHaveLength(1);
  });

  it('an agent spawned a moment ago reads as starting, not as the stopped entry first announced', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_owner');
    host.spawnAgentQuietly('p_new');
    const armed = timers.setIdle(as('p_owner'), { kind: 'idle_all', watched: ['p_new'], body: 'x' });
    expect(armed).toMatchObject({ alreadyIdle: [], waitingOn: ['p_new'], timer: { state: 'pending' } });
    await settle();
    expect(host.delivered).toEqual([]);
  });

  it('a never-instructed agent counts as idle after the fresh grace', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_owner');
    host.addAgent('p_new', 'starting');
    timers.setIdle(as('p_owner'), { kind: 'idle_all', watched: ['p_new'], body: 'x' });
    host.setStatus('p_new', 'idle');
    await advance(FRESH_AGENT_GRACE_MS - 1);
    expect(host.delivered).toEqual([]);
    await advance(1);
    expect(host.delivered).toHaveLength(1);
  });

  it('a dead watched agent counts as settled', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_owner');
    host.addAgent('p_a', 'active');
    timers.setIdle(as('p_owner'), { kind: 'idle_all', watched: ['p_a'], body: 'x' });
    host.exit('p_a');
    await settle();
    expect(host.delivered).toHaveLength(1);
  });
});

describe('ownership', () => {
  it('a process sees and manages its own timers and those it set for others; external callers manage all', () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    host.addWorkedAgent('p_b');
    const mine = timers.setDelay(as('p_a'), { seconds: 10, body: 'a' }).timer;
    const delegated = timers.setDelay(as('p_a'), { seconds: 10, body: 'for b', ownerId: 'p_b' }).timer;
    const theirs = timers.setDelay(as('p_b'), { seconds: 10, body: 'b' }).timer;
    expect(delegated.ownerId).toBe('p_b');
    expect(
      timers
        .list(as('p_a'))
        .timers.map((t) => t.id)
        .sort(),
    ).toEqual([mine.id, delegated.id].sort());
    expect(
      timers
        .list(as('p_b'))
        .timers.map((t) => t.id)
        .sort(),
    ).toEqual([delegated.id, theirs.id].sort());
    expect(timers.list(APP_ACTOR).timers).toHaveLength(3);
    expect(timers.list(APP_ACTOR, 'p_a').timers.map((t) => t.id)).toEqual([mine.id]);
    const denied = errorOf(() => timers.cancel(as('p_a'), theirs.id));
    expect(denied.code).toBe('not_found');
    expect(denied.message).toMatch(/No timer ".*" that you can manage/);
    expect(errorOf(() => timers.pause(as('p_a'), theirs.id)).code).toBe('not_found');
    timers.cancel(APP_ACTOR, theirs.id);
    expect(timers.list(as('p_a')).history).toEqual([]);
  });

  it('refuses what cannot work, with messages that say what to do', () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    host.addProcess('p_srv', 'command');
    host.addAgent('p_dead', 'dead');
    expect(errorOf(() => timers.setDelay(APP_ACTOR, { seconds: 1, body: 'x' })).message).toMatch(/pass owner_process_id/);
    expect(errorOf(() => timers.setDelay(APP_ACTOR, { seconds: 1, body: 'x', ownerId: 'p_nope' })).code).toBe('unknown_process');
    expect(errorOf(() => timers.setDelay(APP_ACTOR, { seconds: 1, body: 'x', ownerId: 'p_dead' })).code).toBe('not_running');
    expect(errorOf(() => timers.setDelay(as('p_a'), { seconds: -1, body: 'x' })).message).toMatch(/seconds must be a number of seconds/);
    expect(errorOf(() => timers.setDelay(as('p_a'), { seconds: 1, body: '  ' })).message).toMatch(/body must not be empty/);
    const wrongKind = errorOf(() => timers.setIdle(as('p_a'), { kind: 'idle_all', watched: ['p_srv'], body: 'x' }));
    expect(wrongKind.code).toBe('wrong_kind');
    expect(wrongKind.message).toMatch(/is a command entry; idle timers watch agents/);
    expect(timers.list(APP_ACTOR).timers).toEqual([]);
  });
});

describe('owners and watched entries going away', () => {
  it('closing the owner or a watched entry drops the timer into history', () => {
    const timers = fresh();
    host.addWorkedAgent('p_a', { name: 'alpha' });
    host.addAgent('p_w', 'active', { name: 'worker' });
    host.addWorkedAgent('p_b');
    const owned = timers.setDelay(as('p_a'), { seconds: 10, body: 'x' }).timer;
    const watching = timers.setIdle(as('p_b'), { kind: 'idle_any', watched: ['p_w'], body: 'y' }).timer;
    const unrelated = timers.setDelay(as('p_b'), { seconds: 10, body: 'z' }).timer;
    host.close('p_a');
    host.close('p_w');
    const { timers: live, history } = timers.list(APP_ACTOR);
    expect(live.map((t) => t.id)).toEqual([unrelated.id]);
    expect(history).toEqual([
      expect.objectContaining({ id: watching.id, state: 'dropped', reason: 'watched worker (p_w) was closed' }),
      expect.objectContaining({ id: owned.id, state: 'dropped', reason: 'owner alpha (p_a) was closed' }),
    ]);
  });

  it("a dead owner's timers are dropped, due ones included", async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    timers.setDelay(as('p_a'), { seconds: 100, body: 'x' });
    host.setStatus('p_a', 'active');
    timers.setDelay(as('p_a'), { seconds: 0, body: 'due' });
    await advance(0);
    host.exit('p_a');
    await advance(200_000);
    expect(host.delivered).toEqual([]);
    expect(timers.list(APP_ACTOR).history.map((h) => [h.state, h.reason])).toEqual([
      ['dropped', 'owner p_a (p_a) exited'],
      ['dropped', 'owner p_a (p_a) exited'],
    ]);
  });
});

describe('persistence across a restart', () => {
  it('a pending delay resumes with its remaining time; owners are found again by config name', async () => {
    const first = fresh();
    host.addWorkedAgent('p_old', { name: 'worker', configName: 'worker' });
    host.addWorkedAgent('p_adhoc', { name: 'adhoc' });
    const kept = first.setDelay(as('p_old'), { seconds: 60, body: 'resume me', label: 'kept' }).timer;
    const paused = first.setDelay(as('p_old'), { seconds: 30, body: 'paused one' }).timer;
    const lost = first.setDelay(as('p_adhoc'), { seconds: 60, body: 'gone' }).timer;
    await advance(20_000);
    first.pause(APP_ACTOR, paused.id);
    await advance(5_000);
    first.dispose();
    managers.length = 0;
    expect(store.snapshot?.timers.find((t) => t.id === kept.id)?.remainingMs).toBe(35_000);

    // The app is down for an hour, then the project's entries come back with new ids.
    clock.advanceBy(3_600_000);
    host = new FakeTimerHost(clock);
    host.addWorkedAgent('p_new', { name: 'worker', configName: 'worker' });
    const second = setup();
    const report = second.restore();
    expect(report).toMatchObject({
      restored: 2,
      dropped: [
        expect.objectContaining({ id: lost.id, state: 'dropped', reason: 'owner adhoc (p_adhoc) no longer exists after the restart' }),
      ],
    });
    expect(second.summariesFor('p_new')).toEqual([
      expect.objectContaining({ id: kept.id, state: 'pending', ownerId: 'p_new', remainingMs: 35_000, label: 'kept' }),
      expect.objectContaining({ id: paused.id, state: 'paused', remainingMs: 10_000 }),
    ]);
    await advance(34_999);
    expect(host.delivered).toEqual([]);
    await advance(1);
    expect(host.delivered).toEqual([{ id: 'p_new', text: 'resume me', at: clock.now() }]);
    expect(second.list(APP_ACTOR).history.map((h) => h.id)).toEqual([kept.id, lost.id]);
  });

  it('an idle timer comes back listening; its watched agents are found again', async () => {
    const first = fresh();
    host.addWorkedAgent('p_o', { name: 'lead', configName: 'lead' });
    host.addAgent('p_w', 'active', { name: 'worker', configName: 'worker' });
    first.setIdle(as('p_o'), { kind: 'idle_all', watched: ['p_w'], body: 'after restart', maxWaitSeconds: 600 });
    first.dispose();
    managers.length = 0;
    host = new FakeTimerHost(clock);
    host.addWorkedAgent('p_o2', { name: 'lead', configName: 'lead' });
    host.addAgent('p_w2', 'active', { name: 'worker', configName: 'worker' });
    const second = setup();
    second.restore();
    expect(second.summariesFor('p_o2')).toMatchObject([{ kind: 'idle_all', watched: ['p_w2'], waitingOn: ['p_w2'], remainingMs: 600_000 }]);
    host.setStatus('p_w2', 'idle');
    await settle();
    // The restarted owner is a fresh agent seen at its prompt: it gets the body once it settles.
    expect(host.delivered).toEqual([]);
    await advance(FRESH_AGENT_GRACE_MS);
    expect(host.delivered).toEqual([{ id: 'p_o2', text: 'after restart', at: clock.now() }]);
  });

  it('an owner that comes back stopped (waiting for Resume) holds its timers: no countdown, no drop, until it runs again', async () => {
    const first = fresh();
    host.addWorkedAgent('p_lead', { name: 'lead' });
    host.addWorkedAgent('p_w', { name: 'worker' });
    const delay = first.setDelay(as('p_lead'), { seconds: 60, body: 'after resume', label: 'kept' }).timer;
    const paused = first.setDelay(as('p_lead'), { seconds: 30, body: 'paused one' }).timer;
    const idle = first.setIdle(as('p_lead'), { kind: 'idle_any', watched: ['p_w'], body: 'worker done', maxWaitSeconds: 600 }).timer;
    first.pause(APP_ACTOR, paused.id);
    await advance(10_000);
    first.dispose();
    managers.length = 0;

    // The entries come back with their ids; the lead stays stopped until a person resumes it.
    host = new FakeTimerHost(clock);
    host.addAgent('p_lead', 'dead', { name: 'lead' });
    host.addAgent('p_w', 'active', { name: 'worker' });
    const second = setup();
    expect(second.restore()).toMatchObject({ restored: 3, dropped: [] });
    expect(second.summariesFor('p_lead')).toEqual([
      expect.objectContaining({ id: delay.id, state: 'pending', remainingMs: 50_000, heldForOwner: true }),
      expect.objectContaining({ id: idle.id, state: 'pending', remainingMs: 590_000, heldForOwner: true }),
      expect.objectContaining({ id: paused.id, state: 'paused', remainingMs: 30_000, heldForOwner: true }),
    ]);
    expect(second.summariesFor('p_lead')[0].firesAt).toBeUndefined();
    host.exit('p_lead'); // change events of the stopped owner (status, decorations) do not drop them
    host.setStatus('p_w', 'idle'); // nor does a watched agent finishing its turn fire them
    await advance(3_600_000);
    expect(host.delivered).toEqual([]);
    expect(second.list(APP_ACTOR).history).toEqual([]);

    host.restart('p_lead'); // Resume: a new run of the same entry
    expect(second.summariesFor('p_lead')[0]).toMatchObject({ id: delay.id, remainingMs: 50_000, firesAt: clock.now() + 50_000 });
    expect(second.summariesFor('p_lead')[0].heldForOwner).toBeUndefined();
    host.setStatus('p_lead', 'idle');
    await advance(50_000);
    expect(host.delivered).toEqual([{ id: 'p_lead', text: 'after resume', at: clock.now() }]);
    // Released timers behave as before: the owner stopping now drops what is left.
    host.exit('p_lead');
    const ended = Object.fromEntries(second.list(APP_ACTOR).history.map((h) => [h.id, h.state]));
    expect(ended).toEqual({ [paused.id]: 'dropped', [idle.id]: 'dropped', [delay.id]: 'fired' });
  });

  it('a held timer fired by hand is delivered once its owner runs again and is at its prompt', async () => {
    const first = fresh();
    host.addWorkedAgent('p_lead', { name: 'lead' });
    const t = first.setDelay(as('p_lead'), { seconds: 60, body: 'now please' }).timer;
    first.dispose();
    managers.length = 0;
    host = new FakeTimerHost(clock);
    host.addAgent('p_lead', 'dead', { name: 'lead' });
    const second = setup();
    second.restore();
    expect(second.fireNow(APP_ACTOR, t.id)).toMatchObject({ state: 'due', heldForOwner: true });
    await advance(1_000);
    expect(host.delivered).toEqual([]);
    host.restart('p_lead');
    host.setStatus('p_lead', 'idle');
    await advance(FRESH_AGENT_GRACE_MS);
    expect(host.delivered).toEqual([{ id: 'p_lead', text: 'now please', at: clock.now() }]);
  });

  it('every change is saved, coalesced to one write per turn of the event loop', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    timers.setDelay(as('p_a'), { seconds: 10, body: 'a' });
    timers.setDelay(as('p_a'), { seconds: 20, body: 'b' });
    expect(store.saves).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(store.saves).toBe(1);
    expect(store.snapshot?.timers.map((t) => t.body)).toEqual(['a', 'b']);
  });
});

describe('events and summaries', () => {
  it('summaries are nearest first and owners hear about every change', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    host.addAgent('p_w', 'active');
    const changes: string[] = [];
    timers.onDidChangeTimers((owner) => changes.push(owner));
    const late = timers.setDelay(as('p_a'), { seconds: 60, body: 'late' }).timer;
    const soon = timers.setDelay(as('p_a'), { seconds: 5, body: 'soon' }).timer;
    const idle = timers.setIdle(as('p_a'), { kind: 'idle_any', watched: ['p_w'], body: 'idle' }).timer;
    expect(timers.summariesFor('p_a').map((t) => t.id)).toEqual([soon.id, late.id, idle.id]);
    expect(changes.length).toBeGreaterThanOrEqual(3);
    expect(new Set(changes)).toEqual(new Set(['p_a']));
  });
});

describe('arming replies (regression: remaining_ms read 1499 for a 1.5 s max wait when the clock moved during arming)', () => {
  it('describe the timer as of the moment it was armed, even if time passes while it is set up', () => {
    const timers = fresh();
    host.addWorkedAgent('p_o');
    host.addWorkedAgent('p_w');
    host.setStatus('p_w', 'active');
    // Listeners run during arming (UI decorations, persistence) and the clock moves on meanwhile.
    timers.onDidChangeTimers(() => clock.advanceBy(1));
    const armed = timers.setIdle(as('p_o'), { kind: 'idle_all', watched: ['p_w'], body: 'x', maxWaitSeconds: 1.5 });
    expect(armed.timer.remainingMs).toBe(1_500);
    const delay = timers.setDelay(as('p_o'), { seconds: 2, body: 'y' });
    expect(delay.timer.remainingMs).toBe(2_000);
  });
});

describe('deliveries the turn gate holds', () => {
  it('stay due with the hold shown and counted, and go in once the gate lets them through', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    host.setHold('p_a', { reason: 'budget', message: '"p_a" is at its budget' });
    const { timer } = timers.setDelay(as('p_a'), { seconds: 5, body: 'next step' });
    await advance(5_000);
    expect(host.delivered).toEqual([]);
    expect(timers.list(as('p_a')).timers).toMatchObject([{ id: timer.id, state: 'due', held: { reason: 'budget' } }]);
    expect(host.heldCounts.get('p_a')).toBe(1);
    host.setHold('p_a', undefined);
    await settle();
    expect(host.delivered.map((d) => d.text)).toEqual(['next step']);
    expect(host.heldCounts.get('p_a')).toBe(0);
    expect(timers.list(as('p_a')).timers).toEqual([]);
  });

  it('a cancelled held timer is no longer counted', async () => {
    const timers = fresh();
    host.addWorkedAgent('p_a');
    host.setHold('p_a', { reason: 'budget', message: 'held' });
    const { timer } = timers.setDelay(as('p_a'), { seconds: 1, body: 'x' });
    await advance(1_000);
    expect(host.heldCounts.get('p_a')).toBe(1);
    timers.cancel(as('p_a'), timer.id);
    expect(host.heldCounts.get('p_a')).toBe(0);
  });
});
