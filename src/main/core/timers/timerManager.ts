/**
 * The timer manager (docs/timers.md): agents and people schedule user turns for an agent — after a delay,
 * when any of some agents ends a turn, or when all of them are idle — with an optional max-wait
 * fallback. The UI's commands and the MCP tools call these same methods.
 *
 * Event-driven throughout: one clock timer per counting-down delay or fallback, idle timers listen
 * to status changes, delivery waits for the owner's prompt. Every change is saved, so timers
 * survive an app restart; a delay keeps the time it had left when the app went down.
 */
import { randomBytes } from 'node:crypto';
import { DisposableBase, Emitter, toDisposable, type Disposable, type Event } from '../base';
import { realClock, serviceKey, type Clock, type ServiceKey } from '../base';
import { InvalidArgumentError, NotRunningError, SwitchboardError, UnknownProcessError } from '../../../shared/errors';
import type { TimerHistoryEntry, TimerSummary } from '../../../shared/model';
import type { DeliveryHold } from '../../../shared/budget';
import { DeliveryScheduler, TURN_START_TIMEOUT_MS, type DueBody } from './deliveryScheduler';
import { FRESH_AGENT_GRACE_MS, IdlenessTracker } from './idleness';
import { armDelay } from './kinds/delay';
import { armIdleAll } from './kinds/idleAll';
import { armIdleAny } from './kinds/idleAny';
import type { ArmedTrigger, TriggerContext } from './kinds/trigger';
import { TimerLimitError, TimerNotFoundError, TimerStateError } from './timerErrors';
import type { TimerEntry, TimerHost } from './timerHost';
import { MemoryTimerStore, TIMER_FILE_VERSION, type TimerSnapshot, type TimerStore } from './timerStore';
import {
  HISTORY_LIMIT,
  MAX_LIVE_TIMERS,
  actorKey,
  bodyPreview,
  type EndedTimerState,
  type EntryRef,
  type FireCause,
  type SetDelayRequest,
  type SetIdleRequest,
  type TimerActor,
  type TimerArmed,
  type TimerList,
  type TimerRecord,
} from './timerTypes';

interface TimerManagerOptions {
  /** Entries, status and delivery. A disposable host is owned (disposed with the manager). */
  host: TimerHost & Partial<Disposable>;
  clock?: Clock;
  /** Where timers are saved (default: memory only). */
  store?: TimerStore;
  freshGraceMs?: number;
  turnStartTimeoutMs?: number;
  /** Told about problems that must not stop the app (an unreadable or unwritable timer file). */
  onProblem?: (message: string) => void;
}

interface TimerFired {
  timer: TimerSummary;
  cause: FireCause;
}

interface RestoreReport {
  restored: number;
  dropped: TimerHistoryEntry[];
  problems: string[];
}

/** A live timer: its record plus what is armed for it while it runs. */
interface LiveTimer {
  record: TimerRecord;
  trigger?: ArmedTrigger;
  fallback?: ArmedTrigger;
  /** Epoch ms of the delay or the max-wait fallback while pending. */
  deadlineAt?: number;
  dueAt?: number;
  /** When it was (re)armed: arming replies describe the timer as of this moment. */
  armedAt?: number;
  /**
   * Its owner came back stopped after an app restart (an agent waiting for Resume): nothing counts
   * down and nothing is delivered until the owner runs again, and the stopped owner does not drop it.
   */
  isHeld?: boolean;
  /** Due, but the turn gate (the budget) holds its delivery. */
  hold?: DeliveryHold;
}

/** The fixed line timer_wait (legacy) delivers. */
export function legacyWaitLine(seconds: number, label?: string): string {
  return `[switchboard] timer_wait: ${seconds} s elapsed${label ? ` (${label})` : ''}.`;
}

/** The timer manager of a core built with timers: the timer commands and tools forward to it. */
export const TIMERS: ServiceKey<TimerManager> = serviceKey('Timers');

export class TimerManager extends DisposableBase {
  private readonly host: TimerHost;
  private readonly clock: Clock;
  private readonly timerStore: TimerStore;
  private readonly onProblem: (message: string) => void;
  private readonly timers = new Map<string, LiveTimer>();
  private history: TimerHistoryEntry[] = [];
  private isSaveScheduled = false;
  private isDirty = false;
  readonly idleness: IdlenessTracker;
  private readonly delivery: DeliveryScheduler;

