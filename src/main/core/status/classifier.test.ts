import { describe, expect, it } from 'vitest';
import { classify, FALLBACK_ACTIVITY_WINDOW_MS, REGION_PREVIEW_CHARS } from './classifier';
import { loadRuleSet } from './ruleSchema';
import { ruleSetFor } from './rules';

const rules = loadRuleSet({
  agent: 'toy',
  version: '1',
  rules: [
    {
      id: 'dialog',
      priority: 900,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'bottom_non_empty_lines(3)',
      match: { contains: 'Continue?' },
      sample: 'Continue? [y/n]',
      source: 'toy 1, hand-written for the classifier test',
    },
    {
      id: 'busy',
      priority: 500,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'whole_screen',
      match: { line: /^working/ },
      sample: 'working',
      source: 'toy 1, hand-written for the classifier test',
    },
  ],
});

describe('classify', () => {
  it('the highest priority match wins, and every rule is recorded with its result', () => {
    const r = classify(['working', 'Continue? [y/n]'], '', { rules, now: 0 });
    expect([r.primary, r.detail, r.reason]).toEqual(['waiting', 'question', 'toy/dialog']);
    expect(r.evaluated.map((e) => [e.rule, e.matched])).toEqual([
      ['toy/dialog', true],
      ['toy/busy', true],
    ]);
    expect(r.fallback).toBeUndefined();
  });

  it('previews the region read, capped at 240 characters (the end kept)', () => {
    const long = 'x'.repeat(1_000);
    const r = classify([long, 'working'], '', { rules, now: 0 });
    const busy = r.evaluated.find((e) => e.rule === 'toy/busy')!;
    expect(busy.preview).toHaveLength(REGION_PREVIEW_CHARS);
    expect(busy.preview.endsWith('working')).toBe(true);
    expect(busy.preview.startsWith('…')).toBe(true);
  });

  it('with no match, recent output means active and a quiet screen idle, each with a named fallback', () => {
    const active = classify(['$ '], '', { rules, now: 1_000, lastOutputAt: 1_000 - FALLBACK_ACTIVITY_WINDOW_MS + 1 });
    expect([active.primary, active.detail, active.reason, active.fallback]).toEqual([
      'active',
      null,
      'toy/fallback:recent-output',
      'fallback:recent-output',
    ]);
    const quiet = classify(['$ '], '', { rules, now: 10_000, lastOutputAt: 1_000 });
    expect([quiet.primary, quiet.detail, quiet.reason]).toEqual(['idle', 'ready', 'toy/fallback:quiet']);
    expect(quiet.evaluated.every((e) => !e.matched)).toBe(true);
  });

  it('accepts a ScreenView-like object as well as lines', () => {
    const lines = ['Continue? [y/n]'];
    const r = classify({ getVisibleLines: () => lines, cols: 80 }, '', { rules, now: 0 });
    expect(r.reason).toBe('toy/dialog');
  });

  it('a blank Claude Code screen with its idle title is idle by the title hint', () => {
    const r = classify([], '✳ Claude Code', { rules: ruleSetFor('claude'), now: 0 });
    expect(r.reason).toBe('claude/title-idle');
  });
});
