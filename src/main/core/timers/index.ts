/** Timers (docs/timers.md): the public surface of core/timers. */
export { timerCapability, type CreateTimerManagerOptions } from './timerCapability';

export { TimerManager, TIMERS, legacyWaitLine } from './timerManager';
export { isShowingPrompt } from './timerHost';
export { type Idleness } from './idleness';
export { APP_ACTOR, type TimerArmed } from './timerTypes';
