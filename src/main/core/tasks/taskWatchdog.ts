/**
 * The three clocks of a task run. It only says when a deadline passed; what to do about it (the
 * stall assessment, the kill) is the supervisor's job.
 * - idle: re-armed by every stream message; catches a silent agent.
 * - turn: re-armed only by complete assistant messages; catches a stream that keeps trickling
 *   (pings, slow deltas) without ever finishing a message.
 * - wall clock: armed once; caps the run, never re-armed or extended.
 * An extension moves one deadline later until the next message re-arms it normally.
 */
import { DisposableBase, Emitter, type Disposable, type Event } from '../base';
import type { Clock } from '../base';
import type { TaskTimeouts, TaskTrigger } from '../../../shared/task';

/**
 * Until the agent's first message the idle deadline is at least this far out: Claude Code 2.1.197
 * takes 1–3 s to print its `init` message here, longer with MCP servers or plugins to load, and a
 * short idle timeout (seconds, as in tests) must not call that a stall.
 */
const FIRST_MESSAGE_DEADLINE_FLOOR_MS = 30_000;

export interface WatchdogExpiry {
  trigger: TaskTrigger;
  /** The deadline that passed (epoch ms). */
  deadline: number;
}

export class TaskWatchdog extends DisposableBase {
  private readonly timers = new Map<TaskTrigger, { deadline: number; handle: Disposable }>();
  private isRunning = false;

  private readonly expiredEmitter = this.register(new Emitter<WatchdogExpiry>());
  readonly onDidExpire: Event<WatchdogExpiry> = this.expiredEmitter.event;

  constructor(
    private readonly clock: Clock,
    readonly timeouts: TaskTimeouts,
    private readonly firstMessageDeadlineFloorMs = FIRST_MESSAGE_DEADLINE_FLOOR_MS,
  ) {
    super();
    this.register({ dispose: () => this.stop() });
  }

  start(): void {
    if (this.isDisposed) return;
    this.isRunning = true;
    const now = this.clock.now();
    this.arm('idle', now + Math.max(this.timeouts.idleMs, this.firstMessageDeadlineFloorMs));
    this.arm('turn', now + Math.max(this.timeouts.turnMs, this.firstMessageDeadlineFloorMs));
    this.arm('wall_clock', now + this.timeouts.wallClockMs);
  }

  /** Any stream message: the agent is alive. */
  noteMessage(): void {
    if (this.isRunning) this.arm('idle', this.clock.now() + this.timeouts.idleMs);
  }

  /** A complete assistant message: the current turn made it through. */
  noteAssistantMessage(): void {
    if (this.isRunning) this.arm('turn', this.clock.now() + this.timeouts.turnMs);
  }

  /** Moves an idle or turn deadline to `until` (the wall clock is never extended). */
  extend(trigger: Exclude<TaskTrigger, 'wall_clock'>, until: number): void {
    if (this.isRunning) this.arm(trigger, until);
  }

  deadlineOf(trigger: TaskTrigger): number | undefined {
    return this.timers.get(trigger)?.deadline;
  }

  stop(): void {
    this.isRunning = false;
    for (const { handle } of this.timers.values()) handle.dispose();
    this.timers.clear();
  }

  private arm(trigger: TaskTrigger, deadline: number): void {
    this.timers.get(trigger)?.handle.dispose();
    const handle = this.clock.setTimer(() => {
      this.timers.delete(trigger);
      if (this.isRunning) this.expiredEmitter.fire({ trigger, deadline });
    }, deadline - this.clock.now());
    this.timers.set(trigger, { deadline, handle });
  }
}
