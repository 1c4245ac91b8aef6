/** Budgets: a cap on what an agent or the project spends, and what Switchboard holds at it (docs/usage.md, "Budgets"). Owned by core/budget. */
import { z } from 'zod';

const BUDGET_PERIODS = ['day', 'run'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];
const BUDGET_UNITS = ['usd', 'tokens'] as const;
export type BudgetUnit = (typeof BUDGET_UNITS)[number];

/**
 * `budget` in switchboard.json (top level for the project, or on an agent entry): a cap in US
 * dollars (`usd`) or tokens processed (`tokens`: input, output, cache read and cache write), per
 * local day or per run. `interrupt` also presses the CLI's interrupt key when the cap is reached.
 */
export const BudgetConfigSchema = z
  .strictObject({
    usd: z.number().positive('usd must be more than 0').max(1_000_000).optional(),
    tokens: z.number().int('tokens must be a whole number').positive('tokens must be more than 0').optional(),
    period: z.enum(BUDGET_PERIODS, { error: () => `period must be one of ${BUDGET_PERIODS.join(', ')}` }),
    interrupt: z.boolean().optional(),
  })
  .refine((b) => (b.usd === undefined) !== (b.tokens === undefined), { message: 'a budget has exactly one cap: "usd" or "tokens"' });
export type BudgetConfig = z.infer<typeof BudgetConfigSchema>;

/** Where an agent's effective budget comes from: set at run time, its entry, or the project's. */
export type BudgetSource = 'runtime' | 'agent' | 'project';

/** An agent's budget as get_usage, the UI and `serve` see it. */
export const BudgetState = z.object({
  cap: z.number().positive(),
  unit: z.enum(BUDGET_UNITS),
  period: z.enum(BUDGET_PERIODS),
  /** `project`: the cap is the project's, and `spent` sums every agent of the project. */
  scope: z.enum(['agent', 'project']),
  source: z.enum(['runtime', 'agent', 'project']),
  spent: z.number().nonnegative(),
  remaining: z.number().nonnegative(),
  /** Deliveries Switchboard is holding for this agent now (timers and continues due, instructions waiting). */
  held: z.number().int().nonnegative(),
  reached: z.boolean(),
  /** A person's "go on once" not used yet: the next delivery passes. */
  goOnce: z.boolean(),
});
export type BudgetState = z.infer<typeof BudgetState>;

/** Set (or, with `budget: null`, remove) an agent's budget at run time: the UI's and `serve`'s command. */
export const SetBudgetArgsSchema = z.strictObject({
  id: z.string().min(1),
  budget: BudgetConfigSchema.nullable(),
  /** `project`: the project's cap (over all its agents) instead of this agent's own. */
  scope: z.enum(['agent', 'project']).optional(),
});
export type SetBudgetArgs = z.infer<typeof SetBudgetArgsSchema>;

/** Let exactly one held delivery through to an agent at its cap. */
export const BudgetGoOnceArgsSchema = z.strictObject({ id: z.string().min(1) });
export type BudgetGoOnceArgs = z.infer<typeof BudgetGoOnceArgsSchema>;

export interface BudgetCommandResult {
  id: string;
  budget: BudgetState | null;
  done: string;
}

/** A delivery held for a reason Switchboard names (today only the budget). */
export interface DeliveryHold {
  reason: 'budget';
  message: string;
}
