import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../base';
import { IdleStop } from './idleStop';

function idleStop() {
  const clock = new VirtualClock(0);
  const stopped: string[] = [];
  const idle = new IdleStop({ idleStopMs: 60_000, stop: (w) => stopped.push(w), clock });
  return { clock, stopped, idle };
}

describe('IdleStop', () => {
  it('stops a worktree’s servers once its agent has been idle for idleStop, shown as stopped-idle until started again', () => {
    const { clock, stopped, idle } = idleStop();
    idle.agentBusy('feature-a', 'claude');
    idle.agentIdle('feature-a', 'claude');
    clock.advanceBy(59_999);
    expect(stopped).toEqual([]);
    clock.advanceBy(1);
    expect(stopped).toEqual(['feature-a']);
    expect(idle.isStoppedIdle('feature-a')).toBe(true);
    idle.started('feature-a');
    expect(idle.isStoppedIdle('feature-a')).toBe(false);
  });

  it('activity in between restarts the countdown; a second busy agent keeps the servers up', () => {
    const { clock, stopped, idle } = idleStop();
    idle.agentIdle('feature-a', 'claude');
    clock.advanceBy(50_000);
    idle.agentBusy('feature-a', 'claude');
    idle.agentBusy('feature-a', 'codex');
    idle.agentIdle('feature-a', 'claude');
    clock.advanceBy(120_000);
    expect(stopped).toEqual([]);
    idle.agentIdle('feature-a', 'codex');
    clock.advanceBy(60_000);
    expect(stopped).toEqual(['feature-a']);
  });

  it('worktrees count apart', () => {
    const { clock, stopped, idle } = idleStop();
    idle.agentIdle('feature-a', 'a');
    clock.advanceBy(30_000);
    idle.agentIdle('feature-b', 'b');
    clock.advanceBy(30_000);
    expect(stopped).toEqual(['feature-a']);
    idle.dispose();
    clock.advanceBy(60_000);
    expect(stopped).toEqual(['feature-a']);
  });
});
