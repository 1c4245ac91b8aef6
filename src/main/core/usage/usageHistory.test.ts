import { mkdtempSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_DAYS, UsageHistory, localDay } from './usageHistory';

const DAY_MS = 24 * 3600_000;
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function historyFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'usage-history-'));
  dirs.push(dir);
  return path.join(dir, 'usage', 'project.json');
}

const file = (p: string, input: number, output: number, cost: number | null, worktree?: string) => ({
  path: p,
  input_tokens: input,
  output_tokens: output,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  cost_usd: cost,
  worktree,
});

describe('UsageHistory', () => {
  it("keeps each agent's day across a restart, and only the newest two days of them", () => {
    let at = new Date(2026, 10, 29, 12).getTime();
    const path = historyFile();
    const first = new UsageHistory(path, () => at);
    first.observe({ ...file('/a.jsonl', 100, 10, 0.5), agent: 'main/worker' });
    first.observe({ ...file('/b.jsonl', 40, 4, 0.25), agent: 'p_other' });
    first.save();

    // After a restart the agent's day goes on from what it had spent; its file read again adds nothing.
    const second = new UsageHistory(path, () => at);
    second.observe({ ...file('/a.jsonl', 100, 10, 0.5), agent: 'main/worker' });
    second.observe({ ...file('/c.jsonl', 50, 5, 0.5), agent: 'main/worker' });
    expect(second.agentDayTotal('main/worker')).toEqual({
      input_tokens: 150,
      output_tokens: 15,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      cost_usd: 1,
    });
    expect(second.agentDayTotal('p_other').cost_usd).toBe(0.25);
    expect(second.agentDayTotal('nobody').cost_usd).toBe(0);

    at += DAY_MS;
    expect(second.agentDayTotal('main/worker').cost_usd).toBe(0);
    for (const d of [1, 2]) {
      second.observe({ ...file(`/d${d}.jsonl`, 10, 1, 0.1), agent: 'main/worker' });
      at += DAY_MS;
    }
    second.save();
    const third = new UsageHistory(path, () => at);
    expect(third.agentDayTotal('main/worker', localDay(at - DAY_MS)).cost_usd).toBe(0.1);
    expect(third.agentDayTotal('main/worker', localDay(at - 3 * DAY_MS)).cost_usd).toBe(0);
  });

  it('counts only what a file gained, per day and worktree, and goes on from the stored totals after a restart', () => {
    const at = new Date(2026, 10, 29, 12).getTime();
    const path = historyFile();
    const first = new UsageHistory(path, () => at);
    expect(first.observe(file('/a.jsonl', 100, 10, 0.5))).toBe(true);
    expect(first.observe(file('/a.jsonl', 150, 20, 0.75))).toBe(true);
    expect(first.observe(file('/b.jsonl', 7, 3, null, 'feature-a'))).toBe(true);
    expect(first.observe(file('/a.jsonl', 150, 20, 0.75))).toBe(false);
    first.save();
    expect(statSync(path).mode & 0o777).toBe(0o600);

    // A restart reads the same files again from their start: nothing is counted twice.
    const second = new UsageHistory(path, () => at + DAY_MS);
    expect(second.observe(file('/a.jsonl', 150, 20, 0.75))).toBe(false);
    expect(second.observe(file('/a.jsonl', 160, 21, 0.8))).toBe(true);
    const day1 = localDay(at);
    const day2 = localDay(at + DAY_MS);
    expect(second.rows()).toEqual([
      {
        day: day1,
        worktree: 'main',
        host: expect.any(String),
        input_tokens: 150,
        output_tokens: 20,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        cost_usd: 0.75,
      },
      {
        day: day1,
        worktree: 'feature-a',
        host: expect.any(String),
        input_tokens: 7,
        output_tokens: 3,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        cost_usd: 0,
      },
      {
        day: day2,
        worktree: 'main',
        host: expect.any(String),
        input_tokens: 10,
        output_tokens: 1,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        cost_usd: 0.05,
      },
    ]);
  });

  it('a rewritten file (totals went down) counts from zero again', () => {
    const history = new UsageHistory(undefined, () => 0);
    history.observe(file('/a.jsonl', 100, 10, null));
    history.observe(file('/a.jsonl', 5, 1, null));
    expect(history.rows()[0]).toMatchObject({ input_tokens: 105, output_tokens: 11 });
  });

  it(`keeps the newest ${MAX_DAYS} days`, () => {
    let now = new Date(2026, 0, 1, 12).getTime();
    const history = new UsageHistory(undefined, () => now);
    for (let i = 0; i < MAX_DAYS + 5; i++, now += DAY_MS) history.observe(file('/a.jsonl', i + 1, 0, null));
    const rows = history.rows();
    expect(rows).toHaveLength(MAX_DAYS);
    expect(rows[0].day).toBe(localDay(new Date(2026, 0, 1, 12).getTime() + 5 * DAY_MS));
  });

  it('an unreadable file is moved aside and history starts empty', () => {
    const path = historyFile();
    new UsageHistory(path).save();
    writeFileSync(path, '{ not json');
    const history = new UsageHistory(path);
    expect(history.rows()).toEqual([]);
    expect(readdirSync(path.replace(/project\.json$/, '')).some((f) => f.startsWith('project.json.unreadable-'))).toBe(true);
  });
});
