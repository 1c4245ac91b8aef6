/**
 * What each agent spent, per local day and per run, from the usage history's gains (new spending
 * only: a session file read again after a restart adds nothing). An agent's days are kept while
 * the app runs; the project's day comes from the history itself, which survives restarts.
 */
import type { BudgetConfig, BudgetPeriod, BudgetUnit } from '../../../shared/budget';

export interface Spend {
  usd: number;
  tokens: number;
}

const ZERO: Spend = { usd: 0, tokens: 0 };

interface AgentSpend {
  runId: number;
  run: Spend;
  /** By local day (YYYY-MM-DD): only today's is ever read, older days are dropped as they pass. */
  day: Map<string, Spend>;
}

export class BudgetLedger {
  private readonly agents = new Map<string, AgentSpend>();

  /** A gain of `id`'s run `runId` on `day`; a new run starts the run's count from zero. */
  add(id: string, runId: number, day: string, gain: Spend): void {
    let agent = this.agents.get(id);
    if (!agent || agent.runId !== runId) {
      agent = { runId, run: { ...ZERO }, day: agent?.day ?? new Map<string, Spend>() };
      this.agents.set(id, agent);
    }
    addInto(agent.run, gain);
    for (const d of agent.day.keys()) if (d !== day) agent.day.delete(d);
    addInto(agent.day.get(day) ?? setNew(agent.day, day), gain);
  }

  /** What `id` spent in `period`: today's (`day`) or its current run's (`runId`). */
  spentOf(id: string, period: BudgetPeriod, runId: number, day: string): Spend {
    const agent = this.agents.get(id);
    if (!agent) return { ...ZERO };
    if (period === 'run') return agent.runId === runId ? { ...agent.run } : { ...ZERO };
    return { ...(agent.day.get(day) ?? ZERO) };
  }

  forget(id: string): void {
    this.agents.delete(id);
  }
}

function addInto(into: Spend, gain: Spend): void {
  into.usd += gain.usd;
  into.tokens += gain.tokens;
}

function setNew(map: Map<string, Spend>, key: string): Spend {
  const spend = { ...ZERO };
  map.set(key, spend);
  return spend;
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
