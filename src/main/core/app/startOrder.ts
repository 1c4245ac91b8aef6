/**
 * `dependsOn`: an entry starts once each entry it depends on reached its condition, and starting
 * it starts them first. While it waits it shows `waiting for <names>`; a dependency that fails
 * keeps it from starting and it says which one and why.
 */
import { DisposableStore, type Event } from '../base';
import type { DependencyCondition, ProcessInfo, RunState } from '../../../shared/model';
import { isSettledReady } from '../../../shared/ready';

interface StartOrderHost {
  /** The id of the entry named `configName` that `dependentId` depends on (in the dependent's own worktree), if it exists. */
  idOf(configName: string, dependentId: string): string | undefined;
  describe(id: string): ProcessInfo;
  dependsOnOf(id: string): Readonly<Record<string, DependencyCondition>> | undefined;
  /** Starts the entry's own process (no dependency handling). */
  startOwn(id: string): Promise<void>;
  /** Fires with an entry's id whenever its described state may have changed. */
  readonly onDidChangeEntry: Event<string>;
  /** What the entry shows instead of its own state while gated (undefined: nothing). */
  setGate(id: string, gate: Gate | undefined): void;
}

export interface Gate {
  state: Extract<RunState, 'waiting' | 'error'>;
  message: string;
}

type Check = { kind: 'met' } | { kind: 'pending' } | { kind: 'failed'; why: string };

/** States in which an entry has a live process (or had one that ended well). */
const STARTED_STATES: ReadonlySet<RunState> = new Set(['starting', 'ready', 'running', 'unhealthy', 'completed']);

/** Whether a dependency in `info` satisfies `condition`, still might, or never will this time. */
function checkDependency(info: ProcessInfo, condition: DependencyCondition): Check {
  const state = info.state;
  if (state === 'error') return { kind: 'failed', why: info.message };
  switch (condition) {
    case 'started':
      return STARTED_STATES.has(state) ? { kind: 'met' } : stoppedOrPending(info);
    case 'ready':
      if ((state === 'ready' && (info.readiness === undefined || isSettledReady(info.readiness))) || state === 'completed')
        return { kind: 'met' };
      // Up without a readiness check: as ready as it gets.
      if (state === 'running' && info.readiness?.expectsReadiness === false) return { kind: 'met' };
      return stoppedOrPending(info);
    case 'completed':
      if (state === 'completed') return { kind: 'met' };
      return stoppedOrPending(info);
  }
}

function stoppedOrPending(info: ProcessInfo): Check {
  // Stopped after a run of its own (not just never started): it will not get there now.
  if (info.state === 'stopped' && info.runId > 0 && info.pid === undefined && info.lastExit) return { kind: 'failed', why: info.message };
  return { kind: 'pending' };
}

export class StartOrder {
  /** Entries waiting for their dependencies, by id, with what cancels the wait. */
  private readonly pending = new Map<string, { promise: Promise<boolean>; cancel: () => void }>();

  constructor(private readonly host: StartOrderHost) {}

  isWaiting(id: string): boolean {
    return this.pending.has(id);
  }

  /** While the entry waits for its dependencies: resolves true once it started, false when it will not. */
  pendingStart(id: string): Promise<boolean> | undefined {
    return this.pending.get(id)?.promise;
  }

  /** Stops waiting (the entry was stopped or closed by hand); it shows its own state again. */
  cancel(id: string): void {
    this.pending.get(id)?.cancel();
  }

  /**
   * Starts the entry once its dependencies are met (starting those that are not running).
   * Resolves true when it was started, false when a dependency failed or the wait was cancelled.
   */
  start(id: string): Promise<boolean> {
    const existing = this.pending.get(id);
    if (existing) return existing.promise;
    const deps = Object.entries(this.host.dependsOnOf(id) ?? {});
    if (deps.length === 0) return this.host.startOwn(id).then(() => true);
    let cancel = () => {};
    let isSettled = false;
    const promise = new Promise<boolean>((resolve) => {
      const store = new DisposableStore();
      const finish = (started: boolean) => {
        isSettled = true;
        store.dispose();
        this.pending.delete(id);
        resolve(started);
      };
      cancel = () => {
        this.host.setGate(id, undefined);
        finish(false);
      };
      for (const [name] of deps) {
        const depId = this.host.idOf(name, id);
        // A dependency that fails to start shows its own error; this entry then waits or fails on it.
        if (depId && needsStart(this.host.describe(depId))) void this.start(depId).catch(() => undefined);
      }
      const evaluate = () => {
        const waitingFor: string[] = [];
        for (const [name, condition] of deps) {
          const depId = this.host.idOf(name, id);
          if (!depId) return this.block(id, finish, `${name} no longer exists`);
          const check = checkDependency(this.host.describe(depId), condition);
          if (check.kind === 'failed') return this.block(id, finish, `${name} failed (${check.why})`);
          if (check.kind === 'pending') waitingFor.push(condition === 'started' ? name : `${name} (${condition})`);
        }
        if (waitingFor.length > 0) return this.host.setGate(id, { state: 'waiting', message: `waiting for ${waitingFor.join(', ')}` });
        this.host.setGate(id, undefined);
        finish(true);
        this.host.startOwn(id).catch(() => undefined); // a spawn failure shows on the entry itself
      };
      store.add(this.host.onDidChangeEntry((changed) => deps.some(([name]) => this.host.idOf(name, id) === changed) && evaluate()));
      evaluate();
    });
    // Met at once (every dependency already there): nothing is pending.
    if (!isSettled) this.pending.set(id, { promise, cancel: () => cancel() });
    return promise;
  }

  private block(id: string, finish: (started: boolean) => void, why: string): void {
    this.host.setGate(id, { state: 'error', message: `Not started: ${why}` });
    finish(false);
  }
}

/** A dependency that has no live process (and did not already complete) is started first. */
function needsStart(info: ProcessInfo): boolean {
  return info.pid === undefined && info.state !== 'completed';
}
