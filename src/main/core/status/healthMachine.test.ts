import { describe, expect, it } from 'vitest';
import type { Health } from '../../../shared/status';
import { HealthMachine, type HealthEvent } from './healthMachine';

const walk = (events: HealthEvent[]): Health[] => {
  const m = new HealthMachine(0);
  return events.map((e, i) => {
    m.apply(e, i);
    return m.state;
  });
};

describe('HealthMachine', () => {
  it.each<[string, HealthEvent[], Health[]]>([
    ['ALIVE → STUCK → RECOVERED → ALIVE', ['progressStalled', 'progressResumed', 'recoveryConfirmed'], ['STUCK', 'RECOVERED', 'ALIVE']],
    ['RECOVERED relapses to STUCK', ['progressStalled', 'progressResumed', 'progressStalled'], ['STUCK', 'RECOVERED', 'STUCK']],
    ['ALIVE → DEAD', ['exited'], ['DEAD']],
    ['STUCK → DEAD', ['progressStalled', 'exited'], ['STUCK', 'DEAD']],
    ['RECOVERED → DEAD', ['progressStalled', 'progressResumed', 'exited'], ['STUCK', 'RECOVERED', 'DEAD']],
    ['DEAD is terminal', ['exited', 'progressStalled', 'progressResumed', 'recoveryConfirmed'], ['DEAD', 'DEAD', 'DEAD', 'DEAD']],
    ['events that do not apply are ignored', ['progressResumed', 'recoveryConfirmed'], ['ALIVE', 'ALIVE']],
  ])('%s', (_name, events, expected) => {
    expect(walk(events)).toEqual(expected);
  });

  it('reset starts a new run ALIVE, and records when each transition happened', () => {
    const m = new HealthMachine(0);
    m.apply('exited', 5);
    expect(m.since).toBe(5);
    m.reset(9);
    expect([m.state, m.since]).toEqual(['ALIVE', 9]);
  });
});