  private readonly timersChanged = this.register(new Emitter<string>());
  /** The live timers of an owner changed (set, paused, fired, ended, or what they wait on). Carries the owner id. */
  readonly onDidChangeTimers: Event<string> = this.timersChanged.event;
  private readonly timerFired = this.register(new Emitter<TimerFired>());
  /** A timer came due; delivery follows once its owner is at its prompt. */
  readonly onDidFireTimer: Event<TimerFired> = this.timerFired.event;
  private readonly timerEnded = this.register(new Emitter<TimerHistoryEntry>());
  /** A timer ended: fired (its body was typed), cancelled or dropped. */
  readonly onDidEndTimer: Event<TimerHistoryEntry> = this.timerEnded.event;

  constructor(options: TimerManagerOptions) {
    super();
    this.host = options.host;
    const host = options.host;
    if (host.dispose) this.register({ dispose: () => host.dispose?.() });
    this.clock = options.clock ?? realClock;
    this.timerStore = options.store ?? new MemoryTimerStore();
    this.onProblem = options.onProblem ?? ((message) => console.warn(`[timers] ${message}`));
    this.idleness = this.register(new IdlenessTracker(this.host, this.clock, options.freshGraceMs ?? FRESH_AGENT_GRACE_MS));
    this.delivery = this.register(
      new DeliveryScheduler(
        this.host,
        this.idleness,
        this.clock,
        {
          nextDue: (ownerId) => this.nextDue(ownerId),
          delivered: (id) => this.endIfLive(id, 'fired', () => this.timers.get(id)?.record.firedBy ?? 'delay'),
          failed: (id, reason) => this.endIfLive(id, 'dropped', () => `delivery failed: ${reason}`),
          held: (id, hold) => this.setHold(id, hold),
        },
        options.turnStartTimeoutMs ?? TURN_START_TIMEOUT_MS,
      ),
    );
    this.register(this.host.onDidRemoveEntry((id) => this.entryClosed(id)));
    this.register(this.host.onDidChangeEntry((entry) => this.entryChanged(entry)));
    // What an idle timer waits on is part of what the UI shows.
    this.register(
      this.idleness.onDidChange((change) => {
        const owners = new Set<string>();
        for (const t of this.timers.values()) if (t.record.watched.some((w) => w.id === change.id)) owners.add(t.record.owner.id);
        owners.forEach((owner) => this.timersChanged.fire(owner));
      }),
    );
    this.register(
      toDisposable(() => {
        // Save first: remaining times are read from the armed deadlines, as of this moment.
        this.isDirty = true;
        this.flush();
        for (const t of this.timers.values()) this.disarm(t);
      }),
    );
  }

  // --- arming -------------------------------------------------------------------------------

  /** timer_set: one-shot; the body is delivered to the owner after `seconds`. */
  setDelay(actor: TimerActor, request: SetDelayRequest): TimerArmed {
    const seconds = checkSeconds(request.seconds, 'seconds');
    const owner = this.resolveOwner(actor, request.ownerId);
    const t = this.create(actor, {
      kind: 'delay',
      body: checkBody(request.body),
      label: request.label,
      owner,
      watched: [],
      remainingMs: seconds * 1000,
      ...(request.whenBlocked && { whenBlocked: true as const }),
    });
    return { timer: this.summaryOf(t, t.armedAt), alreadyIdle: [], waitingOn: [] };
  }

  /** timer_wait (legacy): a delay whose body is a fixed line; the caller owns it. */
  setLegacyWait(actor: TimerActor, request: { seconds: number; label?: string }): TimerArmed {
    if (actor.kind !== 'process') {
      throw new InvalidArgumentError(
        'timer_wait delivers to the calling agent, and you are not a process started by Switchboard. Use timer_set with owner_process_id.',
      );
    }
    return this.setDelay(actor, { seconds: request.seconds, label: request.label, body: legacyWaitLine(request.seconds, request.label) });
  }

  /** timer_fire_when_idle_any / _all. */
  setIdle(actor: TimerActor, request: SetIdleRequest): TimerArmed {
    const maxWaitMs = request.maxWaitSeconds === undefined ? undefined : checkSeconds(request.maxWaitSeconds, 'max_wait_seconds') * 1000;
    const owner = this.resolveOwner(actor, request.ownerId);
    const watched = this.resolveWatched(request.watched);
    const alreadyIdle = watched.filter((w) => this.idleness.idlenessOf(w.id) === 'idle').map((w) => w.id);
    const t = this.create(actor, {
      kind: request.kind,
      body: checkBody(request.body),
      label: request.label,
      owner,
      watched,
      remainingMs: maxWaitMs,
    });
    return { timer: this.summaryOf(t, t.armedAt), alreadyIdle, waitingOn: this.waitingOnOf(t) };
  }

