/**
 * The REAL Gemini CLI (0.61.0) through the core with its MCP endpoint (so its status hooks are
 * installed), offline against the mock Gemini API answering as the real one does when the key is
 * rejected (400 API_KEY_INVALID), when the per-minute quota is spent (429 RESOURCE_EXHAUSTED with
 * a per-minute QuotaFailure and a RetryInfo delay: retried) and then the daily one (a per-day
 * QuotaFailure): each turn ends blocked with the CLI's reason, the retries read as retrying.
 * Status changes are recorded and checked in order rather than caught live.
 */
import { describe, expect, it } from 'vitest';
import { createGeminiHarness } from '../fixtures/gemini/geminiHarness';
import { API_KEY_INVALID_BODY, quotaExceededBody, startMockGemini } from '../fixtures/gemini/mockGemini';
import { cleanupsAfterEach, is, spawnOnCore } from './liveAgent';

/** Gemini CLI's `general.maxAttempts` here, so the retries end within seconds. */
const MAX_ATTEMPTS = 3;
/** The free tier's per-minute request quota as the API words it: retried after its RetryInfo delay. */
const perMinuteQuota = quotaExceededBody({ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier', retryDelay: '2s' });

/** A real CLI on a busy 2-core machine can take many seconds to start. */
const WAIT_MS = 60_000;

const cleanup = cleanupsAfterEach();

describe('the real Gemini CLI blocked', () => {
  it('reads a rejected key as waiting · login and a spent daily quota as waiting · limit, each with its reason', async () => {
    const mock = await startMockGemini({
      turns: [
        [{ httpError: 400, body: API_KEY_INVALID_BODY }],
        // A turn's error steps answer one request each: the CLI's retries, then the daily quota.
        [
          ...Array.from({ length: MAX_ATTEMPTS }, () => ({ httpError: 429, body: perMinuteQuota })),
          { httpError: 429, body: quotaExceededBody({ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier', retryDelay: '1s' }) },
        ],
      ],
    });
    cleanup(() => mock.close());
    const harness = await createGeminiHarness({ baseUrl: mock.url, maxAttempts: MAX_ATTEMPTS });
    cleanup(() => harness.cleanup());
    const { core, id, status, ctx } = await spawnOnCore(cleanup, {
      preset: 'gemini',
      label: 'Gemini CLI',
      launch: harness,
      waitMs: WAIT_MS,
      withHooks: true,
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
    // Gemini CLI draws nothing new while it waits out the RetryInfo delay; its BeforeModel hook
    // fires again for the next attempt, which is the retry.
    const retrying = await status(is('active', 'retrying'), 'active · retrying');
    expect(retrying.reason).toBe('hook:ModelRequest');
    expect(retrying.blocked).toEqual({ message: 'the model request is being retried', attempt: 2 });
    const limit = await status(is('waiting', 'limit'), 'waiting · limit');
    expect(limit.reason).toBe('gemini/usage-limit-dialog');
    expect(limit.blocked).toEqual({ message: 'Usage limit reached for gemini-2.5-flash' });
    expect(mock.events.filter((e) => e.type === 'http_error' && e.status === 429).length).toBeGreaterThan(MAX_ATTEMPTS);
    // The second turn really ran (it left the login state), and nothing read it as stuck.
    expect(status.history.slice(before).some((h) => h.startsWith('active/'))).toBe(true);
    expect(status.history.filter((h) => h.startsWith('stuck/'))).toEqual([]);
  }, 180_000);
});
