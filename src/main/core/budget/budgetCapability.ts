/**
 * Budgets join the core as a capability: the service under its key and as the turn gate
 * (`TURN_GATE`) every delivery of Switchboard's own passes, and each agent's `budget` field.
 * Listed after usage (whose gains it counts) and before the timers (whose deliveries it gates).
 */
import type { Capability, Disposable, ServiceRegistry } from '../base';
import { KeyedStateDecoration, TURN_GATE, type DecorationKey, type EntryDecoration, type EntryDecorator } from '../sessions';
import { serviceKey } from '../base';
import { usageOf } from '../usage';
import { BUDGET, BudgetService, type BudgetHost } from './budgetService';

interface BudgetCapabilityHost extends BudgetHost {
  readonly services: ServiceRegistry;
  addEntryDecorator(key: DecorationKey<EntryDecoration>, decorator: EntryDecorator): Disposable;
}

const BUDGET_DECORATION: DecorationKey<EntryDecoration> = serviceKey('budget');

export function budgetCapability(options: { now?: () => number } = {}): Capability<BudgetCapabilityHost> {
  return {
    name: 'budgets',
    attach(core) {
      const service = new BudgetService(core, usageOf(core), options.now);
      const provided = core.services.provide(BUDGET, service);
      const gate = core.services.provide(TURN_GATE, service);
      const decorated = core.addEntryDecorator(BUDGET_DECORATION, (entry) =>
        entry.kind === 'agent' ? new KeyedStateDecoration(entry.id, service.onDidChange, () => budgetField(service, entry.id)) : undefined,
      );
      return {
        dispose: () => {
          decorated.dispose();
          gate.dispose();
          provided.dispose();
          service.dispose();
        },
      };
    },
  };
}

function budgetField(service: BudgetService, id: string): { budget?: ReturnType<BudgetService['stateOf']> } {
  const budget = service.stateOf(id);
  return budget ? { budget } : {};
}

/** The core's budget service, or a clear error for a core built without it. */
export function budgetOf(core: { readonly services: ServiceRegistry }): BudgetService {
  const service = core.services.find(BUDGET);
  if (!service) throw new Error('This core was built without the budget capability.');
  return service;
}
