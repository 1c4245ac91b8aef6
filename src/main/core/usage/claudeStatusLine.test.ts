/**
 * Claude Code's status-line input against real samples: what Claude Code 2.1.332 wrote to a
 * status-line command's stdin after a turn against the mock Messages API whose answers carried
 * the unified rate-limit headers (5h at 0.42, 7d at 0.85), once signed in with a gateway-audience
 * token (test/fixtures/usage/claude-2.1.332-status-line.json) and once with an API key
 * (…-api-key.json: no `rate_limits`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePreset } from '../agents';
import type { ProcessEntry } from '../sessions';
import type { UsageRecord } from '../../../shared/usage';
import { AgentUsage } from './agentUsage';
import { statusLineText, windowsOfStatusLine } from './claudeStatusLine';
import { USAGE_SOURCES } from './usageSources';

const FIXTURES = path.join(__dirname, '../../../../test/fixtures/usage');
const sample = (name: string): unknown => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));
const WITH_WINDOWS = sample('claude-2.1.332-status-line.json');
const API_KEY = sample('claude-2.1.332-status-line-api-key.json');

const FIVE_HOUR = { name: '5h', used_percent: 42, resets_at: new Date(1795966675 * 1000).toISOString() };
const WEEKLY = { name: 'weekly', used_percent: 85, resets_at: new Date(1796049475 * 1000).toISOString() };

describe("Claude Code's status-line input", () => {
  it('gives the five-hour and weekly windows with their reset times', () => {
    expect(windowsOfStatusLine(WITH_WINDOWS)).toEqual([FIVE_HOUR, WEEKLY]);
  });

  it('gives no windows for an API-key session, which carries no rate_limits', () => {
    expect(windowsOfStatusLine(API_KEY)).toBeUndefined();
  });

  it('takes what is well-formed of a damaged input and nothing else', () => {
    expect(windowsOfStatusLine(null)).toBeUndefined();
    expect(windowsOfStatusLine('rate_limits')).toBeUndefined();
    expect(windowsOfStatusLine({ rate_limits: [] })).toBeUndefined();
    expect(windowsOfStatusLine({ rate_limits: { five_hour: { used_percentage: '42' } } })).toBeUndefined();
    expect(
      windowsOfStatusLine({ rate_limits: { five_hour: { used_percentage: 120 }, seven_day: { used_percentage: Number.NaN } } }),
    ).toEqual([{ name: '5h', used_percent: 100, resets_at: null }]);
    expect(windowsOfStatusLine({ rate_limits: { seven_day: { used_percentage: 3, resets_at: -1 } } })).toEqual([
      { name: 'weekly', used_percent: 3, resets_at: null },
    ]);
  });

  it('prints the model and the windows, and no control character of the model name', () => {
    expect(statusLineText(WITH_WINDOWS, [FIVE_HOUR, WEEKLY])).toBe('Opus 5.5 · 5h 42 % · weekly 85 %');
    expect(statusLineText(API_KEY, [])).toBe('Opus 5.5');
    expect(statusLineText({ model: { display_name: '\x1b]0;title\x07Opus\x1b[2J' } }, [])).toBe('0titleOpus2J');
    expect(statusLineText(undefined, [])).toBe('');
  });
});

describe("an agent's reported windows", () => {
  function claudeUsage(observed: UsageRecord[]): AgentUsage {
    const entry = { definition: { env: {} } } as unknown as ProcessEntry;
    return new AgentUsage(
      entry,
      resolvePreset('claude'),
      USAGE_SOURCES.claude,
      () => undefined,
      (_files, record) => observed.push(record),
    );
  }

  it('join the record; the same windows again change nothing, a moved one does', () => {
    const observed: UsageRecord[] = [];
    const usage = claudeUsage(observed);
    let changes = 0;
    usage.onDidChange(() => changes++);

    usage.reportWindows([FIVE_HOUR, WEEKLY]);
    usage.reportWindows([FIVE_HOUR, WEEKLY]);
    expect(changes).toBe(1);
    expect(usage.record.windows).toEqual([FIVE_HOUR, WEEKLY]);
    expect(usage.refresh().windows).toEqual([FIVE_HOUR, WEEKLY]);

    usage.reportWindows([{ ...FIVE_HOUR, used_percent: 43 }, WEEKLY]);
    expect(changes).toBe(2);
    expect(observed.map((r) => r.windows[0].used_percent)).toEqual([42, 43]);
    usage.dispose();
  });
});
