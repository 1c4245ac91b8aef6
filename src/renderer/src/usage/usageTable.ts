/**
 * The usage view's tables (docs/usage.md, "The usage view"): every open project's `getUsage`
 * answer (the same core method as MCP get_usage), local and remote, turned into per-agent rows,
 * per-day rows, totals per project, worktree, host and day, and the daily chart's bars.
 */
import type { BudgetState } from '../../../shared/budget';
import type { CostSource, ProcessUsage, ProjectUsage, TokenCounts, UsageWindow } from '../../../shared/usage';

/** The host label of this machine's projects (a remote project carries its SSH destination). */
export const LOCAL_HOST = 'this machine';

/** One open project's answer, or why it gave none (a host not connected). */
export interface ProjectUsageSource {
  project: { id: string; name: string; host?: string };
  usage?: ProjectUsage;
  problem?: string;
}

export interface AgentRow extends TokenCounts {
  key: string;
  processId: string;
  projectId: string;
  project: string;
  worktree: string;
  host: string;
  agent: string;
  preset: string | null;
  cost_usd: number | null;
  cost_source: CostSource;
  context_used: number | null;
  context_window: number | null;
  windows: UsageWindow[];
  /** The agent's budget, null without a cap. */
  budget: BudgetState | null;
}

export interface DayRow extends TokenCounts {
  key: string;
  day: string;
  project: string;
  worktree: string;
  host: string;
  cost_usd: number;
}

export interface UsageTotal extends TokenCounts {
  label: string;
  cost_usd: number;
}

export type TotalDimension = 'project' | 'worktree' | 'host' | 'day';

const hostOf = (source: ProjectUsageSource) => source.project.host ?? LOCAL_HOST;

function tokensOf(t: TokenCounts): number {
  return t.input_tokens + t.output_tokens + t.cache_read_tokens + t.cache_write_tokens;
}

const tokenFields = (t: TokenCounts): TokenCounts => ({
  input_tokens: t.input_tokens,
  output_tokens: t.output_tokens,
  cache_read_tokens: t.cache_read_tokens,
  cache_write_tokens: t.cache_write_tokens,
});

/** Every agent of every project that answered, by project, then as the project lists them. */
export function agentRows(sources: readonly ProjectUsageSource[]): AgentRow[] {
  return sources.flatMap((source) =>
    (source.usage?.agents ?? []).map((a: ProcessUsage) => ({
      key: `${source.project.id}/${a.process_id}`,
      processId: a.process_id,
      projectId: source.project.id,
      project: source.project.name,
      worktree: a.worktree,
      host: hostOf(source),
      agent: a.name,
      preset: a.preset,
      ...tokenFields(a),
      cost_usd: a.cost_usd,
      cost_source: a.cost_source,
      context_used: a.context_used,
      context_window: a.context_window,
      windows: a.windows,
      budget: a.budget,
    })),
  );
}

/** The kept history's rows of every project that answered, newest day first. */
export function dayRows(sources: readonly ProjectUsageSource[]): DayRow[] {
  const rows = sources.flatMap((source) =>
    (source.usage?.days ?? []).map((d) => ({
      key: `${source.project.id}/${d.day}/${d.worktree}`,
      day: d.day,
      project: source.project.name,
      worktree: d.worktree,
      host: hostOf(source),
      ...tokenFields(d),
      cost_usd: d.cost_usd,
    })),
  );
  return rows.sort((a, b) => b.day.localeCompare(a.day) || a.project.localeCompare(b.project) || a.worktree.localeCompare(b.worktree));
}

/** Sums of the rows per value of `dimension`; days newest first, the others largest first. */
export function totalsBy(rows: readonly DayRow[], dimension: TotalDimension): UsageTotal[] {
  const byLabel = new Map<string, UsageTotal>();
  for (const row of rows) {
    const label = dimension === 'worktree' ? `${row.project} · ${row.worktree}` : row[dimension];
    const total = byLabel.get(label) ?? {
      label,
      input_tokens: 0,
      output_tokens: 0,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      cost_usd: 0,
    };
    addInto(total, row);
    byLabel.set(label, total);
  }
  const totals = [...byLabel.values()];
  return dimension === 'day'
    ? totals.sort((a, b) => b.label.localeCompare(a.label))
    : totals.sort((a, b) => b.cost_usd - a.cost_usd || tokensOf(b) - tokensOf(a) || a.label.localeCompare(b.label));
}

/** The agents' sum: cost over the priced ones, marked estimated when any is, unpriced when none is priced. */
export function agentsTotal(rows: readonly AgentRow[]): TokenCounts & { cost_usd: number | null; cost_source: CostSource } {
  const total = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: 0 };
  for (const row of rows) addInto(total, { ...row, cost_usd: row.cost_usd ?? 0 });
  const priced = rows.filter((r) => r.cost_usd !== null);
  if (priced.length === 0) return { ...total, cost_usd: rows.length ? null : 0, cost_source: rows.length ? 'unpriced' : 'cli' };
  return { ...total, cost_usd: roundUsd(total.cost_usd), cost_source: priced.every((r) => r.cost_source === 'cli') ? 'cli' : 'estimated' };
}

interface ChartBar {
  day: string;
  cost_usd: number;
  tokens: number;
  /** 0–100: the bar's length against the largest day shown. */
  percent: number;
}

/**
 * One bar per day of the last `days` days up to `today` (empty days included, so the gaps show),
 * measured in cost when any day has one, else in tokens.
 */
export function chartBars(rows: readonly DayRow[], today: string, days = 14): { bars: ChartBar[]; measure: 'cost' | 'tokens' } {
  const totals = new Map(totalsBy(rows, 'day').map((t) => [t.label, t]));
  const bars = lastDays(today, days).map((day) => ({
    day,
    cost_usd: totals.get(day)?.cost_usd ?? 0,
    tokens: totals.has(day) ? tokensOf(totals.get(day)!) : 0,
    percent: 0,
  }));
  const measure = bars.some((b) => b.cost_usd > 0) ? 'cost' : 'tokens';
  const valueOf = (b: ChartBar) => (measure === 'cost' ? b.cost_usd : b.tokens);
  const largest = Math.max(0, ...bars.map(valueOf));
  for (const bar of bars) bar.percent = largest > 0 ? Math.round((100 * valueOf(bar)) / largest) : 0;
  return { bars, measure };
}

/** `count` local dates (YYYY-MM-DD) ending at `today`, oldest first. */
function lastDays(today: string, count: number): string[] {
  const [year, month, day] = today.split('-').map(Number);
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(year, month - 1, day - (count - 1 - i));
    return localDate(date);
  });
}

/** The local date as the history keys its days. */
export function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function addInto(total: TokenCounts & { cost_usd: number }, row: TokenCounts & { cost_usd: number }): void {
  total.input_tokens += row.input_tokens;
  total.output_tokens += row.output_tokens;
  total.cache_read_tokens += row.cache_read_tokens;
  total.cache_write_tokens += row.cache_write_tokens;
  total.cost_usd = roundUsd(total.cost_usd + row.cost_usd);
}

/** Sums of money keep six decimals, as the core's figures do, so float noise never shows. */
function roundUsd(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
