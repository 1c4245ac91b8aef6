/**
 * Budgets against a stand-in core and usage gains: the period math (a day, a run), an agent's and
 * the project's cap, the hold with reason "budget", attention once per reaching, "go on once"
 * letting exactly one delivery through, a raised cap, and the interrupt.
 */
import { describe, expect, it, vi } from 'vitest';
import { Emitter } from '../base';
import type { ProcessEntry } from '../sessions';
import { localDay, type Counted, type UsageGain } from '../usage';
import type { ControlEvent } from '../../../shared/api';
import type { BudgetConfig } from '../../../shared/budget';
import { BudgetLedger } from './budgetLedger';
import { BudgetService, type BudgetHost } from './budgetService';

const DAY_MS = 86_400_000;

interface FakeAgent {
  id: string;
  name: string;
  kind: 'agent';
  runId: number;
  isRunning: boolean;
  definition: { budget?: BudgetConfig };
}

function world(options: { project?: BudgetConfig; agents?: Record<string, BudgetConfig | undefined> } = {}) {
  const events = new Emitter<ControlEvent>();
  const gains = new Emitter<UsageGain>();
  const agents = new Map<string, FakeAgent>();
  for (const [id, budget] of Object.entries(options.agents ?? { p_a: undefined })) {
    agents.set(id, { id, name: id.slice(2), kind: 'agent', runId: 1, isRunning: true, definition: budget ? { budget } : {} });
  }
  const attention: Array<{ id: string; reason: string }> = [];
  const written: Array<{ id: string; data: string }> = [];
  let now = new Date(2026, 10, 29, 10).getTime();
  // What the usage history keeps: per local day, the project's and each agent's.
  const days = new Map<string, Counted>();
  const dayOf = (key: string): Counted =>
    days.get(`${localDay(now)} ${key}`) ?? { cost_usd: 0, input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
  const book = (key: string, usd: number, tokens: number) => {
    const row = dayOf(key);
    days.set(`${localDay(now)} ${key}`, { ...row, cost_usd: row.cost_usd + usd, input_tokens: row.input_tokens + tokens });
  };
  const host: BudgetHost = {
    onEvent: events.event,
    projectBudget: options.project,
    findEntry: (id) => agents.get(id) as unknown as ProcessEntry | undefined,
    entries: () => [...agents.values()] as unknown as ProcessEntry[],
    requestAttention: (id, reason) => attention.push({ id, reason }),
    writeInput: (id, data) => written.push({ id, data }),
  };
  const usage = { onDidGain: gains.event, today: () => dayOf('project'), agentToday: (entry: ProcessEntry) => dayOf(entry.id) };
  const service = new BudgetService(host, usage, () => now);
  const spend = (id: string, usd: number, tokens = 0) => {
    book('project', usd, tokens);
    book(id, usd, tokens);
    gains.fire({
      id,
      runId: agents.get(id)!.runId,
      cost_usd: usd,
      input_tokens: tokens,
      output_tokens: 0,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
    });
  };
  return {
    service,
    attention,
    written,
    spend,
    agents,
    later: (ms: number) => (now += ms),
  };
}

describe('the ledger', () => {
  it('counts a run from its start', () => {
    const ledger = new BudgetLedger();
    ledger.add('p_a', 1, { usd: 1, tokens: 100 });
    ledger.add('p_a', 2, { usd: 0.5, tokens: 50 });
    ledger.add('p_a', 2, { usd: 0.25, tokens: 25 });
    expect(ledger.spentInRun('p_a', 2)).toEqual({ usd: 0.75, tokens: 75 });
    expect(ledger.spentInRun('p_a', 1)).toEqual({ usd: 0, tokens: 0 });
    expect(ledger.spentInRun('p_b', 1)).toEqual({ usd: 0, tokens: 0 });
  });
});

describe('an agent at its cap', () => {
  it('is held with reason budget, told once, and "go on once" lets exactly one delivery through', () => {
    const w = world({ agents: { p_a: { usd: 1, period: 'day' } } });
    w.spend('p_a', 0.6);
    expect(w.service.admit('p_a', 'a timer')).toBeUndefined();
    expect(w.service.stateOf('p_a')).toMatchObject({ cap: 1, unit: 'usd', period: 'day', spent: 0.6, remaining: 0.4, reached: false });
    w.spend('p_a', 0.5);
    w.spend('p_a', 0.1);
    expect(w.attention).toHaveLength(1);
    expect(w.attention[0].reason).toBe(
      'a: its budget is reached ($1.10 of $1.00 per day); Switchboard sends it nothing more until you go on once or raise the cap',
    );
    const hold = w.service.admit('p_a', 'a timer');
    expect(hold).toMatchObject({ reason: 'budget' });
    expect(hold!.message).toContain('a timer was not sent');
    expect(hold!.message).toContain('Go on once');
    w.service.goOnce({ id: 'p_a' });
    expect(w.service.stateOf('p_a')).toMatchObject({ reached: true, goOnce: true });
    expect(w.service.admit('p_a', 'a timer')).toBeUndefined();
    expect(w.service.admit('p_a', 'a timer')).toMatchObject({ reason: 'budget' });
    expect(w.attention).toHaveLength(1);
  });

  it('counts what is held, and a day cap starts over the next day', () => {
    const w = world({ agents: { p_a: { tokens: 1000, period: 'day' } } });
    w.spend('p_a', 0, 1000);
    w.service.waiting('p_a', 1);
    w.service.waiting('p_a', 1);
    expect(w.service.stateOf('p_a')).toMatchObject({ spent: 1000, remaining: 0, held: 2, reached: true, unit: 'tokens' });
    w.later(DAY_MS);
    expect(w.service.stateOf('p_a')).toMatchObject({ spent: 0, reached: false });
  });

  it('a day cap reached is checked again just past local midnight: its holds are told without new spending', () => {
    vi.useFakeTimers();
    try {
      const w = world({ agents: { p_a: { usd: 1, period: 'day' } } });
      const told: string[] = [];
      w.service.onDidChange((id) => told.push(id));
      w.spend('p_a', 1.5);
      expect(w.service.stateOf('p_a')?.reached).toBe(true);
      told.length = 0;
      const toMidnight = 14 * 3_600_000; // the world's clock reads 10:00
      w.later(toMidnight - 1_000);
      vi.advanceTimersByTime(toMidnight - 1_000);
      expect(told).toEqual([]);
      w.later(2_000);
      vi.advanceTimersByTime(2_000);
      expect(told).toEqual(['p_a']);
      expect(w.service.stateOf('p_a')).toMatchObject({ spent: 0, reached: false });
      expect(w.service.admit('p_a', 'a timer')).toBeUndefined();
      w.service.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a run cap starts over with a new run', () => {
    const w = world({ agents: { p_a: { usd: 1, period: 'run' } } });
    w.spend('p_a', 1);
    expect(w.service.stateOf('p_a')?.reached).toBe(true);
    w.agents.get('p_a')!.runId = 2;
    expect(w.service.stateOf('p_a')).toMatchObject({ spent: 0, reached: false });
  });

  it('a raised cap releases the holds, and reaching the new cap tells the person again', () => {
    const w = world({ agents: { p_a: { usd: 1, period: 'day' } } });
    const changed: string[] = [];
    w.service.onDidChange((id) => changed.push(id));
    w.spend('p_a', 1);
    expect(w.service.setBudget({ id: 'p_a', budget: { usd: 2, period: 'day' } })).toMatchObject({
      budget: { cap: 2, source: 'runtime', reached: false },
      done: 'cap set to $2.00 per day',
    });
    expect(changed).toContain('p_a');
    expect(w.service.admit('p_a', 'a timer')).toBeUndefined();
    w.spend('p_a', 1);
    expect(w.attention).toHaveLength(2);
  });

  it('with interrupt, presses the CLI interrupt key once at the cap', () => {
    const w = world({ agents: { p_a: { usd: 1, period: 'day', interrupt: true } } });
    w.spend('p_a', 2);
    w.spend('p_a', 1);
    expect(w.written).toEqual([{ id: 'p_a', data: '\x1b' }]);
  });

  it('go on once is refused for an agent not at a cap', () => {
    const w = world({ agents: { p_a: { usd: 1, period: 'day' } } });
    expect(() => w.service.goOnce({ id: 'p_a' })).toThrow(/not at a budget/);
  });
});

describe("the project's cap", () => {
  it('sums its agents and holds every one of them', () => {
    const w = world({ project: { usd: 1, period: 'run' }, agents: { p_a: undefined, p_b: undefined } });
    w.spend('p_a', 0.6);
    expect(w.service.projectState()).toMatchObject({ spent: 0.6, reached: false, scope: 'project' });
    w.spend('p_b', 0.5);
    expect(w.service.projectState()).toMatchObject({ spent: 1.1, reached: true });
    expect(w.service.admit('p_a', 'a message')).toMatchObject({ reason: 'budget' });
    expect(w.service.admit('p_b', 'a message')!.message).toContain("project's budget");
    expect(w.attention.map((a) => a.id).sort()).toEqual(['p_a', 'p_b']);
  });

  it('per day, it is the day the usage history counted', () => {
    const w = world({ project: { tokens: 500, period: 'day' }, agents: { p_a: undefined } });
    w.spend('p_a', 0, 600);
    expect(w.service.stateOf('p_a')).toMatchObject({ scope: 'project', spent: 600, reached: true });
  });
});
