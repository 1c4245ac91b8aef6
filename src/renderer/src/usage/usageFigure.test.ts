import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../../shared/usage';
import { compactCount, compactFigure, costText, resetWords, usageDetail, windowsNearLimit } from './usageFigure';

const record = (over: Partial<UsageRecord>): UsageRecord => ({
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
  ...over,
});

describe('the compact usage figure', () => {
  it('is empty before any usage, the cost when priced (an estimate marked ~), else the tokens', () => {
    expect(compactFigure(record({}))).toBe('');
    // A priced agent that has not spent yet (a run not started) shows nothing, not ~$0.0000.
    expect(compactFigure(record({ cost_usd: 0, cost_source: 'estimated' }))).toBe('');
    expect(costText(0, 'cli')).toBe('$0.00');
    expect(compactFigure(record({ input_tokens: 10, cost_usd: 0.070614, cost_source: 'estimated' }))).toBe('~$0.07');
    expect(compactFigure(record({ input_tokens: 10, cost_usd: 0.015306, cost_source: 'cli' }))).toBe('$0.02');
    expect(compactFigure(record({ input_tokens: 10, cost_usd: 0.0042, cost_source: 'cli' }))).toBe('$0.0042');
    expect(compactFigure(record({ input_tokens: 9_000, output_tokens: 288, cache_read_tokens: 3_000 }))).toBe('12k tok');
  });

  it('counts compactly', () => {
    expect([999, 1_234, 12_345, 1_234_567, 12_345_678].map(compactCount)).toEqual(['999', '1.2k', '12k', '1.2M', '12M']);
  });

  it('warns at 80 % of a window, fullest first, and names every figure in the detail', () => {
    const u = record({
      input_tokens: 1_000,
      context_used: 5_621,
      context_window: 258_400,
      windows: [
        { name: 'weekly', used_percent: 9, resets_at: null },
        { name: '5h', used_percent: 81, resets_at: '2030-03-17T17:46:40.000Z' },
        { name: 'opus', used_percent: 80, resets_at: null },
      ],
      model: 'switchboard-mock',
      source: 'codex rollout',
    });
    expect(windowsNearLimit(u).map((w) => w.name)).toEqual(['5h', 'opus']);
    const detail = usageDetail(u, (iso) => `at ${iso}`);
    expect(detail).toContain('cost: unpriced');
    expect(detail).toContain('context 5.6k of 258k (2 %)');
    expect(detail).toContain('5h window 81 % used, resets at 2030-03-17T17:46:40.000Z');
    expect(detail).toContain('model switchboard-mock, from the codex rollout');
  });

  it('says a cost with its source, and a reset as a time today, a weekday within the week, else a date', () => {
    expect([costText(0.231, 'estimated'), costText(0.1, 'cli'), costText(null, 'unpriced')]).toEqual(['~$0.23', '$0.10', 'unpriced']);
    const now = new Date(2030, 2, 17, 9, 0);
    expect(resetWords(new Date(2030, 2, 17, 15, 5).toISOString(), now)).toBe('15:05');
    expect(resetWords(new Date(2030, 2, 19, 8, 0).toISOString(), now)).toBe('Tue 08:00');
    expect(resetWords(new Date(2030, 3, 2, 8, 0).toISOString(), now)).toBe('2030-04-02 08:00');
    expect(resetWords('not a time', now)).toBe('not a time');
  });
});
