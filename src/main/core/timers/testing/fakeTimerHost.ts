/**
 * A TimerHost the test owns: entries whose run and agent status it sets by hand, and a record of
 * every body typed. With the status module's VirtualClock, timer behaviour runs at exact times.
 */
import { Emitter, type Disposable } from '../../base';
import type { Clock } from '../../base';
import type { AgentPrimary } from '../../../../shared/status';
import type { ProcessKind } from '../../../../shared/model';
import type { TimerEntry, TimerHost } from '../timerHost';
import type { DeliveryHold } from '../../../../shared/budget';

interface Delivery {
  id: string;
  text: string;
  at: number;
}

export class FakeTimerHost implements TimerHost {
  private readonly entries = new Map<string, TimerEntry>();
  private readonly changed = new Emitter<TimerEntry>();
  private readonly removed = new Emitter<string>();
  readonly onDidChangeEntry = this.changed.event;
  readonly onDidRemoveEntry = this.removed.event;
  readonly delivered: Delivery[] = [];
  /** Make the next deliveries fail with this message. */
  failDeliveriesWith: string | undefined;
  private readonly screenBusy = new Set<string>();
  private readonly screenChanged = new Emitter<string>();
  private readonly holds = new Map<string, DeliveryHold>();
  /** What the gate counts as held per owner. */
  readonly heldCounts = new Map<string, number>();
  private readonly holdChanged = new Emitter<string>();
  readonly onDidChangeHold = this.holdChanged.event;

  constructor(private readonly clock: Clock) {}

  listEntries(): TimerEntry[] {
    return [...this.entries.values()].map((e) => ({ ...e }));
  }

  findEntry(id: string): TimerEntry | undefined {
    const entry = this.entries.get(id);
    return entry && { ...entry };
  }

  blockedReason(id: string): string | undefined {
    return this.entries.get(id)?.blockedReason;
  }

  isAtPrompt(id: string): boolean {
    return !this.screenBusy.has(id);
  }

  onScreenChanged(id: string, listener: () => void): Disposable {
    return this.screenChanged.event((changed) => {
      if (changed === id) listener();
    });
  }

  /** The screen still shows the turn (status may already say idle, as after a Stop hook). */
  setScreenBusy(id: string, isBusy: boolean): void {
    if (isBusy) this.screenBusy.add(id);
    else this.screenBusy.delete(id);
    this.screenChanged.fire(id);
  }

  get screenListenerCount(): number {
    return this.screenChanged.hasListeners ? 1 : 0;
  }

  async deliver(id: string, text: string): Promise<void> {
    if (this.failDeliveriesWith) throw new Error(this.failDeliveriesWith);
    this.delivered.push({ id, text, at: this.clock.now() });
  }

  admit(id: string): DeliveryHold | undefined {
    return this.holds.get(id);
  }

  /** As the budget's gate does, a count that changed is a change of the owner's hold. */
  countHeld(id: string, delta: 1 | -1): void {
    this.heldCounts.set(id, (this.heldCounts.get(id) ?? 0) + delta);
    this.holdChanged.fire(id);
  }

  /** The gate holds (or, with undefined, lets through) what goes to `id`. */
  setHold(id: string, hold: DeliveryHold | undefined): void {
    if (hold) this.holds.set(id, hold);
    else this.holds.delete(id);
    this.holdChanged.fire(id);
  }

  /** A running agent (status `primary`, default idle after it worked: use `fresh` for a new one). */
  addAgent(id: string, primary: AgentPrimary = 'idle', extra: Partial<TimerEntry> = {}): void {
    this.put({ id, name: extra.name ?? id, kind: 'agent', runId: 1, isRunning: primary !== 'dead', agentStatus: primary, ...extra });
  }

  addProcess(id: string, kind: ProcessKind = 'terminal', extra: Partial<TimerEntry> = {}): void {
    this.put({ id, name: extra.name ?? id, kind, runId: 1, isRunning: true, ...extra });
  }

  setStatus(id: string, primary: AgentPrimary): void {
    const entry = this.entries.get(id)!;
    this.put({ ...entry, agentStatus: primary, isRunning: primary !== 'dead' });
  }

  /** Ends the run (the agent's status reads dead). */
  exit(id: string): void {
    const entry = this.entries.get(id)!;
    this.put({ ...entry, isRunning: false, ...(entry.kind === 'agent' ? { agentStatus: 'dead' as const } : {}) });
  }

  /** A new run: agents start over in `starting`. */
  restart(id: string): void {
    const entry = this.entries.get(id)!;
    this.put({
      ...entry,
      runId: entry.runId + 1,
      isRunning: true,
      ...(entry.kind === 'agent' ? { agentStatus: 'starting' as const } : {}),
    });
  }

  /** An agent blocked (sign-in, limit, …) with the reason timer_list shows; undefined unblocks it at its prompt. */
  setBlocked(id: string, blockedReason: string | undefined): void {
    const entry = this.entries.get(id)!;
    this.put({ ...entry, agentStatus: blockedReason === undefined ? 'idle' : 'waiting', blockedReason });
  }

  /** An agent that has done one turn and is back at its prompt. */
  addWorkedAgent(id: string, extra: Partial<TimerEntry> = {}): void {
    this.addAgent(id, 'active', extra);
    this.setStatus(id, 'idle');
  }

  /**
   * As the core does on spawn: the entry is announced stopped, and its start only shows in a
   * change event a frame later (here: never), so a timer armed now must read the current state.
   */
  spawnAgentQuietly(id: string): void {
    this.put({ id, name: id, kind: 'agent', runId: 0, isRunning: false });
    this.entries.set(id, { id, name: id, kind: 'agent', runId: 1, isRunning: true, agentStatus: 'starting' });
  }

  close(id: string): void {
    this.entries.delete(id);
    this.removed.fire(id);
  }

  private put(entry: TimerEntry): void {
    this.entries.set(entry.id, entry);
    this.changed.fire({ ...entry });
  }
}
