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
});
