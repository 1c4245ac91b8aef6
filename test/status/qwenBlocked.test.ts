/**
 * The REAL Qwen Code (0.24.4) through the core, offline against the mock Chat Completions API
 * answering a few rate-limited requests (429), which Qwen Code retries inside the request and
 * reports only through its telemetry file, then a refused key as OpenAI does (401
 * invalid_api_key), then 429s until Qwen gives its turn up: each turn ends blocked with the CLI's
 * reason. Status changes are recorded and checked rather than caught live.
 */
import { describe, expect, it } from 'vitest';
import type { AgentStatusInfo } from '../../src/shared/status';
import { INVALID_API_KEY_BODY } from '../fixtures/openaiChat/mockChatCompletions';
import { createQwenHarness, qwenRequestsUntilGivenUp, qwenRetrySettings } from '../fixtures/openaiChat/qwenHarness';
import { cleanupsAfterEach, is, mockAndHarness, spawnOnCore } from './liveAgent';

/** Qwen Code needs 10-40 s to initialise on a loaded 2-core machine. */
const WAIT_MS = 120_000;

/** The turn's rate-limit retries and the OpenAI SDK's under each request (Qwen's `maxRetries`, default 10 and 3). */
const SDK_RETRIES = 1;
const RETRY_SETTINGS = qwenRetrySettings(SDK_RETRIES, 500);
const UNTIL_GIVEN_UP = qwenRequestsUntilGivenUp(SDK_RETRIES);

/**
 * Qwen Code's own attempts refused before the answer (its back-off: about 1.5 s, then 3 s). Each
 * of its attempts is 1 + {@link SDK_RETRIES} requests: the OpenAI SDK under it retries first,
 * unreported (by default 3 times, `DEFAULT_MAX_RETRIES`, `chunks/chunk-VOHPPFJI.js:47`; here
 * `maxRetries` sets it). Those SDK retries are
 * told to come back at once (`retry-after-ms`, which the SDK honours); the 429 Qwen itself sees
 * carries no such header, so Qwen waits out its own back-off.
 */
const REFUSED_ATTEMPTS = 2;
const RATE_LIMITED = { httpError: 429, message: 'Rate limit reached' };
const oneRefusedAttempt = () => [...Array.from({ length: SDK_RETRIES }, () => ({ ...RATE_LIMITED, retryAfterMs: 50 })), RATE_LIMITED];

const cleanup = cleanupsAfterEach();

describe('the real Qwen Code blocked', () => {
  it('reads its in-request retries as active · retrying with the attempt; a refused key (401) and retries given up as waiting · login and api_error with the API message, not as idle', async () => {
    const turns = [
      [...Array.from({ length: REFUSED_ATTEMPTS }, oneRefusedAttempt).flat(), { text: 'Back.' }],
      // One turn: an error-only turn would hand its empty rest to the next prompt's first request.
      [
        { httpError: 401, body: INVALID_API_KEY_BODY },
        ...Array.from({ length: UNTIL_GIVEN_UP }, () => ({ ...RATE_LIMITED, retryAfterMs: 1 })),
      ],
    ];
    const { mock, harness } = await mockAndHarness(cleanup, turns, (baseUrl) => createQwenHarness({ baseUrl, settings: RETRY_SETTINGS }));
    const { core, id, status, ctx } = await spawnOnCore(cleanup, { preset: 'qwen', label: 'Qwen', launch: harness, waitMs: WAIT_MS });
    const history: AgentStatusInfo[] = [];
    core.statusTrackerOf(id).onDidChangeStatus((s) => history.push(s));
    await status(is('idle', 'ready'), 'idle');

    await core.sendUserTurn(id, 'Say hello');
    await mock.waitFor('stream_end', (e) => e.kind === 'main', ctx);
    await status(is('idle', 'ready'), 'idle after the retried answer');
    // Each retry was read from Qwen Code's telemetry with its attempt, and the wait was never stuck.
    const retries = history.filter((s) => s.detail === 'retrying');
    expect(Math.max(0, ...retries.map((s) => s.blocked?.attempt ?? 0))).toBeGreaterThanOrEqual(REFUSED_ATTEMPTS);
    expect(retries[0]).toMatchObject({ reason: 'hook:ApiRetry', blocked: { message: 'retrying a failed request (status 429)' } });
    expect(history.filter((s) => s.primary === 'stuck')).toEqual([]);
    history.length = 0;

    await core.sendUserTurn(id, 'Say something');
    await mock.waitFor('http_error', (e) => e.status === 401, ctx);
    const login = await status(is('waiting', 'login'), 'waiting · login');
    expect(login.reason).toBe('qwen/api-key-refused');
    expect(login.blocked?.message).toMatch(/^401 Incorrect API key provided: .*api-keys\.$/u);
    // It was read as a refusal once the turn ran, and never as stuck.
    expect(history.some((s) => s.primary === 'active')).toBe(true);
    expect(history.filter((s) => s.primary === 'stuck')).toEqual([]);
    history.length = 0;

    // Retries given up: the countdown it draws, then the API's message once the turn ended on it.
    await core.sendUserTurn(id, 'Say something else');
    const gaveUp = await status(is('waiting', 'api_error'), 'waiting · api_error');
    expect(gaveUp).toMatchObject({ reason: 'qwen/api-error-gave-up', blocked: { message: '429 Rate limit reached' } });
    expect(mock.timeline.events.filter((e) => e.type === 'http_error' && e.status === 429).length).toBe(
      REFUSED_ATTEMPTS * (1 + SDK_RETRIES) + UNTIL_GIVEN_UP,
    );
    const countdowns = history.filter((s) => s.reason === 'qwen/retry-countdown');
    expect(countdowns.map((s) => s.blocked?.maxAttempts)).toContain(SDK_RETRIES);
    expect(history.filter((s) => s.primary === 'stuck')).toEqual([]);
  }, 300_000);
});
