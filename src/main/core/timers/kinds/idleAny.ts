/**
 * timer_fire_when_idle_any: fires when any watched agent ends a turn (busy → idle, or dies while
 * busy). Agents already idle when armed do not count until they work and come back.
 */
import { endsTurn } from '../idleness';
import { onceFire, type ArmedTrigger, type TriggerContext } from './trigger';

export function armIdleAny(watched: readonly string[], ctx: TriggerContext): ArmedTrigger {
  const once = onceFire(ctx);
  const subscription = ctx.idleness.onDidChange((change) => {
    if (watched.includes(change.id) && endsTurn(change)) once.fire('idle');
  });
  return {
    waitingOn: () => watched.filter((id) => ctx.idleness.idlenessOf(id) !== 'dead'),
    isSatisfiedNow: () => false,
    dispose() {
      once.stop();
      subscription.dispose();
    },
  };
}
