/**
 * The REAL opencode (1.18.33) through the core with its MCP endpoint (so the preset's status plugin
 * is loaded), offline against the mock Chat Completions API answering as OpenAI does: a rate
 * server error (500 `server_error` with a `retry-after`) that opencode retries five times
 * (`RETRY_MAX_RETRIES` in 1.18.33) and then gives up on, a rate limit (429 `rate_limit_exceeded`
 * with its `retry-after` and `x-ratelimit-*` headers) that it retries by itself before the answer,
 * then a refused key (401 `invalid_api_key`). Status changes are recorded and checked in order
 * rather than caught live.
 */
import { describe, expect, it } from 'vitest';
import type { AgentStatusInfo } from '../../src/shared/status';
import { createOpencodeHarness } from '../fixtures/openaiChat/opencodeHarness';
import { INVALID_API_KEY_BODY, rateLimitExceeded, SERVER_ERROR } from '../fixtures/openaiChat/mockChatCompletions';
import { cleanupsAfterEach, is, mockAndHarness, spawnOnCore } from './liveAgent';

/** opencode needs 15-45 s to draw its first screen on a loaded 2-core machine. */
const WAIT_MS = 150_000;

const RATE_LIMITED = rateLimitExceeded(2);
const REFUSED = { httpError: 401, body: INVALID_API_KEY_BODY };
/** The first request and opencode's five retries. */
const SERVER_ERROR_REQUESTS = 6;

const cleanup = cleanupsAfterEach();

const drawn = (detail: string, reason: string) => (s: AgentStatusInfo) => is('waiting', detail)(s) && s.reason === reason;

/** The turn in `history` went from active to `blockedEntry` with nothing idle between (the status history's own entries). */
function turnEndedBlocked(history: string[], blockedEntry: string): boolean {
  const end = history.indexOf(blockedEntry);
  const lastActive = history.slice(0, end).findLastIndex((h) => h.startsWith('active/'));
  return end > 0 && lastActive >= 0 && !history.slice(lastActive, end).some((h) => h.startsWith('idle/'));
}

describe('the real opencode blocked', () => {
  it('reads its own retry report as active · retrying, never stuck; retries given up as waiting · api_error until an answer; then a refused key', async () => {
    const { mock, harness } = await mockAndHarness(
      cleanup,
      [
        [...Array.from({ length: SERVER_ERROR_REQUESTS }, () => SERVER_ERROR), { text: 'Back after the server errors.' }],
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
    await mock.waitFor('http_error', (e) => e.status === 500, ctx);
    const gaveUpFrom = status.history.length;
    const gaveUp = await status(drawn('api_error', 'opencode/api-error-gave-up'), 'waiting · api_error, its error block drawn');
    expect(gaveUp.blocked).toEqual({ message: 'The server had an error while processing your request. Sorry about that!' });
    // opencode reports the error (its plugin's TurnError) before its TUI draws it: never idle between.
    expect(turnEndedBlocked(status.history.slice(gaveUpFrom), 'waiting/api_error (opencode/api-error-gave-up)')).toBe(true);
    expect(mock.events.filter((e) => e.type === 'http_error' && e.status === 500)).toHaveLength(SERVER_ERROR_REQUESTS);
    expect(status.history.slice(gaveUpFrom).filter((h) => h.startsWith('active/retrying')).length).toBeGreaterThan(0);

    // The next prompt's answer ends the block.
    await core.sendUserTurn(id, 'Say something else');
    await mock.waitFor('stream_end', (e) => e.kind === 'main', ctx);
    await status(is('idle'), 'idle after the answer that followed the errors');

    await core.sendUserTurn(id, 'And now?');
    await mock.waitFor('http_error', (e) => e.status === 429, ctx);
    const retrying = await status(is('active', 'retrying'), 'active · retrying');
    expect(retrying.reason).toBe('hook:ApiRetry');
    expect(retrying.blocked?.attempt).toBe(1);
    expect(retrying.blocked?.message).toMatch(/Rate limit/i);
    await mock.waitFor('stream_end', (e) => e.kind === 'main' && e.turn === 1, ctx);
    await status(is('idle'), 'idle after the answer');

    const from = status.history.length;
    await core.sendUserTurn(id, 'Try again');
    await mock.waitFor('http_error', (e) => e.status === 401, ctx);
    const refused = await status(drawn('login', 'opencode/api-key-refused'), 'waiting · login, its error block drawn');
    expect(turnEndedBlocked(status.history.slice(from), 'waiting/login (opencode/api-key-refused)')).toBe(true);
    expect(refused.blocked?.message).toMatch(/^Incorrect API key provided: .*api-keys\.$/u);
    expect(status.history.slice(from).some((h) => h.startsWith('active/'))).toBe(true);
    expect(
      status.history.slice(gaveUpFrom).filter((h) => h.startsWith('stuck/')),
      status.history.join(' → '),
    ).toEqual([]);
  }, 420_000);
});
