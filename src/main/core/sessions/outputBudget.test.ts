import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUDGET_SHARE, BUDGET_WINDOW_MS, OutputBudget, type BudgetClient } from './outputBudget';

function client() {
  const changes: boolean[] = [];
  const c: BudgetClient & { changes: boolean[] } = { changes, setOverBudget: (over) => changes.push(over) };
  return c;
}

describe('OutputBudget', () => {
  afterEach(() => vi.useRealTimers());

  it('pauses the entries that flooded once the window is spent, never a quiet one, and resumes them when it ends', () => {
    vi.useFakeTimers();
    let now = 0;
    const budget = new OutputBudget(() => now);
    const floods = [client(), client()];
    const quiet = client();
    budget.spend(quiet, 0.3);
    const perChunkMs = 5;
    let spent = 0.3;
    while (spent <= BUDGET_WINDOW_MS * BUDGET_SHARE) {
      for (const flood of floods) budget.spend(flood, perChunkMs);
      spent += perChunkMs * floods.length;
      now += 1;
    }
    for (const flood of floods) expect(flood.changes).toEqual([true]);
    expect(quiet.changes).toEqual([]);
    now = BUDGET_WINDOW_MS;
    vi.advanceTimersByTime(BUDGET_WINDOW_MS);
    for (const flood of floods) expect(flood.changes).toEqual([true, false]);
  });

  it('lets output use the loop while it stays within the share', () => {
    let now = 0;
    const budget = new OutputBudget(() => now);
    const flood = client();
    for (let i = 0; i < 100; i++) {
      budget.spend(flood, BUDGET_WINDOW_MS * BUDGET_SHARE * 0.5);
      now += BUDGET_WINDOW_MS;
    }
    expect(flood.changes).toEqual([]);
  });

  it('never resumes an entry it was told to forget', () => {
    vi.useFakeTimers();
    let now = 0;
    const budget = new OutputBudget(() => now);
    const flood = client();
    budget.spend(flood, BUDGET_WINDOW_MS);
    budget.forget(flood);
    now = BUDGET_WINDOW_MS;
    vi.advanceTimersByTime(BUDGET_WINDOW_MS);
    expect(flood.changes).toEqual([true]);
  });
});
