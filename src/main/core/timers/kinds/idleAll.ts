/**
 * timer_fire_when_idle_all: fires when every watched agent is settled at once — idle at its prompt
 * (a fresh agent is not, until it took its first instructions) or dead. Already-idle agents count
 * as satisfied, so a timer over agents that are all idle fires as soon as it is armed.
 */
import { isSettled } from '../idleness';
import { onceFire, type ArmedTrigger, type TriggerContext } from './trigger';

export function armIdleAll(watched: readonly string[], ctx: TriggerContext): ArmedTrigger {
  const once = onceFire(ctx);
  const waitingOn = () => watched.filter((id) => !isSettled(ctx.idleness.idlenessOf(id)));
  const subscription = ctx.idleness.onDidChange((change) => {
    if (watched.includes(change.id) && waitingOn().length === 0) once.fire('idle');
  });
  return {
    waitingOn,
    isSatisfiedNow: () => waitingOn().length === 0,
    dispose() {
      once.stop();
      subscription.dispose();
    },
  };
}
