/**
 * Blocked agents join the core as a capability: the service under its key, following the core's
 * status events (attention once per episode) and the timers (the check after a continue at reset),
 * and each agent entry's effective continue-at-reset setting.
 * Listed after the timers, whose manager it follows.
 */
import type { Capability, Disposable, ServiceRegistry } from '../base';
import type { DecorationKey, EntryDecoration, EntryDecorator } from '../sessions';
import { TIMERS } from '../timers';
import { BLOCKED, BlockedAgents, type BlockedAgentsOptions, type BlockedHost } from './blockedAgents';
import { CONTINUE_SETTING_DECORATION, continueSettingDecorator } from './continueSetting';

interface BlockedCapabilityHost extends BlockedHost {
  readonly services: ServiceRegistry;
  addEntryDecorator(key: DecorationKey<EntryDecoration>, decorator: EntryDecorator): Disposable;
}

export function blockedCapability(options: BlockedAgentsOptions = {}): Capability<BlockedCapabilityHost> {
  return {
    name: 'blocked agents',
    attach(core) {
      const service = new BlockedAgents(core, options);
      const timers = core.services.find(TIMERS);
      if (timers) service.followTimers(timers);
      const provided = core.services.provide(BLOCKED, service);
      const decorated = core.addEntryDecorator(CONTINUE_SETTING_DECORATION, continueSettingDecorator(service.settings));
      return {
        dispose: () => {
          decorated.dispose();
          provided.dispose();
          service.dispose();
        },
      };
    },
  };
}

/** The core's blocked-agents service, or a clear error for a core built without it. */
export function blockedAgentsOf(core: { readonly services: ServiceRegistry }): BlockedAgents {
  const service = core.services.find(BLOCKED);
  if (!service) throw new Error('This core was built without the blocked-agents capability.');
  return service;
}
