/**
 * The REAL Gemini CLI (0.61.0) through the core with its MCP endpoint (so its status hooks are
 * installed), offline against the mock Gemini API answering as the real one does when the key is
 * rejected (400 API_KEY_INVALID), when the per-minute quota is spent (429 RESOURCE_EXHAUSTED with
 * a per-minute QuotaFailure and a RetryInfo delay: retried) and then the daily one (a per-day
 * QuotaFailure), and when the model is overloaded (503 UNAVAILABLE) until the CLI gives up: each
 * turn ends blocked with the CLI's reason, the retries read as retrying, and an answer ends the
 * block. `ui.errorVerbosity: "full"`: with the default (`low`) Gemini CLI 0.61 never gives up on a
 * 5xx (its fallback handler answers "retry once" for itself), so there is no give-up to read.
 * Status changes are recorded and checked in order rather than caught live.
 */
import { describe, expect, it } from 'vitest';
import { createGeminiHarness } from '../fixtures/gemini/geminiHarness';
import { API_KEY_INVALID_BODY, quotaExceededBody, startMockGemini } from '../fixtures/gemini/mockGemini';
import { cleanupsAfterEach, is, spawnOnCore } from './liveAgent';

/** Gemini CLI's `general.maxAttempts` here, so the retries end within seconds (one back-off of about 5 s for a 5xx). */
const MAX_ATTEMPTS = 2;
/** The free tier's per-minute request quota as the API words it: retried after its RetryInfo delay. */
const perMinuteQuota = quotaExceededBody({ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier', retryDelay: '2s' });

/** The API's answer when the model is overloaded. */
const OVERLOADED = { httpError: 503, message: 'The model is overloaded. Please try again later.' };
/** "2. Stop" in Gemini CLI's limit and give-up dialogs. */
const STOP = '2';

/** A real CLI on a busy 2-core machine can take many seconds to start. */
const WAIT_MS = 60_000;

const cleanup = cleanupsAfterEach();

describe('the real Gemini CLI blocked', () => {
  it('reads a rejected key as waiting · login, a spent daily quota as waiting · limit, retries given up as waiting · api_error until an answer, each with its reason', async () => {
    const mock = await startMockGemini({
      turns: [
        [{ httpError: 400, body: API_KEY_INVALID_BODY }],
        // A turn's error steps answer one request each: the CLI's retries, then the daily quota.
        [
          ...Array.from({ length: MAX_ATTEMPTS - 1 }, () => ({ httpError: 429, body: perMinuteQuota })),
          { httpError: 429, body: quotaExceededBody({ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier', retryDelay: '1s' }) },
          { text: 'The quota is back.' },
        ],
        [...Array.from({ length: MAX_ATTEMPTS }, () => OVERLOADED), { text: 'Back again.' }],
      ],
    });
    cleanup(() => mock.close());
    const harness = await createGeminiHarness({
      baseUrl: mock.url,
      maxAttempts: MAX_ATTEMPTS,
      extraSettings: { ui: { errorVerbosity: 'full' } },
    });
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
    expect(mock.events.filter((e) => e.type === 'http_error' && e.status === 429)).toHaveLength(MAX_ATTEMPTS);
    // The second turn really ran (it left the login state).
    expect(status.history.slice(before).some((h) => h.startsWith('active/'))).toBe(true);
    // "Stop" ends the turn on the quota's error (a prompt typed before the dialog is gone is lost).
    core.entry(id).write(STOP);
    const spent = await status((s) => s.reason === 'gemini/quota-spent-ended-turn', 'the turn ended on the spent quota');
    expect(spent).toMatchObject({
      primary: 'waiting',
      detail: 'limit',
      blocked: { message: 'You have exhausted your daily quota on this model.' },
    });
    await core.sendUserTurn(id, 'Is the quota back?');
    await mock.waitFor('stream_end', (e) => e.kind === 'main' && e.turn === 1, ctx);
    await status(is('idle'), 'idle after the answer');

    const overloadedFrom = status.history.length;
    await core.sendUserTurn(id, 'Once more');
    await mock.waitFor('http_error', (e) => e.status === 503, ctx);
    const dialog = await status(is('waiting', 'api_error'), 'waiting · api_error (the dialog)');
    expect(dialog.reason).toBe('gemini/api-error-dialog');
    expect(dialog.blocked).toEqual({ message: 'We are currently experiencing high demand' });
    expect(mock.events.filter((e) => e.type === 'http_error' && e.status === 503)).toHaveLength(MAX_ATTEMPTS);
    expect(status.history.slice(overloadedFrom)).toContain('active/retrying (hook:ModelRequest)');
    core.entry(id).write(STOP);
    const ended = await status((s) => s.reason === 'gemini/api-error-ended-turn', 'the turn ended on the 503');
    expect(ended).toMatchObject({
      primary: 'waiting',
      detail: 'api_error',
      blocked: { message: 'The model is overloaded. Please try again later.' },
    });

    // The next prompt's answer ends the block.
    await core.sendUserTurn(id, 'And now?');
    await mock.waitFor('stream_end', (e) => e.kind === 'main' && e.turn === 2, ctx);
    await status(is('idle'), 'idle after the answer');
    expect(status.history.filter((h) => h.startsWith('stuck/'))).toEqual([]);
  }, 180_000);
});
