/**
 * Regression: a 30 s API stall was never reported stuck on Claude Code because the elapsed-time
 * suffix APPEARING on its spinner row counted as progress. Every preset's busy screens, stalled
 * with late-appearing counters, rotating verbs and tips, must show `stuck` within 2 s after the
 * threshold — and not before it.
 */
import { describe, expect, it } from 'vitest';
import { PRESET_IDS, resolvePreset } from '../agents';
import { probeLateCounterStalls } from './replay/stallProbe';

/** The goal for every preset: stuck called within this long after the threshold. */
const MAX_STUCK_DELAY_MS = 2_000;

describe('a stall whose counters appear late is stuck at the threshold', () => {
  it.each(PRESET_IDS)('%s', async (id) => {
    const results = await probeLateCounterStalls(resolvePreset(id));
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) {
      const story = `${r.rule}: ${r.shown.map((s) => `${s.ms} ms ${s.primary} (${s.reason})`).join(' → ')}`;
      expect(r.frames, story).toBeGreaterThan(100);
      expect(r.delayMs, story).toBeDefined();
      expect(r.delayMs!, story).toBeGreaterThanOrEqual(0);
      expect(r.delayMs!, story).toBeLessThanOrEqual(MAX_STUCK_DELAY_MS);
    }
  });

  it('claude: a retry row held for 30 s is never stuck (the CLI waits out its own back-off)', async () => {
    const results = await probeLateCounterStalls(resolvePreset('claude'), 'retrying');
    expect(results.map((r) => r.rule)).toEqual(['claude/api-retry']);
    for (const r of results) {
      expect(r.frames).toBeGreaterThan(100);
      expect(r.shown.map((s) => s.primary)).not.toContain('stuck');
    }
  });
});
