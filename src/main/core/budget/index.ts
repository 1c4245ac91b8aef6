/** Budgets (docs/usage.md, "Budgets"): the public surface of core/budget. */
export { budgetCapability, budgetOf } from './budgetCapability';
export { agentUsageWithBudget, projectUsageWithBudgets } from './usageWithBudgets';
