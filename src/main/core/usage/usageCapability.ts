/** Usage joins the core as a capability: each agent entry's reader (a decoration) and the service under its key. */
import type { Capability, Disposable, ServiceRegistry } from '../base';
import type { DecorationKey, EntryDecoration, EntryDecorator } from '../sessions';
import type { UsageRecord } from '../../../shared/usage';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { AGENT_USAGE, agentUsageDecorator } from './agentUsage';
import { UsageHistory, type FileObservation } from './usageHistory';
import { CoalescedSave } from './coalescedSave';
import { USAGE_WARNING_ROWS, USAGE_WARNINGS, WindowWarnings, type AttentionHost } from './windowWarnings';
import { USAGE, UsageService, type UsageHost } from './usageService';

export interface UsageCapabilityOptions {
  /** Where the history is kept (`<dataDir>/usage/<hash of the project folder>.json`); without it, the totals live as long as the core. */
  dataDir?: string;
  projectDir?: string;
}

/** One file per project, named as the timers' and the view state's are. */
function historyFileOf(dataDir: string, projectDir: string): string {
  const key = createHash('sha256').update(resolve(projectDir)).digest('hex').slice(0, 16);
  return join(dataDir, 'usage', `${key}.json`);
}

interface UsageCapabilityHost extends UsageHost, AttentionHost {
  readonly services: ServiceRegistry;
  addEntryDecorator(key: DecorationKey<EntryDecoration>, decorator: EntryDecorator): Disposable;
}

export function usageCapability(options: UsageCapabilityOptions = {}): Capability<UsageCapabilityHost> {
  return {
    name: 'agent usage',
    attach(core) {
      const file = options.dataDir && options.projectDir ? historyFileOf(options.dataDir, options.projectDir) : undefined;
      const history = new UsageHistory(file);
      const saver = new CoalescedSave(() => saveQuietly(history));
      const flush = () => saver.flush();
      process.once('exit', flush);
      const warnings = new WindowWarnings(core);
      const service = new UsageService(core, history);
      const observe = (observations: FileObservation[], record: UsageRecord, entry: { id: string; name: string; runId: number }) => {
        const gains = observations.map((o) => history.gainOf(o)).filter((g) => g !== undefined);
        if (gains.length > 0) saver.request();
        warnings.check(entry, record);
        if (gains.length > 0) service.gained(entry, gains);
      };
      const decorated = core.addEntryDecorator(AGENT_USAGE, agentUsageDecorator(observe));
      const warningRows = core.addEntryDecorator(USAGE_WARNING_ROWS, warnings.decorator);
      const provided = core.services.provide(USAGE, service);
      const providedWarnings = core.services.provide(USAGE_WARNINGS, warnings);
      return {
        dispose: () => {
          providedWarnings.dispose();
          service.dispose();
          provided.dispose();
          warningRows.dispose();
          decorated.dispose();
          process.off('exit', flush);
          flush();
        },
      };
    },
  };
}

/** A history that cannot be written (disk full, folder gone) loses the newest totals, never the run. */
function saveQuietly(history: UsageHistory): void {
  try {
    history.save();
  } catch {
    // Reported nowhere yet: the next change tries again.
  }
}

/** The core's usage warnings (the inbox rows a person dismisses), or a clear error for a core built without them. */
export function usageWarningsOf(core: { readonly services: ServiceRegistry }): WindowWarnings {
  const service = core.services.find(USAGE_WARNINGS);
  if (!service) throw new Error('This core was built without the usage capability.');
  return service;
}

/** The core's usage service, or a clear error for a core built without it. */
export function usageOf(core: { readonly services: ServiceRegistry }): UsageService {
  const service = core.services.find(USAGE);
  if (!service) throw new Error('This core was built without the usage capability.');
  return service;
}

/** A usage record an agent's plugin posted to the hook receiver; a core without usage ignores it. */
export function postUsageRecord(core: { readonly services: ServiceRegistry }, processId: string, record: unknown): void {
  core.services.find(USAGE)?.post(processId, record);
}
