/**
 * A timer kind is a trigger: armed with what it watches, it calls `fire` once its condition
 * holds, and disposing it stops every listener and clock timer it holds (pause, cancel, fire).
 */
import type { Disposable } from '../../base';
import type { Clock } from '../../base';
import type { IdlenessTracker } from '../idleness';
import type { FireCause } from '../timerTypes';

export interface TriggerContext {
  clock: Clock;
  idleness: IdlenessTracker;
  /** Called at most once per arming, never while arming (see isSatisfiedNow). */
  fire(cause: FireCause): void;
}

export interface ArmedTrigger extends Disposable {
  /** Watched entries the trigger still waits for (empty for delays). */
  waitingOn(): string[];
  /** The condition already holds at arming (idle-all over idle agents): fire without waiting. */
  isSatisfiedNow(): boolean;
}

/** Wraps `fire` so a trigger that is disposed, or already fired, never fires (again). */
export function onceFire(ctx: TriggerContext): { fire(cause: FireCause): void; stop(): void } {
  let isLive = true;
  return {
    fire(cause) {
      if (!isLive) return;
      isLive = false;
      ctx.fire(cause);
    },
    stop() {
      isLive = false;
    },
  };
}
