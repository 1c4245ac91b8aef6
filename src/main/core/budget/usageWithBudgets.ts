/** Usage answers with the budgets filled in: what MCP get_usage and the usage view both show. */
import type { ServiceRegistry } from '../base';
import { usageOf } from '../usage';
import type { ProcessUsage, ProjectUsage } from '../../../shared/usage';
import { budgetOf } from './budgetCapability';

type CoreWithServices = { readonly services: ServiceRegistry };

export function agentUsageWithBudget(core: CoreWithServices, id: string): ProcessUsage {
  return withBudget(core, usageOf(core).ofProcess(id));
}

export function projectUsageWithBudgets(core: CoreWithServices): ProjectUsage {
  const project = usageOf(core).ofProject();
  return { ...project, budget: budgetOf(core).projectState(), agents: project.agents.map((a) => withBudget(core, a)) };
}

function withBudget(core: CoreWithServices, usage: ProcessUsage): ProcessUsage {
  return { ...usage, budget: budgetOf(core).stateOf(usage.process_id) ?? null };
}
