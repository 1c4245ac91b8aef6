/** What timers count as idle: fresh agents, turns, runs, removal. */
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../base';
import { FakeTimerHost } from './testing/fakeTimerHost';
import { FRESH_AGENT_GRACE_MS, IdlenessTracker, endsTurn, type IdlenessChange } from './idleness';

let tracker: IdlenessTracker | undefined;
let clock: VirtualClock;
afterEach(() => {
  tracker?.dispose();
  expect(clock.pendingTimers).toBe(0);
});

function setup() {
  clock = new VirtualClock();
  const host = new FakeTimerHost(clock);
  tracker = new IdlenessTracker(host, clock);
  const changes: IdlenessChange[] = [];
  tracker.onDidChange((c) => changes.push(c));
  return { host, tracker, changes };
}

describe('IdlenessTracker', () => {
  it('a new agent is fresh until it works; then idle at its prompt is a turn that ended', () => {
    const { host, tracker, changes } = setup();
    host.addAgent('p_a', 'starting');
    host.setStatus('p_a', 'idle');
    expect(tracker.idlenessOf('p_a')).toBe('fresh');
    host.setStatus('p_a', 'active');
    host.setStatus('p_a', 'idle');
    expect(changes.map((c) => [c.previous, c.idleness, endsTurn(c)])).toEqual([
      [undefined, 'fresh', false],
      ['fresh', 'busy', false],
      ['busy', 'idle', true],
    ]);
  });

  it('a question before any work (trust dialog) keeps it fresh; the grace then settles it', () => {
    const { host, tracker, changes } = setup();
    host.addAgent('p_a', 'waiting');
    host.setStatus('p_a', 'idle');
    expect(tracker.idlenessOf('p_a')).toBe('fresh');
    clock.advanceBy(FRESH_AGENT_GRACE_MS);
    expect(tracker.idlenessOf('p_a')).toBe('idle');
    expect(endsTurn(changes.at(-1)!)).toBe(false);
  });

  it('a new run is fresh again; an exit while busy ends the turn; non-agents are not tracked', () => {
    const { host, tracker, changes } = setup();
    host.addWorkedAgent('p_a');
    host.setStatus('p_a', 'active');
    host.exit('p_a');
    expect(endsTurn(changes.at(-1)!)).toBe(true);
    host.restart('p_a');
    expect(tracker.idlenessOf('p_a')).toBe('fresh');
    host.addProcess('p_t');
    expect(tracker.idlenessOf('p_t')).toBeUndefined();
    host.close('p_a');
    expect(tracker.idlenessOf('p_a')).toBeUndefined();
  });

  it('leaving the prompt before the grace ends cancels the grace timer', () => {
    const { host } = setup();
    host.addAgent('p_a', 'starting');
    host.setStatus('p_a', 'idle');
    expect(clock.pendingTimers).toBe(1);
    host.setStatus('p_a', 'active');
    expect(clock.pendingTimers).toBe(0);
  });

  it("refresh reads an entry's current state before its (coalesced) change event arrives", () => {
    const { tracker } = setup();
    tracker.refresh({ id: 'p_new', name: 'new', kind: 'agent', runId: 1, isRunning: true, agentStatus: 'starting' });
    expect(tracker.idlenessOf('p_new')).toBe('fresh');
  });
});
