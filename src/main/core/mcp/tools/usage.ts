/** What agents spend and how close they are to their limits (docs/usage.md). */
import { agentUsageWithBudget, projectUsageWithBudgets } from '../../budget';
import { defineTool, type AnyToolDefinition } from '../toolContext';

const getUsage = defineTool({
  name: 'get_usage',
  title: 'Usage and limits',
  summary: "Tokens, cost, context fill and usage windows of an agent, or the project's totals.",
  description:
    'What an agent spent, read from its CLI\'s own records: input, output, cache read and cache write tokens; cost_usd with cost_source ("cli": the CLI\'s own figure, "estimated": from Switchboard\'s price table, "unpriced": neither); the context window\'s fill (context_used / context_window); and the usage windows the CLI knows (name, used_percent, resets_at); budget: {cap, unit, period, scope, spent, remaining, held, reached} when a cap applies (at it, Switchboard sends the agent nothing more until a person decides). With process_id: that agent (yourself, or an entry you may read); without: the project\'s totals with every agent\'s record, so work can go to the agent with room left.',
  annotations: { readOnlyHint: true },
  // The project's totals are status, as list_processes shows to every token; one entry's record needs the read right on it.
  requires: { perCall: ({ process_id }) => (process_id ? [{ entry: process_id, right: 'read', action: 'reading the usage of' }] : []) },
  run: ({ process_id }, _call, ctx) => (process_id ? agentUsageWithBudget(ctx.core, process_id) : projectUsageWithBudgets(ctx.core)),
});

export const usageTools: AnyToolDefinition[] = [getUsage];
