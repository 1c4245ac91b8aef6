/**
 * What each agent's current run spent, from the usage history's gains (new spending only: a
 * session file read again after a restart adds nothing). Days are the history's own (per agent
 * and per project), which survive restarts.
 */
import type { BudgetConfig, BudgetUnit } from '../../../shared/budget';
import { totalTokens, type Counted } from '../usage';

export interface Spend {
  usd: number;
  tokens: number;
}

const ZERO: Spend = { usd: 0, tokens: 0 };

export class BudgetLedger {
  private readonly runs = new Map<string, { runId: number; spent: Spend }>();

  /** A gain of `id`'s run `runId`; a new run starts the count from zero. */
  add(id: string, runId: number, gain: Spend): void {
    let run = this.runs.get(id);
    if (!run || run.runId !== runId) this.runs.set(id, (run = { runId, spent: { ...ZERO } }));
    run.spent.usd += gain.usd;
    run.spent.tokens += gain.tokens;
  }

  /** What `id`'s run `runId` spent (nothing once another run began). */
  spentInRun(id: string, runId: number): Spend {
    const run = this.runs.get(id);
    return run?.runId === runId ? { ...run.spent } : { ...ZERO };
  }

  forget(id: string): void {
    this.runs.delete(id);
  }
}

/** Tokens and USD counted by the history, as a budget compares them. */
export function spendOf(counted: Counted): Spend {
  return { usd: counted.cost_usd, tokens: totalTokens(counted) };
}

export function unitOf(config: BudgetConfig): BudgetUnit {
  return config.usd !== undefined ? 'usd' : 'tokens';
}

export function capOf(config: BudgetConfig): number {
  return config.usd ?? config.tokens ?? 0;
}

/** The figure a cap compares: US dollars, or every token processed. */
export function amountIn(unit: BudgetUnit, spend: Spend): number {
  return unit === 'usd' ? Math.round(spend.usd * 1e6) / 1e6 : spend.tokens;
}

/** "$1.00 per day", "100,000 tokens per run". */
export function describeCap(config: BudgetConfig): string {
  const per = config.period === 'day' ? 'per day' : 'per run';
  return unitOf(config) === 'usd' ? `$${capOf(config).toFixed(2)} ${per}` : `${capOf(config).toLocaleString('en-US')} tokens ${per}`;
}

/** "$1.02 of $1.00 per day", "120,400 of 100,000 tokens per run". */
export function describeSpend(config: BudgetConfig, spent: number): string {
  const amount = unitOf(config) === 'usd' ? `$${spent.toFixed(2)}` : spent.toLocaleString('en-US');
  return `${amount} of ${describeCap(config)}`;
}
