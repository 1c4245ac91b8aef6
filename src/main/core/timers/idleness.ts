/**
 * What timers count as "idle" (docs/timers.md): an agent's status, plus one rule the status alone cannot
 * express — a freshly started agent is not idle until it has taken its first instructions. Its
 * first prompt only means it has not begun; the instructions are typed right after it appears.
 *
 * Per agent run: `fresh` from start until it first works (active or stuck) or has sat at its
 * prompt for FRESH_AGENT_GRACE_MS with nobody giving it anything (then it is simply idle);
 * `busy` while active, waiting or stuck; `idle` at its prompt; `dead` when the run ended.
 */
import { DisposableBase, Emitter, toDisposable, type Disposable, type Event } from '../base';
import type { Clock } from '../base';
import type { AgentPrimary } from '../../../shared/status';
import type { TimerEntry, TimerHost } from './timerHost';

export type Idleness = 'fresh' | 'busy' | 'idle' | 'dead';

/**
 * How long a new agent may sit at its first prompt before it counts as idle. Instructions given
 * at spawn are typed the moment the prompt shows, and the agent turns busy within a second; five
 * leaves room for a loaded machine while a never-instructed agent still settles soon.
 */
export const FRESH_AGENT_GRACE_MS = 5_000;

export interface IdlenessChange {
  id: string;
  idleness: Idleness;
  previous: Idleness | undefined;
}

interface AgentRun {
  runId: number;
  idleness: Idleness | undefined;
  lastPrimary: AgentPrimary;
  hasWorked: boolean;
  isGraceOver: boolean;
  graceTimer?: Disposable;
}

/** A turn ended: busy → idle, or the agent died while busy (idle-any counts both). */
export function endsTurn(change: IdlenessChange): boolean {
  return change.previous === 'busy' && (change.idleness === 'idle' || change.idleness === 'dead');
}

/** Settled for idle-all: at the prompt, or gone for good in this run. */
export function isSettled(idleness: Idleness | undefined): boolean {
  return idleness === 'idle' || idleness === 'dead';
}

export class IdlenessTracker extends DisposableBase {
  private readonly runs = new Map<string, AgentRun>();
  private readonly changed = this.register(new Emitter<IdlenessChange>());
  readonly onDidChange: Event<IdlenessChange> = this.changed.event;

  constructor(
    host: TimerHost,
    private readonly clock: Clock,
    private readonly freshGraceMs = FRESH_AGENT_GRACE_MS,
  ) {
    super();
    for (const entry of host.listEntries()) this.observe(entry);
    this.register(host.onDidChangeEntry((entry) => this.observe(entry)));
    this.register(host.onDidRemoveEntry((id) => this.forget(id)));
    this.register(toDisposable(() => [...this.runs.keys()].forEach((id) => this.forget(id))));
  }

  /** The entry's idleness; undefined for entries that are not agents (or unknown ids). */
  idlenessOf(id: string): Idleness | undefined {
    return this.runs.get(id)?.idleness;
  }

  /**
   * Take the entry's current state now. Change events are coalesced (a frame), so a timer armed
   * right after a spawn reads the truth here instead of the stopped entry first announced.
   */
  refresh(entry: TimerEntry): void {
    this.observe(entry);
  }

  private observe(entry: TimerEntry): void {
    if (entry.kind !== 'agent' || this.isDisposed) return;
    let run = this.runs.get(entry.id);
    if (!run || run.runId !== entry.runId) {
      run?.graceTimer?.dispose();
      run = { runId: entry.runId, idleness: run?.idleness, lastPrimary: 'starting', hasWorked: false, isGraceOver: false };
      this.runs.set(entry.id, run);
    }
    run.lastPrimary = entry.isRunning ? (entry.agentStatus ?? 'starting') : 'dead';
    this.update(entry.id, run);
  }

  private update(id: string, run: AgentRun): void {
    const next = this.idlenessFor(id, run);
    if (next !== 'fresh' || run.lastPrimary !== 'idle') {
      run.graceTimer?.dispose();
      run.graceTimer = undefined;
    }
    if (next === run.idleness) return;
    const previous = run.idleness;
    run.idleness = next;
    this.changed.fire({ id, idleness: next, previous });
  }

  private idlenessFor(id: string, run: AgentRun): Idleness {
    switch (run.lastPrimary) {
      case 'dead':
        return 'dead';
      case 'starting':
        return 'fresh';
      case 'active':
      case 'stuck':
        run.hasWorked = true;
        return 'busy';
      case 'waiting':
        // A question before any work (a trust dialog) does not count as taking instructions.
        return run.hasWorked ? 'busy' : 'fresh';
      case 'idle':
        if (run.hasWorked || run.isGraceOver) return 'idle';
        this.startGrace(id, run);
        return 'fresh';
    }
  }

  private startGrace(id: string, run: AgentRun): void {
    if (run.graceTimer) return;
    run.graceTimer = this.clock.setTimer(() => {
      run.graceTimer = undefined;
      run.isGraceOver = true;
      if (this.runs.get(id) === run) this.update(id, run);
    }, this.freshGraceMs);
  }

  private forget(id: string): void {
    this.runs.get(id)?.graceTimer?.dispose();
    this.runs.delete(id);
  }
}
