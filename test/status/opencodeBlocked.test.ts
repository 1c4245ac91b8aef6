/**
 * The REAL opencode (1.18.33) through the core with its MCP endpoint (so the preset's status plugin
 * is loaded), offline against the mock Chat Completions API answering as OpenAI does: a rate
 * limit (429 `rate_limit_exceeded` with its `retry-after` and `x-ratelimit-*` headers) that opencode
 * retries by itself, then a refused key (401 `invalid_api_key`). Status changes are recorded and
 * checked in order rather than caught live.
 */
import { describe, expect, it } from 'vitest';
import { createOpencodeHarness } from '../fixtures/openaiChat/opencodeHarness';
import { INVALID_API_KEY_BODY } from '../fixtures/openaiChat/mockChatCompletions';
import { cleanupsAfterEach, is, mockAndHarness, spawnOnCore } from './liveAgent';

/** opencode needs 15-45 s to draw its first screen on a loaded 2-core machine. */
const WAIT_MS = 150_000;

/** OpenAI's per-minute request limit, as its API words it and with the headers it sends. */
const RATE_LIMITED = {
  httpError: 429,
  retryAfterMs: 2_000,
  headers: { 'x-ratelimit-limit-requests': '3', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '2s' },
  body: {
    error: {
      message:
        'Rate limit reached for gpt-4o-mini in organization org-mock on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 2s. Visit https://platform.openai.com/account/rate-limits to learn more.',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    },
  },
};
const REFUSED = { httpError: 401, body: INVALID_API_KEY_BODY };

const cleanup = cleanupsAfterEach();

describe('the real opencode blocked', () => {
  it('reads its own retry report as active · retrying, never stuck, then a refused key', async () => {
    const { mock, harness } = await mockAndHarness(
      cleanup,
      [
        [RATE_LIMITED, RATE_LIMITED, { text: 'Back after the rate limit.' }],
        [REFUSED, REFUSED, REFUSED, REFUSED],
      ],
      (baseUrl) => createOpencodeHarness({ baseUrl }),
    );
    const { core, id, status, ctx } = await spawnOnCore(cleanup, {
      preset: 'opencode',
      label: 'opencode',
      launch: harness,
      waitMs: WAIT_MS,
      withHooks: true,
    });
    await status(is('idle'), 'idle');

    await core.sendUserTurn(id, 'Say something');
    await mock.waitFor('http_error', (e) => e.status === 429, ctx);
    // From the first refusal on (opencode's first turn alone can take longer than the stuck threshold to reach the API under load).
    const retriesFrom = status.history.length;
    const retrying = await status(is('active', 'retrying'), 'active · retrying');
    expect(retrying.reason).toBe('hook:ApiRetry');
    expect(retrying.blocked?.attempt).toBe(1);
    expect(retrying.blocked?.message).toMatch(/Rate limit/i);
    await mock.waitFor('stream_end', (e) => e.kind === 'main', ctx);
    await status(is('idle'), 'idle after the answer');

    const from = status.history.length;
    await core.sendUserTurn(id, 'Try again');
    await mock.waitFor('http_error', (e) => e.status === 401, ctx);
    const refused = await status(is('waiting', 'login'), 'waiting · login');
    expect(refused.reason).toBe('opencode/api-key-refused');
    expect(refused.blocked?.message).toMatch(/^Incorrect API key provided: .*api-keys\.$/u);
    expect(status.history.slice(from).some((h) => h.startsWith('active/'))).toBe(true);
    expect(
      status.history.slice(retriesFrom).filter((h) => h.startsWith('stuck/')),
      status.history.join(' → '),
    ).toEqual([]);
  }, 420_000);
});
