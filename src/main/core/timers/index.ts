/** Timers (docs/timers.md): the public surface of core/timers. */
import type { SwitchboardCore } from '../app';
import type { Clock } from '../base';
import { CoreTimerHost } from './timerHost';
import { TimerManager } from './timerManager';
import { FileTimerStore } from './timerStore';

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

export interface CreateTimerManagerOptions {
  /** The app's data directory: timers are saved there per project. Without it they live in memory. */
  dataDir?: string;
  clock?: Clock;
  onProblem?: (message: string) => void;
}

/** The core's timer manager; the composition root passes this as SwitchboardCoreOptions.timers. */
export function createTimerManager(core: SwitchboardCore, options: CreateTimerManagerOptions = {}): TimerManager {
  return new TimerManager({
    host: new CoreTimerHost(core),
    clock: options.clock,
    store: options.dataDir ? FileTimerStore.forProject(options.dataDir, core.projectDir) : undefined,
    onProblem: options.onProblem,
  });
}
