import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../base';
import { IdleStop } from './idleStop';

/** `null`: switchboard.json has no worktrees.idleStop. */
function idleStop(idleStopMs: number | null = 60_000) {
  const clock = new VirtualClock(0);
  const stopped: string[] = [];
  const idle = new IdleStop({ idleStopMs: () => idleStopMs ?? undefined, stop: (w) => stopped.push(w), clock });
  return { clock, stopped, idle };
}

describe('IdleStop', () => {
  it('stops a worktree’s servers once its agent has been idle for idleStop', () => {
    const { clock, stopped, idle } = idleStop();
    idle.agentState('feature-a', 'claude', true);
    idle.agentState('feature-a', 'claude', false);
    clock.advanceBy(59_999);
    expect(stopped).toEqual([]);
    clock.advanceBy(1);
    expect(stopped).toEqual(['feature-a']);
    clock.advanceBy(600_000);
    expect(stopped).toEqual(['feature-a']);
  });

  it('only changes count: the same idle state reported again does not restart the countdown', () => {
    const { clock, stopped, idle } = idleStop();
    idle.agentState('feature-a', 'claude', false);
    clock.advanceBy(40_000);
    idle.agentState('feature-a', 'claude', false);
    clock.advanceBy(20_000);
    expect(stopped).toEqual(['feature-a']);
  });

  it('activity in between restarts the countdown; a second busy agent keeps the servers up', () => {
    const { clock, stopped, idle } = idleStop();
    idle.agentState('feature-a', 'claude', false);
    clock.advanceBy(50_000);
    idle.agentState('feature-a', 'claude', true);
    idle.agentState('feature-a', 'codex', true);
    idle.agentState('feature-a', 'claude', false);
    clock.advanceBy(120_000);
    expect(stopped).toEqual([]);
    idle.agentGone('feature-a', 'codex');
    clock.advanceBy(60_000);
    expect(stopped).toEqual(['feature-a']);
  });

  it('a server started on demand while the agents are idle counts down again; a worktree without agents never stops', () => {
    const { clock, stopped, idle } = idleStop();
    idle.serverStarted('no-agent');
    idle.agentState('feature-a', 'claude', false);
    clock.advanceBy(60_000);
    idle.serverStarted('feature-a');
    clock.advanceBy(59_000);
    expect(stopped).toEqual(['feature-a']);
    clock.advanceBy(1_000);
    expect(stopped).toEqual(['feature-a', 'feature-a']);
  });

  it('worktrees count apart; no idleStop configured stops nothing; dispose cancels', () => {
    const { clock, stopped, idle } = idleStop();
    idle.agentState('feature-a', 'a', false);
    clock.advanceBy(30_000);
    idle.agentState('feature-b', 'b', false);
    clock.advanceBy(30_000);
    expect(stopped).toEqual(['feature-a']);
    idle.dispose();
    clock.advanceBy(60_000);
    expect(stopped).toEqual(['feature-a']);
    const never = idleStop(null);
    never.idle.agentState('feature-a', 'a', false);
    never.clock.advanceBy(10 * 60_000);
    expect(never.stopped).toEqual([]);
  });
});