  // --- managing -----------------------------------------------------------------------------

  cancel(actor: TimerActor, id: string): TimerHistoryEntry {
    const t = this.manageable(actor, id);
    return this.end(t, 'cancelled', `cancelled by ${actorKey(actor)}`);
  }

  /** Pausing keeps a delay's remaining time (and an idle timer's max wait); an idle timer stops listening. */
  pause(actor: TimerActor, id: string): TimerSummary {
    const t = this.manageable(actor, id);
    if (t.record.state === 'paused') throw new TimerStateError(`Timer ${id} is already paused.`, id);
    if (t.record.state === 'due')
      throw new TimerStateError(`Timer ${id} already fired and is waiting for its owner's prompt; cancel it to stop the delivery.`, id);
    t.record.remainingMs = this.remainingOf(t);
    this.disarm(t);
    t.record.state = 'paused';
    this.changed(t);
    return this.summaryOf(t);
  }

  /** Resume a paused timer: a delay counts down its remaining time; an idle timer listens afresh. */
  resume(actor: TimerActor, id: string): TimerSummary {
    const t = this.manageable(actor, id);
    if (t.record.state !== 'paused') throw new TimerStateError(`Timer ${id} is not paused (it is ${t.record.state}).`, id);
    this.armOrHold(t);
    this.changed(t);
    return this.summaryOf(t, t.armedAt);
  }

  /** Fire now (UI): the body goes to the owner as soon as it is at its prompt. */
  fireNow(actor: TimerActor, id: string): TimerSummary {
    const t = this.manageable(actor, id);
    if (t.record.state !== 'due') this.fire(t, 'fire_now');
    return this.summaryOf(t);
  }

  /** The caller's timers (all of them for external callers), optionally of one owner, with history. */
  list(actor: TimerActor, ownerId?: string): TimerList {
    const visible = (owner: string, createdBy: string) => (!ownerId || owner === ownerId) && this.mayManage(actor, owner, createdBy);
    return {
      timers: sortNearestFirst(
        [...this.timers.values()].filter((t) => visible(t.record.owner.id, t.record.createdBy)).map((t) => this.summaryOf(t)),
      ),
      history: this.history.filter((h) => visible(h.ownerId, h.createdBy)),
    };
  }

  /** The live timers an entry owns, nearest first (its decoration in ProcessInfo.timers). */
  summariesFor(ownerId: string): TimerSummary[] {
    return sortNearestFirst([...this.timers.values()].filter((t) => t.record.owner.id === ownerId).map((t) => this.summaryOf(t)));
  }

  // --- restart ------------------------------------------------------------------------------

  /**
   * Load the saved timers once the project's entries exist (after core.init). Owners and watched
   * entries are found again by their config name, else by id and name; a timer whose owner or a
   * watched entry is gone is dropped into history. Delays resume with the time they had left when
   * the app went down; one whose owner came back stopped is held until the owner runs again.
   */
  restore(): RestoreReport {
    const report: RestoreReport = { restored: 0, dropped: [], problems: [] };
    let snapshot: TimerSnapshot | undefined;
    try {
      snapshot = this.timerStore.load();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      report.problems.push(message);
      this.onProblem(message);
    }
    if (!snapshot) return report;
    this.history = [...snapshot.history, ...this.history].slice(0, HISTORY_LIMIT);
    const entries = this.host.listEntries();
    for (const saved of snapshot.timers) {
      if (this.timers.has(saved.id)) continue;
      const t: LiveTimer = { record: { ...saved, watched: [...saved.watched] } };
      const owner = findAgain(entries, saved.owner);
      const missing = saved.watched.find((w) => !findAgain(entries, w));
      const problem = !owner
        ? `owner ${describeRef(saved.owner)} no longer exists after the restart`
        : missing
          ? `watched ${describeRef(missing)} no longer exists after the restart`
          : undefined;
      if (problem) {
        report.dropped.push(this.recordEnded(t, 'dropped', problem));
        continue;
      }
      t.record.owner = refOf(owner!);
      t.record.watched = saved.watched.map((w) => refOf(findAgain(entries, w)!));
      this.timers.set(t.record.id, t);
      report.restored += 1;
      if (!owner!.isRunning) t.isHeld = true;
      else if (t.record.state === 'pending') this.arm(t);
      if (t.record.state === 'due') t.dueAt = this.clock.now();
      this.timersChanged.fire(t.record.owner.id);
    }
    this.scheduleSave();
    for (const t of this.timers.values()) if (t.record.state === 'due') this.delivery.pump(t.record.owner.id);
    return report;
  }

