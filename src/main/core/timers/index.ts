/** Timers (docs/timers.md): the public surface of core/timers. */
export { timerCapability, type CreateTimerManagerOptions } from './timerCapability';

export { TimerManager, legacyWaitLine, type TimerManagerOptions, type TimerFired, type RestoreReport } from './timerManager';
export { timerDecorator, TimerDecoration } from './timerDecoration';
export { CoreTimerHost, timerEntryOf, isShowingPrompt, type TimerEntry, type TimerHost } from './timerHost';
export { FileTimerStore, MemoryTimerStore, TimerFileError, TIMER_FILE_VERSION, type TimerSnapshot, type TimerStore } from './timerStore';
export { IdlenessTracker, FRESH_AGENT_GRACE_MS, type Idleness, type IdlenessChange } from './idleness';
export { TURN_START_TIMEOUT_MS } from './deliveryScheduler';
export { TimerNotFoundError, TimerStateError, TimerLimitError } from './timerErrors';
export {
  APP_ACTOR,
  MAX_LIVE_TIMERS,
  HISTORY_LIMIT,
  type TimerActor,
  type TimerArmed,
  type TimerList,
  type TimerKind,
  type SetDelayRequest,
  type SetIdleRequest,
} from './timerTypes';
