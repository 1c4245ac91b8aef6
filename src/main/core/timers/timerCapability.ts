/**
 * Timers join the core as a capability: the manager (it observes the core's entries, so it is
 * built when the core attaches it, under its key), the timer decoration on every entry, and `core.timers`. Saved
 * timers come back once the project's entries exist (their owners); at shutdown the manager saves
 * the remaining times while the owners still run (their exit would drop the timers).
 */
import { DisposableStore, type Capability, type Clock, type Disposable } from '../base';
import type { DecorationKey, EntryDecoration, EntryDecorator } from '../sessions';
import { TIMER_DECORATION, timerDecorator } from './timerDecoration';
import { CoreTimerHost, type TimerCoreHost } from './timerHost';
import { TIMERS, TimerManager } from './timerManager';
import { FileTimerStore } from './timerStore';

export interface CreateTimerManagerOptions {
  /** The app's data directory: timers are saved there per project. Without it they live in memory. */
  dataDir?: string;
  clock?: Clock;
  onProblem?: (message: string) => void;
}

interface TimerCapabilityHost extends TimerCoreHost {
  readonly projectDir: string;
  addEntryDecorator(key: DecorationKey<EntryDecoration>, decorator: EntryDecorator): Disposable;
}

export function timerCapability(options: CreateTimerManagerOptions = {}): Capability<TimerCapabilityHost> {
  return {
    name: 'timers',
    attach(core) {
      const store = new DisposableStore();
      const manager = store.add(
        new TimerManager({
          host: new CoreTimerHost(core),
          clock: options.clock,
          store: options.dataDir ? FileTimerStore.forProject(options.dataDir, core.projectDir) : undefined,
          onProblem: options.onProblem,
        }),
      );
      store.add(core.addEntryDecorator(TIMER_DECORATION, timerDecorator(manager)));
      store.add(core.services.provide(TIMERS, manager));
      return {
        afterInit: async () => void manager.restore(),
        beforeShutdown: async () => manager.dispose(),
        dispose: () => store.dispose(),
      };
    },
  };
}
