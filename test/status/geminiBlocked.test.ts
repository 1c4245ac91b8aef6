/**
 * The REAL Gemini CLI (0.61.0) through the core, offline against the mock Gemini API answering as
 * the real one does when the key is rejected (400 API_KEY_INVALID) and when the daily quota is
 * spent (429 RESOURCE_EXHAUSTED with a per-day QuotaFailure): each turn ends blocked with the
 * CLI's reason. Status changes are recorded and checked in order rather than caught live.
 */
import { describe, expect, it } from 'vitest';
import { createGeminiHarness } from '../fixtures/gemini/geminiHarness';
import { API_KEY_INVALID_BODY, quotaExceededBody, startMockGemini } from '../fixtures/gemini/mockGemini';
import { cleanupsAfterEach, is, spawnOnCore } from './liveAgent';

/** A real CLI on a busy 2-core machine can take many seconds to start. */
const WAIT_MS = 60_000;

const cleanup = cleanupsAfterEach();

describe('the real Gemini CLI blocked', () => {
  it('reads a rejected key as waiting · login and a spent daily quota as waiting · limit, each with its reason', async () => {
    const mock = await startMockGemini({
      turns: [
        [{ httpError: 400, body: API_KEY_INVALID_BODY }],
        [{ httpError: 429, body: quotaExceededBody({ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier', retryDelay: '1s' }) }],
      ],
    });
    cleanup(() => mock.close());
    const harness = await createGeminiHarness({ baseUrl: mock.url });
    cleanup(() => harness.cleanup());
    const { core, id, status, ctx } = await spawnOnCore(cleanup, {
      preset: 'gemini',
      label: 'Gemini CLI',
      launch: harness,
      waitMs: WAIT_MS,
    });

    await status(is('idle'), 'idle');

    await core.sendUserTurn(id, 'Say something');
    await mock.waitFor('http_error', (e) => e.status === 400, ctx);
    const login = await status(is('waiting', 'login'), 'waiting · login');
    expect(login.reason).toBe('gemini/api-key-rejected');
    expect(login.blocked).toEqual({ message: 'API key not valid. Please pass a valid API key.' });

    const before = status.history.length;
    await core.sendUserTurn(id, 'Try again');
    await mock.waitFor('http_error', (e) => e.status === 429, ctx);
    const limit = await status(is('waiting', 'limit'), 'waiting · limit');
    expect(limit.reason).toBe('gemini/usage-limit-dialog');
    expect(limit.blocked).toEqual({ message: 'Usage limit reached for gemini-2.5-flash' });
    // The second turn really ran (it left the login state), and nothing read it as stuck.
    expect(status.history.slice(before).some((h) => h.startsWith('active/'))).toBe(true);
    expect(status.history.filter((h) => h.startsWith('stuck/'))).toEqual([]);
  }, 180_000);
});
