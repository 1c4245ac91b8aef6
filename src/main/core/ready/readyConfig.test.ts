import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PORT_TIMEOUT_MS,
  DEFAULT_PROBE_INTERVAL_MS,
  DEFAULT_STABILITY_DELAY_MS,
  MAX_STABILITY_DELAY_MS,
  MAX_WAIT_MS,
  STARTUP_SCAN_INTERVAL_MS,
  resolveReadinessConfig,
} from './readyConfig';
import { DEFAULT_READY_TIMEOUT_MS } from '../../../shared/readyConfig';

describe('resolveReadinessConfig: defaults and clamps', () => {
  it.each([
    [
      'nothing',
      undefined,
      {
        stabilityDelayMs: DEFAULT_STABILITY_DELAY_MS,
        timeoutMs: DEFAULT_READY_TIMEOUT_MS,
        portTimeoutMs: DEFAULT_PORT_TIMEOUT_MS,
        probeIntervalMs: DEFAULT_PROBE_INTERVAL_MS,
        autoRestart: 'no',
      },
    ],
    ['empty object', {}, { stabilityDelayMs: 1_000, timeoutMs: 30_000, portTimeoutMs: 10_000 }],
    [
      'valid values',
      { stabilityDelay: 250, timeout: 60_000, portTimeout: 5_000 },
      { stabilityDelayMs: 250, timeoutMs: 60_000, portTimeoutMs: 5_000 },
    ],
    ['zero stability delay is allowed', { stabilityDelay: 0 }, { stabilityDelayMs: 0 }],
    [
      'negative values fall back',
      { stabilityDelay: -5, timeout: -1, portTimeout: -1 },
      { stabilityDelayMs: 1_000, timeoutMs: 30_000, portTimeoutMs: 10_000 },
    ],
    [
      'NaN and strings fall back',
      { stabilityDelay: Number.NaN, timeout: '9' as unknown as number },
      { stabilityDelayMs: 1_000, timeoutMs: 30_000 },
    ],
    ['zero timeout is at least 1 ms', { timeout: 0 }, { timeoutMs: 1, portTimeoutMs: 1 }],
    [
      'huge values are capped',
      { stabilityDelay: 10 ** 9, timeout: 10 ** 12 },
      { stabilityDelayMs: MAX_STABILITY_DELAY_MS, timeoutMs: MAX_WAIT_MS },
    ],
    ['fractions are rounded', { stabilityDelay: 99.6 }, { stabilityDelayMs: 100 }],
    ['port timeout never exceeds the timeout', { timeout: 3_000, portTimeout: 20_000 }, { timeoutMs: 3_000, portTimeoutMs: 3_000 }],
    ['default port timeout shrinks with a short timeout', { timeout: 4_000 }, { portTimeoutMs: 4_000 }],
    ['valid port and url kept', { port: 3000, url: 'http://localhost:3000/health' }, { port: 3000, url: 'http://localhost:3000/health' }],
    ['invalid port and url dropped', { port: 70_000, url: 'ftp://x' }, { port: undefined, url: undefined }],
    ['unknown framework dropped', { framework: 'rocket' as never }, { framework: undefined }],
    ['known framework kept', { framework: 'django' as const }, { framework: 'django' }],
    ['autoRestart kept', { autoRestart: 'on-failure' as const }, { autoRestart: 'on-failure' }],
    ['bad autoRestart falls back to no', { autoRestart: 'sometimes' as never }, { autoRestart: 'no' }],
  ])('%s', (_name, input, expected) => {
    expect(resolveReadinessConfig(input)).toMatchObject(expected);
  });

  it('compiles patterns (plain and /…/flags), and names the bad ones instead of throwing', () => {
    const resolved = resolveReadinessConfig({ readyPatterns: ['Server initialized', '/READY/i', '(unclosed'], errorPatterns: [''] });
    expect(resolved.readyPatterns.map(String)).toEqual(['/Server initialized/', '/READY/i']);
    expect(resolved.readyPatterns[1].test('ready')).toBe(true);
    expect(resolved.warnings).toEqual([
      expect.stringMatching(/^readyPatterns\[2\]: invalid regular expression "\(unclosed": /),
      'errorPatterns[0]: not a pattern',
    ]);
  });

  it('keeps the invariants the machine relies on', () => {
    expect(DEFAULT_STABILITY_DELAY_MS).toBeLessThan(DEFAULT_READY_TIMEOUT_MS);
    expect(DEFAULT_PORT_TIMEOUT_MS).toBeLessThanOrEqual(DEFAULT_READY_TIMEOUT_MS);
    // A probe must fit several times into the stability delay, or "port open for 1 s" is a guess.
    expect(DEFAULT_PROBE_INTERVAL_MS * 5).toBeLessThanOrEqual(DEFAULT_STABILITY_DELAY_MS);
    expect(STARTUP_SCAN_INTERVAL_MS * 2).toBeLessThanOrEqual(DEFAULT_STABILITY_DELAY_MS);
  });
});
