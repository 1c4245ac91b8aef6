/**
 * The REAL pi (0.73.1) through the core with its status extension, offline against the mock Chat
 * Completions API answering as OpenAI does, one launch: used-up credit (429 `insufficient_quota`)
 * that pi retries three times by itself and then gives up on, a refused key (401
 * `invalid_api_key`, not retried), then the API gone (the mock closed: connection refused,
 * retried and given up). Each retry reads active · retrying with pi's attempt and the error it
 * retries; each give-up names its cause. Status changes are recorded and checked rather than
 * caught live.
 */
import { describe, expect, it } from 'vitest';
import type { AgentStatusInfo } from '../../src/shared/status';
import { INSUFFICIENT_QUOTA, INVALID_API_KEY_BODY } from '../fixtures/openaiChat/mockChatCompletions';
import { createPiHarness } from '../fixtures/openaiChat/piHarness';
import { cleanupsAfterEach, is, mockAndHarness, spawnOnCore } from './liveAgent';

/** pi starts in 3-8 s here; under load up to a minute. */
const WAIT_MS = 120_000;
/** pi's own retries (its default) and back-off from 0.5 s (0.5, 1, 2 s; its default is 2 s). */
const MAX_RETRIES = 3;
const RETRY = { retry: { enabled: true, maxRetries: MAX_RETRIES, baseDelayMs: 500, provider: { maxRetries: 0 } } };

const cleanup = cleanupsAfterEach();

const retriesIn = (history: AgentStatusInfo[]) => history.filter((s) => s.detail === 'retrying');

describe('the real pi blocked', () => {
  it('reads its retries with the attempt, then quota, login and network apart, never stuck', async () => {
    const quotaRequests = Array.from({ length: MAX_RETRIES + 1 }, () => INSUFFICIENT_QUOTA);
    const { mock, harness } = await mockAndHarness(
      cleanup,
      [[...quotaRequests, { httpError: 401, body: INVALID_API_KEY_BODY }]],
      (baseUrl) => createPiHarness({ baseUrl, settings: RETRY }),
    );
    const { core, id, status, ctx } = await spawnOnCore(cleanup, {
      preset: 'pi',
      label: 'pi',
      launch: harness,
      waitMs: WAIT_MS,
      withHooks: true,
    });
    const history: AgentStatusInfo[] = [];
    core.statusTrackerOf(id).onDidChangeStatus((s) => history.push(s));
    await status(is('idle', 'ready'), 'idle');

    await core.sendUserTurn(id, 'Say something');
    const quota = await status(is('waiting', 'quota'), 'waiting · quota');
    expect(quota.reason).toBe('pi/quota-gave-up');
    expect(quota.blocked).toMatchObject({
      attempt: MAX_RETRIES,
      message: expect.stringMatching(/^429 You exceeded your current quota, /u),
    });
    expect(mock.events.filter((e) => e.type === 'http_error')).toHaveLength(MAX_RETRIES + 1);
    // pi's own "(n/3)": counting up, each with the error it retries.
    const retries = retriesIn(history);
    expect(retries.length).toBeGreaterThan(0);
    expect(retries.every((s) => s.reason?.endsWith('pi/retrying') && s.blocked?.maxAttempts === MAX_RETRIES)).toBe(true);
    expect(retries.map((s) => s.blocked?.attempt ?? 0)).toEqual([...retries.map((s) => s.blocked?.attempt ?? 0)].sort((a, b) => a - b));
    expect(retries.at(-1)?.blocked?.message).toMatch(/^429 You exceeded your current quota/u);

    const mark = mock.mark();
    await core.sendUserTurn(id, 'Try again');
    await mock.waitFor('http_error', (e) => e.status === 401, { ...ctx, after: mark });
    // A new turn after the give-up sends the refused prompt again before it (what a continue relies on).
    const request = await mock.waitFor('request', (e) => e.kind === 'main', { ...ctx, after: mark });
    const next = mock.requests.find((r) => r.requestId === request.requestId);
    const userTexts = (next?.body.messages ?? []).filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content));
    expect(userTexts.map((t) => /Say something/u.test(t))).toEqual([true, false]);
    const login = await status(is('waiting', 'login'), 'waiting · login');
    expect(login.reason).toBe('pi/api-key-refused');
    expect(login.blocked?.message).toMatch(/^401 Incorrect API key provided: .*api-keys\.$/u);

    await mock.close();
    const retriedBefore = retriesIn(history).length;
    await core.sendUserTurn(id, 'Are you there?');
    const network = await status(is('waiting', 'network'), 'waiting · network');
    expect(network).toMatchObject({ reason: 'pi/network-gave-up', blocked: { message: 'Connection error.', attempt: MAX_RETRIES } });
    expect(retriesIn(history).length).toBeGreaterThan(retriedBefore);
    expect(history.filter((s) => s.primary === 'stuck')).toEqual([]);
  }, 300_000);
});
