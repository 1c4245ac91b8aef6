/**
 * Bounded resources: a worktree's servers stop once its agents have all been idle for `idleStop`
 * ms, and are shown as stopped-idle (not an error) until something starts them again on demand.
 * The core reports agent activity; this decides when, on its clock, and calls `stop`.
 */
import { realClock, type Clock, type Disposable } from '../base';

interface IdleStopOptions {
  idleStopMs: number;
  /** Stops the worktree's servers (its agents keep running). */
  stop(worktreeId: string): void;
  clock?: Clock;
}

export class IdleStop implements Disposable {
  private readonly timers = new Map<string, Disposable>();
  /** Worktrees whose servers this stopped: their state reads stopped-idle, not error. */
  private readonly stopped = new Set<string>();
  /** Busy agents per worktree: only when none is left does the idle time start. */
  private readonly busy = new Map<string, Set<string>>();
  private readonly clock: Clock;

  constructor(private readonly options: IdleStopOptions) {
    this.clock = options.clock ?? realClock;
  }

  /** An agent in the worktree works (or a person started its servers): no stop while it does. */
  agentBusy(worktreeId: string, agentId: string): void {
    (this.busy.get(worktreeId) ?? this.busy.set(worktreeId, new Set()).get(worktreeId)!).add(agentId);
    this.cancel(worktreeId);
  }

  /** An agent went idle (or exited): once every agent of the worktree is idle, the countdown starts. */
  agentIdle(worktreeId: string, agentId: string): void {
    const busy = this.busy.get(worktreeId);
    busy?.delete(agentId);
    if (busy && busy.size > 0) return;
    this.cancel(worktreeId);
    this.timers.set(
      worktreeId,
      this.clock.setTimer(() => this.fire(worktreeId), this.options.idleStopMs),
    );
  }

  /** Started again on demand (start_process, a click, dependsOn): no longer stopped-idle. */
  started(worktreeId: string): void {
    this.stopped.delete(worktreeId);
  }

  isStoppedIdle(worktreeId: string): boolean {
    return this.stopped.has(worktreeId);
  }

  dispose(): void {
    for (const timer of this.timers.values()) timer.dispose();
    this.timers.clear();
  }

  private fire(worktreeId: string): void {
    this.timers.delete(worktreeId);
    this.stopped.add(worktreeId);
    this.options.stop(worktreeId);
  }

  private cancel(worktreeId: string): void {
    this.timers.get(worktreeId)?.dispose();
    this.timers.delete(worktreeId);
  }
}
