/** Delay timers (timer_set, timer_wait) and the max-wait fallback of idle timers: one clock timer. */
import type { FireCause } from '../timerTypes';
import { onceFire, type ArmedTrigger, type TriggerContext } from './trigger';

export function armDelay(remainingMs: number, ctx: TriggerContext, cause: FireCause = 'delay'): ArmedTrigger {
  const once = onceFire(ctx);
  const timer = ctx.clock.setTimer(() => once.fire(cause), Math.max(0, remainingMs));
  return {
    waitingOn: () => [],
    isSatisfiedNow: () => false,
    dispose() {
      once.stop();
      timer.dispose();
    },
  };
}
