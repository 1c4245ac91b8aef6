import { describe, expect, it } from 'vitest';
import type { ProcessUsage, ProjectUsage, UsageDay } from '../../../shared/usage';
import { agentRows, agentsTotal, chartBars, dayRows, LOCAL_HOST, totalsBy, type ProjectUsageSource } from './usageTable';

const agent = (over: Partial<ProcessUsage>): ProcessUsage => ({
  process_id: 'p_1',
  name: 'claude',
  preset: 'claude',
  worktree: 'main',
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  cost_usd: null,
  cost_source: 'unpriced',
  context_used: null,
  context_window: null,
  windows: [],
  model: null,
  source: null,
  budget: null,
  ...over,
});

const day = (d: string, worktree: string, input: number, cost: number, host = 'laptop'): UsageDay => ({
  day: d,
  worktree,
  host,
  input_tokens: input,
  output_tokens: 10,
  cache_read_tokens: 100,
  cache_write_tokens: 1,
  cost_usd: cost,
});

const project = (agents: ProcessUsage[], days: UsageDay[]): ProjectUsage => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  cost_usd: null,
  cost_source: 'unpriced',
  context_used: null,
  context_window: null,
  windows: [],
  budget: null,
  agents,
  days,
});

const sources: ProjectUsageSource[] = [
  {
    project: { id: 'web', name: 'web' },
    usage: project(
      [
        agent({ process_id: 'p_1', name: 'alpha', input_tokens: 24_000, output_tokens: 520, cost_usd: 0.231, cost_source: 'estimated' }),
        agent({ process_id: 'p_2', name: 'beta', worktree: 'feature', input_tokens: 21_000, cost_usd: 0.1, cost_source: 'cli' }),
      ],
      [day('2026-11-28', 'main', 1_000, 0.5), day('2026-11-29', 'main', 2_000, 0.25), day('2026-11-29', 'feature', 300, 0.125)],
    ),
  },
  {
    project: { id: 'rp_1', name: 'api', host: 'dev@box' },
    usage: project(
      [agent({ process_id: 'p_1', name: 'codex', preset: 'codex', input_tokens: 7 })],
      [day('2026-11-29', 'main', 40, 0, 'box')],
    ),
  },
  { project: { id: 'rp_2', name: 'gone', host: 'down' }, problem: 'down is disconnected' },
];

describe('the usage view tables', () => {
  it('lists every agent of every project that answered, with its project, worktree and host', () => {
    const rows = agentRows(sources);
    expect(rows.map((r) => [r.key, r.agent, r.project, r.worktree, r.host])).toEqual([
      ['web/p_1', 'alpha', 'web', 'main', LOCAL_HOST],
      ['web/p_2', 'beta', 'web', 'feature', LOCAL_HOST],
      ['rp_1/p_1', 'codex', 'api', 'main', 'dev@box'],
    ]);
  });

  it("sums the agents' cost over the priced ones, marked estimated when any is an estimate", () => {
    const rows = agentRows(sources);
    expect(agentsTotal(rows)).toMatchObject({ input_tokens: 45_007, output_tokens: 520, cost_usd: 0.331, cost_source: 'estimated' });
    expect(agentsTotal(rows.filter((r) => r.agent === 'beta'))).toMatchObject({ cost_usd: 0.1, cost_source: 'cli' });
    expect(agentsTotal(rows.filter((r) => r.agent === 'codex'))).toMatchObject({ cost_usd: null, cost_source: 'unpriced' });
    expect(agentsTotal([])).toMatchObject({ cost_usd: 0, input_tokens: 0 });
  });

  it('lists the kept days newest first and totals them per project, worktree, host and day', () => {
    const days = dayRows(sources);
    expect(days.map((d) => `${d.day} ${d.project} ${d.worktree} ${d.host}`)).toEqual([
      '2026-11-29 api main dev@box',
      '2026-11-29 web feature this machine',
      '2026-11-29 web main this machine',
      '2026-11-28 web main this machine',
    ]);
    const brief = (dimension: Parameters<typeof totalsBy>[1]) =>
      totalsBy(days, dimension).map((t) => [t.label, t.input_tokens, t.cost_usd]);
    expect(brief('project')).toEqual([
      ['web', 3_300, 0.875],
      ['api', 40, 0],
    ]);
    expect(brief('worktree')).toEqual([
      ['web · main', 3_000, 0.75],
      ['web · feature', 300, 0.125],
      ['api · main', 40, 0],
    ]);
    expect(brief('host')).toEqual([
      [LOCAL_HOST, 3_300, 0.875],
      ['dev@box', 40, 0],
    ]);
    expect(brief('day')).toEqual([
      ['2026-11-29', 2_340, 0.375],
      ['2026-11-28', 1_000, 0.5],
    ]);
    expect(totalsBy(days, 'day')[0]).toMatchObject({ output_tokens: 30, cache_read_tokens: 300, cache_write_tokens: 3 });
  });

  it('charts the last days up to today, empty days included, against the largest', () => {
    const { bars, measure } = chartBars(dayRows(sources), '2026-11-29', 3);
    expect(measure).toBe('cost');
    expect(bars.map((b) => [b.day, b.cost_usd, b.percent])).toEqual([
      ['2026-11-27', 0, 0],
      ['2026-11-28', 0.5, 100],
      ['2026-11-29', 0.375, 75],
    ]);
    // Across a month's start, and in tokens when nothing is priced.
    const unpriced = chartBars(dayRows([sources[1]]), '2026-12-01', 3);
    expect(unpriced.measure).toBe('tokens');
    expect(unpriced.bars.map((b) => [b.day, b.tokens, b.percent])).toEqual([
      ['2026-11-29', 151, 100],
      ['2026-11-30', 0, 0],
      ['2026-12-01', 0, 0],
    ]);
  });
});