  /** Write pending changes now (also done at dispose). */
  flush(): void {
    if (!this.isDirty) return;
    this.isDirty = false;
    try {
      this.timerStore.save(this.snapshot());
    } catch (err) {
      this.onProblem(`Could not save timers: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  // --- internals ----------------------------------------------------------------------------

  private create(
    actor: TimerActor,
    spec: Pick<TimerRecord, 'kind' | 'body' | 'label' | 'owner' | 'watched' | 'remainingMs' | 'whenBlocked'>,
  ): LiveTimer {
    if (this.timers.size >= MAX_LIVE_TIMERS) throw new TimerLimitError(MAX_LIVE_TIMERS);
    const record: TimerRecord = { ...spec, id: this.newId(), createdBy: actorKey(actor), createdAt: this.clock.now(), state: 'pending' };
    if (record.label === undefined) delete record.label;
    if (record.remainingMs === undefined) delete record.remainingMs;
    const t: LiveTimer = { record };
    this.timers.set(record.id, t);
    this.arm(t);
    this.changed(t);
    return t;
  }

  private arm(t: LiveTimer): void {
    const record = t.record;
    record.state = 'pending';
    const ctx: TriggerContext = { clock: this.clock, idleness: this.idleness, fire: (cause) => this.fire(t, cause) };
    const watchedIds = record.watched.map((w) => w.id);
    t.armedAt = this.clock.now();
    t.deadlineAt = record.remainingMs === undefined ? undefined : t.armedAt + record.remainingMs;
    if (record.kind === 'delay') {
      t.trigger = armDelay(record.remainingMs ?? 0, ctx, 'delay');
    } else {
      t.trigger = record.kind === 'idle_any' ? armIdleAny(watchedIds, ctx) : armIdleAll(watchedIds, ctx);
      if (record.remainingMs !== undefined) t.fallback = armDelay(record.remainingMs, ctx, 'max_wait');
    }
    if (t.trigger.isSatisfiedNow()) this.fire(t, 'idle');
  }

  /** Counts down while the owner runs; held (its time kept) while it is stopped. */
  private armOrHold(t: LiveTimer): void {
    if (this.host.findEntry(t.record.owner.id)?.isRunning) return this.arm(t);
    t.record.state = 'pending';
    t.isHeld = true;
  }

  private disarm(t: LiveTimer): void {
    t.trigger?.dispose();
    t.fallback?.dispose();
    t.trigger = undefined;
    t.fallback = undefined;
    t.deadlineAt = undefined;
  }

  private fire(t: LiveTimer, cause: FireCause): void {
    if (this.timers.get(t.record.id) !== t || t.record.state === 'due') return;
    this.disarm(t);
    t.record.state = 'due';
    t.record.firedBy = cause;
    delete t.record.remainingMs;
    t.dueAt = this.clock.now();
    this.changed(t);
    this.timerFired.fire({ timer: this.summaryOf(t), cause });
    this.delivery.pump(t.record.owner.id);
  }

  private nextDue(ownerId: string): DueBody | undefined {
    let next: LiveTimer | undefined;
    for (const t of this.timers.values()) {
      if (t.record.owner.id !== ownerId || t.record.state !== 'due') continue;
      if (!next || (t.dueAt ?? 0) < (next.dueAt ?? 0)) next = t;
    }
    return next && { timerId: next.record.id, body: next.record.body, ...(next.record.whenBlocked && { whenBlocked: true as const }) };
  }

  private setHold(id: string, hold: DeliveryHold | undefined): void {
    const t = this.timers.get(id);
    if (!t || (t.hold === undefined && hold === undefined)) return;
    const was = t.hold;
    // Set before counting: the count tells the gate, whose change pumps this owner's deliveries again.
    t.hold = hold;
    this.timersChanged.fire(t.record.owner.id);
    if (was === undefined) this.host.countHeld(t.record.owner.id, 1);
    else if (hold === undefined) this.host.countHeld(t.record.owner.id, -1);
  }

  private endIfLive(id: string, state: EndedTimerState, reason: () => string): void {
    const t = this.timers.get(id);
    if (t) this.end(t, state, reason());
  }

  private end(t: LiveTimer, state: EndedTimerState, reason: string): TimerHistoryEntry {
    this.disarm(t);
    this.timers.delete(t.record.id);
    // Uncounted once gone: the gate's change pumps the owner, which must not find this timer again.
    if (t.hold) this.host.countHeld(t.record.owner.id, -1);
    const entry = this.recordEnded(t, state, reason);
    this.timersChanged.fire(t.record.owner.id);
    this.scheduleSave();
    this.timerEnded.fire(entry);
    return entry;
  }

  private recordEnded(t: LiveTimer, state: EndedTimerState, reason: string): TimerHistoryEntry {
    const r = t.record;
    const entry: TimerHistoryEntry = {
      id: r.id,
      kind: r.kind,
      ...(r.label !== undefined ? { label: r.label } : {}),
      ownerId: r.owner.id,
      ownerName: r.owner.name,
      state,
      reason,
      endedAt: this.clock.now(),
      bodyPreview: bodyPreview(r.body),
      createdBy: r.createdBy,
    };
    this.history = [entry, ...this.history].slice(0, HISTORY_LIMIT);
    this.isDirty = true;
    return entry;
  }

  /** close_process: timers owned by or watching the entry are dropped. */
  private entryClosed(id: string): void {
    for (const t of [...this.timers.values()]) {
      if (t.record.owner.id === id) this.end(t, 'dropped', `owner ${describeRef(t.record.owner)} was closed`);
      else {
        const watched = t.record.watched.find((w) => w.id === id);
        if (watched) this.end(t, 'dropped', `watched ${describeRef(watched)} was closed`);
      }
    }
  }

  /**
   * A dead owner cannot take a turn: its timers are dropped, except held ones, which start counting
   * (or deliver) once the owner runs again. Names are kept current for history.
   */
  private entryChanged(entry: TimerEntry): void {
    for (const t of [...this.timers.values()]) {
      if (t.record.owner.id !== entry.id) continue;
      t.record.owner.name = entry.name;
      if (t.isHeld) {
        if (entry.isRunning) this.release(t);
      } else if (!entry.isRunning) this.end(t, 'dropped', `owner ${describeRef(t.record.owner)} exited`);
    }
  }

  private release(t: LiveTimer): void {
    t.isHeld = false;
    if (t.record.state === 'pending') this.arm(t);
    else if (t.record.state === 'due') this.delivery.pump(t.record.owner.id);
    this.changed(t);
  }

  private resolveOwner(actor: TimerActor, ownerId: string | undefined): EntryRef {
    const id = ownerId ?? (actor.kind === 'process' ? actor.processId : undefined);
    if (id === undefined) {
      throw new InvalidArgumentError(
        'You are not a process started by Switchboard, so pass owner_process_id: the entry that receives the body.',
      );
    }
    const entry = this.host.findEntry(id);
    if (!entry) throw new UnknownProcessError(id);
    if (!entry.isRunning) throw new NotRunningError(entry.id, entry.name);
    this.idleness.refresh(entry);
    return refOf(entry);
  }

  private resolveWatched(ids: readonly string[]): EntryRef[] {
    if (ids.length === 0) throw new InvalidArgumentError('watched must name at least one agent entry.');
    return [...new Set(ids)].map((id) => {
      const entry = this.host.findEntry(id);
      if (!entry) throw new UnknownProcessError(id);
      if (entry.kind !== 'agent') {
        throw new SwitchboardError(
          'wrong_kind',
          `${entry.name} (${id}) is a ${entry.kind} entry; idle timers watch agents (their idle status). Use wait_for_pattern for other processes.`,
        );
      }
      this.idleness.refresh(entry);
      return refOf(entry);
    });
  }

  private manageable(actor: TimerActor, id: string): LiveTimer {
    const t = this.timers.get(id);
    if (!t || !this.mayManage(actor, t.record.owner.id, t.record.createdBy)) throw new TimerNotFoundError(id);
    return t;
  }

  /** External callers manage every timer; a process its own and those it set for others. */
  private mayManage(actor: TimerActor, ownerId: string, createdBy: string): boolean {
    return actor.kind === 'external' || ownerId === actor.processId || createdBy === actor.processId;
  }

  private remainingOf(t: LiveTimer, now = this.clock.now()): number | undefined {
    if (t.record.state === 'pending' && !t.isHeld) return t.deadlineAt === undefined ? undefined : Math.max(0, t.deadlineAt - now);
    return t.record.remainingMs;
  }

  private waitingOnOf(t: LiveTimer): string[] {
    if (t.record.kind === 'delay' || t.record.state === 'due') return [];
    if (t.trigger) return t.trigger.waitingOn();
    return t.record.watched.map((w) => w.id); // paused: not listening, so waiting on all of them
  }

  /** Who an idle timer waits on, and why for those that are blocked (an idle timer never fires on a blocked agent). */
  private waitingOnWithReasons(t: LiveTimer): Pick<TimerSummary, 'waitingOn' | 'blockedOn'> {
    const waitingOn = this.waitingOnOf(t);
    const blockedOn = waitingOn.flatMap((id) => {
      const reason = this.host.blockedReason(id);
      return reason === undefined ? [] : [{ id, reason }];
    });
    return { waitingOn, ...(blockedOn.length > 0 && { blockedOn }) };
  }

  /** `at`: the moment the summary describes (default now; arming replies pass the arming time). */
  private summaryOf(t: LiveTimer, at = this.clock.now()): TimerSummary {
    const r = t.record;
    const remainingMs = this.remainingOf(t, at);
    return {
      id: r.id,
      kind: r.kind,
      ...(r.label !== undefined ? { label: r.label } : {}),
      state: r.state,
      ownerId: r.owner.id,
      ...(r.state === 'pending' && t.deadlineAt !== undefined ? { firesAt: t.deadlineAt } : {}),
      ...(remainingMs !== undefined ? { remainingMs } : {}),
      ...(t.isHeld ? { heldForOwner: true as const } : {}),
      ...(r.whenBlocked ? { whenBlocked: true as const } : {}),
      ...(t.hold ? { held: t.hold } : {}),
      ...(r.kind !== 'delay' ? { watched: r.watched.map((w) => w.id), ...this.waitingOnWithReasons(t) } : {}),
      bodyPreview: bodyPreview(r.body),
      createdBy: r.createdBy,
      createdAt: r.createdAt,
    };
  }

  private changed(t: LiveTimer): void {
    this.timersChanged.fire(t.record.owner.id);
    this.scheduleSave();
  }

  /** Saves are coalesced to one per turn of the event loop (a burst of changes writes once). */
  private scheduleSave(): void {
    this.isDirty = true;
    if (this.isSaveScheduled || this.isDisposed) return;
    this.isSaveScheduled = true;
    setImmediate(() => {
      this.isSaveScheduled = false;
      if (!this.isDisposed) this.flush();
    });
  }

  private snapshot(): TimerSnapshot {
    return {
      version: TIMER_FILE_VERSION,
      savedAt: this.clock.now(),
      timers: [...this.timers.values()].map((t) => {
        const remainingMs = this.remainingOf(t);
        const record: TimerRecord = { ...t.record, watched: [...t.record.watched] };
        if (remainingMs === undefined) delete record.remainingMs;
        else record.remainingMs = remainingMs;
        return record;
      }),
      history: this.history,
    };
  }

  private newId(): string {
    for (;;) {
      const id = `t_${randomBytes(3).toString('hex')}`;
      if (!this.timers.has(id) && !this.history.some((h) => h.id === id)) return id;
    }
  }
}

function checkSeconds(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0) throw new InvalidArgumentError(`${name} must be a number of seconds ≥ 0, not ${value}.`);
  return value;
}

function checkBody(body: string): string {
  if (body.trim() === '') throw new InvalidArgumentError('body must not be empty: it is what the owner receives as its user turn.');
  return body;
}

function refOf(entry: TimerEntry): EntryRef {
  return { id: entry.id, name: entry.name, ...(entry.configName ? { configName: entry.configName } : {}) };
}

function describeRef(ref: EntryRef): string {
  return `${ref.name} (${ref.id})`;
}

/** The same entry after a restart: by config name where it has one (ids change), else by id and name. */
function findAgain(entries: readonly TimerEntry[], ref: EntryRef): TimerEntry | undefined {
  if (ref.configName) return entries.find((e) => e.configName === ref.configName);
  return entries.find((e) => e.id === ref.id && e.name === ref.name);
}

const STATE_ORDER: Record<TimerSummary['state'], number> = { due: 0, pending: 1, paused: 2, fired: 3, cancelled: 3, dropped: 3 };

/** Due first, then by when they fire (idle timers without a fallback after delays), paused last. */
function sortNearestFirst(timers: TimerSummary[]): TimerSummary[] {
  return timers.sort(
    (a, b) =>
      STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
      (a.firesAt ?? a.remainingMs ?? Infinity) - (b.firesAt ?? b.remainingMs ?? Infinity) ||
      a.createdAt - b.createdAt,
  );
}
