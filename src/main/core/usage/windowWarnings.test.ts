import { describe, expect, it } from 'vitest';
import type { UsageRecord, UsageWindow } from '../../../shared/usage';
import { WindowWarnings } from './windowWarnings';

const record = (windows: UsageWindow[]): UsageRecord => ({
  input_tokens: 1,
  output_tokens: 1,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  cost_usd: null,
  cost_source: 'unpriced',
  context_used: null,
  context_window: null,
  windows,
  model: null,
  source: 'codex rollout',
});

describe('WindowWarnings', () => {
  it('flags an agent once per window and reset at 80 %, with the reset time', () => {
    const asked: string[] = [];
    const warnings = new WindowWarnings({ requestAttention: (id, reason, by) => asked.push(`${id} ${by} ${reason}`) });
    const agent = { id: 'p_1', name: 'codex' };
    const at = (p: number, resets = '2030-03-17T17:46:40.000Z') => ({ name: '5h', used_percent: p, resets_at: resets });
    warnings.check(agent, record([at(79.9), { name: 'weekly', used_percent: 9, resets_at: null }]));
    expect(asked).toEqual([]);
    warnings.check(agent, record([at(80)]));
    warnings.check(agent, record([at(95)]));
    expect(asked).toEqual(['p_1 usage codex: 5h usage window at 80 %; it resets at 2030-03-17T17:46:40.000Z']);
    warnings.check(agent, record([at(83, '2030-03-17T22:46:40.000Z')]));
    expect(asked).toHaveLength(2);
  });

  it('gives the agent one inbox row per window past 80 % until a person dismisses it; a dismissed window and reset does not come back', () => {
    const asked: string[] = [];
    let now = 1_000;
    const warnings = new WindowWarnings({ requestAttention: (id) => asked.push(id) }, () => now);
    const entry = { id: 'p_2', name: 'codex', kind: 'agent' } as unknown as Parameters<typeof warnings.decorator>[0];
    const rows = warnings.decorator(entry, { projectDir: '/', earlier: () => undefined })!;
    const changes: number[] = [];
    rows.onDidChange(() => changes.push(now));
    const reset = '2030-03-17T17:46:40.000Z';
    const at = (p: number, resets: string | null = reset) => ({ name: '5h', used_percent: p, resets_at: resets });

    warnings.check(entry, record([at(50)]));
    expect(rows.describe()).toEqual({});
    warnings.check(entry, record([at(81)]));
    now = 2_000;
    warnings.check(entry, record([at(86), { name: 'weekly', used_percent: 90, resets_at: null }]));
    expect(rows.describe().usageWarnings).toEqual([
      { window: '5h', used_percent: 86, resets_at: reset, raised_at: 1_000 },
      { window: 'weekly', used_percent: 90, resets_at: null, raised_at: 2_000 },
    ]);
    expect(changes).toEqual([1_000, 2_000]);

    expect(warnings.dismiss('p_2', '5h', reset)).toBeNull();
    expect(rows.describe().usageWarnings?.map((w) => w.window)).toEqual(['weekly']);
    warnings.check(entry, record([at(97), { name: 'weekly', used_percent: 91, resets_at: null }]));
    expect(rows.describe().usageWarnings?.map((w) => w.window)).toEqual(['weekly']);
    expect(() => warnings.dismiss('p_2', '5h', reset)).toThrow(/No usage warning of p_2 for the 5h window/);

    // The window reset: below the share its row goes; past it again with the new reset is a new row.
    warnings.check(entry, record([at(3, '2030-03-17T22:46:40.000Z')]));
    expect(rows.describe()).toEqual({});
    warnings.check(entry, record([at(82, '2030-03-17T22:46:40.000Z')]));
    expect(rows.describe().usageWarnings?.map((w) => `${w.window} ${w.resets_at}`)).toEqual(['5h 2030-03-17T22:46:40.000Z']);
    expect(asked).toEqual(['p_2', 'p_2', 'p_2']);
  });

  it('gives entries that are not agents no rows', () => {
    const warnings = new WindowWarnings({ requestAttention: () => undefined });
    const entry = { id: 'p_3', kind: 'command' } as unknown as Parameters<typeof warnings.decorator>[0];
    expect(warnings.decorator(entry, { projectDir: '/', earlier: () => undefined })).toBeUndefined();
  });
});
