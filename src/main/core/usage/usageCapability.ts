/** Usage joins the core as a capability: each agent entry's reader (a decoration) and the service under its key. */
import type { Capability, Disposable, ServiceRegistry } from '../base';
import type { DecorationKey, EntryDecoration, EntryDecorator } from '../sessions';
import { AGENT_USAGE, agentUsageDecorator } from './agentUsage';
import { USAGE, UsageService, type UsageHost } from './usageService';

interface UsageCapabilityHost extends UsageHost {
  readonly services: ServiceRegistry;
  addEntryDecorator(key: DecorationKey<EntryDecoration>, decorator: EntryDecorator): Disposable;
}

export function usageCapability(): Capability<UsageCapabilityHost> {
  return {
    name: 'agent usage',
    attach(core) {
      const decorated = core.addEntryDecorator(AGENT_USAGE, agentUsageDecorator);
      const provided = core.services.provide(USAGE, new UsageService(core));
      return {
        dispose: () => {
          provided.dispose();
          decorated.dispose();
        },
      };
    },
  };
}

/** The core's usage service, or a clear error for a core built without it. */
export function usageOf(core: { readonly services: ServiceRegistry }): UsageService {
  const service = core.services.find(USAGE);
  if (!service) throw new Error('This core was built without the usage capability.');
  return service;
}
