/**
 * Delivers due timers to their owners (docs/timers.md): the body is typed as a fresh user turn only when
 * the owner is at its prompt, one body at a time. A busy owner gets the next body as soon as it
 * is idle again; after each delivery the owner must start its turn (leave the prompt) before the
 * next body goes in, so two bodies never land in one prompt. Entries that are not agents have no
 * prompt to wait for: they get each body while they run.
 */
import { DisposableBase, toDisposable, type Disposable } from '../base';
import type { Clock } from '../base';
import type { IdlenessTracker } from './idleness';
import type { TimerHost } from './timerHost';
import type { DeliveryHold } from '../../../shared/budget';

/**
 * How long a delivery waits for the agent to start its turn before the next body may follow.
 * A submitted prompt turns Claude Code busy within a second; the wait only matters when a body
 * does not start a turn at all (an agent that ignored the input), and then must not block the
 * owner's other timers for long.
 */
export const TURN_START_TIMEOUT_MS = 10_000;

export interface DueBody {
  timerId: string;
  body: string;
  /** A continue at reset: its owner takes it while blocked (the composer is under the CLI's error line). */
  whenBlocked?: true;
}

interface DeliveryHooks {
  /** The owner's earliest due timer, if any. */
  nextDue(ownerId: string): DueBody | undefined;
  delivered(timerId: string): void;
  failed(timerId: string, reason: string): void;
  /** The gate holds (or no longer holds) the body: shown on the timer, which stays due. */
  held(timerId: string, hold: DeliveryHold | undefined): void;
}

interface Lane {
  isDelivering: boolean;
  /** Set when a body went in; cleared when the agent leaves its prompt or the wait times out. */
  awaitingTurn: boolean;
  turnTimer?: Disposable;
  /** Idle by status but the screen still shows the turn: listening for the prompt to appear. */
  screenWatch?: Disposable;
}

export class DeliveryScheduler extends DisposableBase {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly host: TimerHost,
    private readonly idleness: IdlenessTracker,
    private readonly clock: Clock,
    private readonly hooks: DeliveryHooks,
    private readonly turnStartTimeoutMs = TURN_START_TIMEOUT_MS,
  ) {
    super();
    this.register(
      idleness.onDidChange((change) => {
        const lane = this.lanes.get(change.id);
        if (lane?.awaitingTurn && change.idleness !== 'idle') this.endTurnWait(lane);
        this.pump(change.id);
      }),
    );
    this.register(
      host.onDidChangeEntry((entry) => {
        if (entry.kind !== 'agent') this.pump(entry.id);
      }),
    );
    this.register(host.onDidRemoveEntry((id) => this.forget(id)));
    this.register(host.onDidChangeHold((id) => this.pump(id)));
    this.register(toDisposable(() => [...this.lanes.keys()].forEach((id) => this.forget(id))));
  }

  /** Deliver the owner's next due body if it is at its prompt and nothing is in flight. */
  pump(ownerId: string): void {
    if (this.isDisposed) return;
    const lane = this.laneOf(ownerId);
    if (lane.isDelivering || lane.awaitingTurn) return;
    const due = this.hooks.nextDue(ownerId);
    const next = due && this.isReady(ownerId, due) ? due : undefined;
    if (!next) return this.stopScreenWatch(lane);
    if (!next.whenBlocked && !this.host.isAtPrompt(ownerId)) {
      lane.screenWatch ??= this.host.onScreenChanged(ownerId, () => this.pump(ownerId));
      return;
    }
    this.stopScreenWatch(lane);
    const hold = this.host.admit(ownerId);
    if (hold) return this.hooks.held(next.timerId, hold);
    const isAgent = this.idleness.idlenessOf(ownerId) !== undefined;
    lane.isDelivering = true;
    lane.awaitingTurn = isAgent;
    // After the lane is taken: clearing the hold tells the gate, whose change pumps this owner again.
    this.hooks.held(next.timerId, undefined);
    this.host.deliver(ownerId, next.body).then(
      () => this.finish(ownerId, lane, () => this.hooks.delivered(next.timerId)),
      (err: unknown) => this.finish(ownerId, lane, () => this.hooks.failed(next.timerId, err instanceof Error ? err.message : String(err))),
    );
  }

  private finish(ownerId: string, lane: Lane, report: () => void): void {
    lane.isDelivering = false;
    if (this.isDisposed) return;
    report();
    if (lane.awaitingTurn && this.lanes.get(ownerId) === lane) {
      lane.turnTimer = this.clock.setTimer(() => this.endTurnWait(lane, ownerId), this.turnStartTimeoutMs);
    } else {
      this.pump(ownerId);
    }
  }

  private stopScreenWatch(lane: Lane): void {
    lane.screenWatch?.dispose();
    lane.screenWatch = undefined;
  }

  private endTurnWait(lane: Lane, ownerId?: string): void {
    lane.awaitingTurn = false;
    lane.turnTimer?.dispose();
    lane.turnTimer = undefined;
    if (ownerId !== undefined) this.pump(ownerId);
  }

  /**
   * Agents: idle at the prompt (a fresh one is not: its instructions come first), or blocked for a
   * continue at reset (a blocked screen is the CLI's error above its composer). Others: running.
   */
  private isReady(ownerId: string, due: DueBody): boolean {
    if (due.whenBlocked) return this.host.blockedReason(ownerId) !== undefined;
    const idleness = this.idleness.idlenessOf(ownerId);
    if (idleness !== undefined) return idleness === 'idle';
    return this.host.findEntry(ownerId)?.isRunning === true;
  }

  private laneOf(ownerId: string): Lane {
    let lane = this.lanes.get(ownerId);
    if (!lane) {
      lane = { isDelivering: false, awaitingTurn: false };
      this.lanes.set(ownerId, lane);
    }
    return lane;
  }

  private forget(ownerId: string): void {
    const lane = this.lanes.get(ownerId);
    lane?.turnTimer?.dispose();
    lane?.screenWatch?.dispose();
    this.lanes.delete(ownerId);
  }
}
