/**
 * Bounded resources: a worktree's servers stop once every agent in it has been idle for
 * `worktrees.idleStop` ms. The core reports agent states as they change; this decides when, on its
 * clock, and calls `stop`. Only changes count: an idle agent's screen redrawing starts nothing.
 */
import { realClock, type Clock, type Disposable } from '../base';

interface IdleStopOptions {
  /** The idle time, read when a countdown starts (switchboard.json may change); undefined: never stop. */
  idleStopMs(): number | undefined;
  /** Stops the worktree's servers (its agents keep running). */
  stop(worktreeId: string): void;
  clock?: Clock;
}

export class IdleStop implements Disposable {
  private readonly timers = new Map<string, Disposable>();
  /** Per worktree, its agents and whether each is busy; a worktree with no agent seen never stops. */
  private readonly agents = new Map<string, Map<string, boolean>>();
  private readonly clock: Clock;

  constructor(private readonly options: IdleStopOptions) {
    this.clock = options.clock ?? realClock;
  }

  /** An agent of the worktree is busy (working, or waiting for a person) or not (idle, exited). */
  agentState(worktreeId: string, agentId: string, busy: boolean): void {
    const agents = this.agentsOf(worktreeId);
    if (agents.get(agentId) === busy) return;
    agents.set(agentId, busy);
    this.update(worktreeId);
  }

  /** The agent's entry was closed: it no longer keeps its worktree's servers up. */
  agentGone(worktreeId: string, agentId: string): void {
    if (this.agents.get(worktreeId)?.delete(agentId)) this.update(worktreeId);
  }

  /** A server of the worktree started (on demand): with every agent idle, the countdown starts over. */
  serverStarted(worktreeId: string): void {
    if (this.agents.has(worktreeId)) this.update(worktreeId);
  }

  /** The worktree is gone. */
  forget(worktreeId: string): void {
    this.cancel(worktreeId);
    this.agents.delete(worktreeId);
  }

  isCountingDown(worktreeId: string): boolean {
    return this.timers.has(worktreeId);
  }

  dispose(): void {
    for (const timer of this.timers.values()) timer.dispose();
    this.timers.clear();
  }

  private update(worktreeId: string): void {
    this.cancel(worktreeId);
    if ([...this.agentsOf(worktreeId).values()].some(Boolean)) return;
    const idleStopMs = this.options.idleStopMs();
    if (idleStopMs === undefined) return;
    this.timers.set(
      worktreeId,
      this.clock.setTimer(() => {
        this.timers.delete(worktreeId);
        this.options.stop(worktreeId);
      }, idleStopMs),
    );
  }

  private agentsOf(worktreeId: string): Map<string, boolean> {
    return this.agents.get(worktreeId) ?? this.agents.set(worktreeId, new Map()).get(worktreeId)!;
  }

  private cancel(worktreeId: string): void {
    this.timers.get(worktreeId)?.dispose();
    this.timers.delete(worktreeId);
  }
}
