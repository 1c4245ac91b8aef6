/** What an agent spends and how close it is to its limits, as every side sees it (docs/usage.md). Owned by core/usage. */
import { z } from 'zod';
import type { BudgetState } from './budget';

/**
 * Where `cost_usd` comes from: `cli` is the agent CLI's own figure; `estimated` is computed from
 * the price table in the repository (core/usage/priceTable.ts, with its source and date);
 * `unpriced` means neither exists for the model (cost_usd is null).
 */
const COST_SOURCES = ['cli', 'estimated', 'unpriced'] as const;
export type CostSource = (typeof COST_SOURCES)[number];

/**
 * `hook_event_name` of a usage record an agent's own plugin posts to the hook receiver (opencode's
 * step-finish parts; docs/usage.md): one model response's tokens and cost, counted once per `id`.
 */
export const USAGE_STEP_HOOK = 'UsageStep';

/** At this share of a usage window the agent's row says so and a person is told once (docs/usage.md). */
export const WINDOW_WARNING_PERCENT = 80;

/** A usage window the CLI knows (a five-hour or weekly window, a per-model limit). */
export const UsageWindow = z.object({
  name: z.string(),
  used_percent: z.number(),
  /** ISO time of the window's reset; null when the CLI does not say. */
  resets_at: z.string().nullable(),
});
export type UsageWindow = z.infer<typeof UsageWindow>;

/**
 * Token counts in the Messages API's sense: `input_tokens` is input NOT read from the cache, so
 * the four counts add up to what was processed (an OpenAI-style input count that includes its
 * cached part is split on reading).
 */
export const TokenCounts = z.object({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_read_tokens: z.number().int().nonnegative(),
  cache_write_tokens: z.number().int().nonnegative(),
});
export type TokenCounts = z.infer<typeof TokenCounts>;

/**
 * A usage window an agent has used 80 % or more of, as the inbox shows it: once per window and
 * reset, until a person dismisses it (docs/usage.md, "Warnings before the wall").
 */
export interface UsageWarning {
  /** The window's name as the CLI knows it (`5h`, `weekly`). */
  window: string;
  used_percent: number;
  resets_at: string | null;
  /** Epoch ms when the window first reached the warning share. */
  raised_at: number;
}

/** One agent entry's usage, read from its CLI's own records. */
export const UsageRecord = TokenCounts.extend({
  cost_usd: z.number().nonnegative().nullable(),
  cost_source: z.enum(COST_SOURCES),
  /** Tokens in the context window as of the last model response; null when the CLI's records do not say. */
  context_used: z.number().int().nonnegative().nullable(),
  context_window: z.number().int().positive().nullable(),
  windows: z.array(UsageWindow),
  /** The model of the last response, as the CLI recorded it. */
  model: z.string().nullable(),
  /** Where the figures were read (a CLI's file kind, e.g. "claude transcript"); null while none was found. */
  source: z.string().nullable(),
});
export type UsageRecord = z.infer<typeof UsageRecord>;

export const EMPTY_TOKENS: TokenCounts = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };

/** An entry's record with what identifies it (get_usage with a process id). */
export interface ProcessUsage extends UsageRecord {
  process_id: string;
  name: string;
  preset: string | null;
  /** The worktree the agent runs in ("main" for the project folder), as the history names it. */
  worktree: string;
  /** The agent's budget (its own, or the project's when that is the one reached or the only one); null without one. */
  budget: BudgetState | null;
}

/** The project's totals (get_usage without a process id): sums over its agent entries. */
export interface ProjectUsage extends TokenCounts {
  cost_usd: number | null;
  /** `cli` only when every priced agent's figure is its CLI's own; `estimated` when any is estimated. */
  cost_source: CostSource;
  context_used: null;
  context_window: null;
  /** Every agent's windows, named `<agent name>: <window>`. */
  windows: UsageWindow[];
  /** The project's budget over all its agents; null without one. */
  budget: BudgetState | null;
  agents: ProcessUsage[];
  /** Totals per day, worktree and host, kept across restarts (oldest first). */
  days: UsageDay[];
}

/** One day's totals of one worktree on one host (the usage history kept in the data folder). */
export interface UsageDay extends TokenCounts {
  /** Local date, YYYY-MM-DD. */
  day: string;
  /** "main" for the project folder. */
  worktree: string;
  host: string;
  cost_usd: number;
}
