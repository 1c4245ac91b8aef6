/**
 * Continuity joins the core as a capability. Before the project's entries are created it reads the
 * previous run's state (and ends what a crashed run left behind) and becomes the core's restorer,
 * so config entries come back with their ids; once they exist, the entries spawned at run time
 * come back and saving starts; at shutdown it saves everything before the process trees go down
 * (their exits are not "stopped by the user").
 */
import type { Capability } from '../base';
import { ContinuityService, type ContinuityHost, type RestoreReport } from './continuityService';
import { StateStore } from './stateStore';

interface ContinuityOptions {
  /** The app's data directory: the state file and scrollbacks live there, per project. */
  dataDir: string;
  /** Problems while restoring or saving (a corrupt state file, a failed write). */
  onProblem?: (message: string) => void;
}

/** The continuity capability of one core, and what came back from the previous run once the core is initialised. */
export interface ContinuityCapability extends Capability<ContinuityHost> {
  /** What came back from the previous app run (empty until init has restored). */
  readonly restored: RestoreReport;
}

export function continuityCapability(options: ContinuityOptions): ContinuityCapability {
  const restored: RestoreReport = { restored: 0, leftoversKilled: 0, problems: [] };
  return {
    name: 'continuity',
    restored,
    attach(core) {
      const service = new ContinuityService(core, new StateStore(options.dataDir, core.projectDir), options.onProblem);
      return {
        beforeInit: async () => void Object.assign(restored, await service.prepare()),
        afterInit: () => service.restoreRuntimeEntries(restored),
        beforeShutdown: () => service.shutdown(),
        dispose: () => void service.shutdown(),
      };
    },
  };
}
