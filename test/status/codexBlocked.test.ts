/**
 * The REAL Codex TUI (0.171.0) through the core, offline against the mock Responses API answering
 * 500s as the real service does until Codex gives up: its "Reconnecting... n/m" row reads
 * active · retrying with the attempt, and the turn that ended on the error reads waiting ·
 * api_error from Codex's own state report. Then one turn each refused as the service refuses them:
 * a rejected key reads waiting · login, the usage limit waiting · limit with its reset as an
 * instant, used-up credit waiting · quota — told apart by Codex's own error row under its
 * `state=error` report. Last, the API unreachable reads waiting · network until Codex, by itself,
 * reaches the API again. One launch; status changes are recorded and checked in order rather than
 * caught live.
 */
import { describe, expect, it } from 'vitest';
import type { AgentStatusInfo } from '../../src/shared/status';
import { createCodexHarness } from '../fixtures/openai/codexHarness';
import { codexRefusals, MockResponses, startMockResponses } from '../fixtures/openai/mockResponses';
import { cleanupsAfterEach, is, spawnOnCore, type AgentOnCore } from './liveAgent';

const WAIT_MS = 60_000;
/** Codex's provider `stream_max_retries` here: a few seconds of back-off in all. */
const STREAM_RETRIES = 2;

const cleanup = cleanupsAfterEach();

describe('the real Codex blocked', () => {
  it('reads its reconnect rows as active · retrying, the given-up turn as waiting · api_error, then login, limit and quota apart', async () => {
    // The first request and each retry get a 500 (with `retry-after: 1`, so each Reconnecting row stays
    // up for a second rather than flashing by on a loaded machine); each later turn one refusal.
    const failures = Array.from({ length: STREAM_RETRIES + 1 }, () => ({ httpError: 500, retryAfterMs: 1_000 }));
    // Codex prints the reset to the minute.
    const resetsAt = Math.floor((Date.now() + 3 * 3_600_000) / 60_000) * 60_000;
    // Codex retries a 401 like a dropped stream; a usage limit and used-up credit it does not.
    const refusedKey = Array.from({ length: STREAM_RETRIES + 1 }, () => codexRefusals.invalidKey());
    // The limit carries the rate-limit headers at 100 % use: Codex also offers a lower-cost model.
    const refusals = [...refusedKey, codexRefusals.usageLimit({ resetsAt, rateLimitHeaders: true }), codexRefusals.insufficientQuota()];
    const mock = await startMockResponses({ turns: [[...failures, ...refusals]] });
    cleanup(() => mock.close());
    const harness = await createCodexHarness({ baseUrl: mock.url, streamMaxRetries: STREAM_RETRIES });
    cleanup(() => harness.cleanup());
    const { core, id, status, ctx } = await spawnOnCore(cleanup, { preset: 'codex', label: 'Codex', launch: harness, waitMs: WAIT_MS });
    const history: AgentStatusInfo[] = [];
    core.statusTrackerOf(id).onDidChangeStatus((s) => history.push(s));
    await status(is('idle'), 'idle');

    await core.sendUserTurn(id, 'Say something');
    await mock.waitFor('http_error', (e) => e.status === 500, ctx);
    await status(is('active', 'retrying'), 'active · retrying');
    // The first retry as recorded (by the time the test looks, Codex may be at its next attempt).
    const retrying = history.find((s) => s.detail === 'retrying')!;
    expect(retrying.reason).toBe('codex/reconnecting');
    expect(retrying.blocked).toMatchObject({ maxAttempts: STREAM_RETRIES });
    const gaveUp = await status(is('waiting', 'api_error'), 'waiting · api_error');
    expect(gaveUp.reason).toBe('codex/state-error');
    // Its message is the error row Codex drew, not its report.
    expect(gaveUp.blocked?.message).toMatch(/^We’re currently experiencing high demand/u);
    // Each retry row's own "n/m": counting up to the last attempt. Codex draws 1/2 for a few hundred
    // ms only, so on a loaded machine the tracker may first read it at 2/2.
    const attempts = history.filter((s) => s.detail === 'retrying').map((s) => s.blocked?.attempt ?? 0);
    expect(attempts.every((n, i) => n >= 1 && n <= STREAM_RETRIES && n >= (attempts[i - 1] ?? 1))).toBe(true);
    expect(attempts).toContain(STREAM_RETRIES);
    // Every retry carried the API's message once Codex drew it.
    expect(history.filter((s) => s.detail === 'retrying').at(-1)?.blocked?.message).toMatch(/high demand/u);

    const refused = [
      { detail: 'login', reason: 'codex/error-unauthorized', message: /^unexpected status 401 Unauthorized: Incorrect API key provided/u },
      { detail: 'limit', reason: 'codex/error-usage-limit', message: /^You’ve hit your usage limit\..* try again at .*[AP]M\.$/u },
      { detail: 'quota', reason: 'codex/error-quota', message: /^Quota exceeded\. Check your plan and billing details\.$/u },
    ];
    for (const [i, expected] of refused.entries()) {
      const mark = mock.mark();
      await core.sendUserTurn(id, `Try again (${i})`);
      await mock.waitFor('http_error', undefined, { ...ctx, after: mark });
      if (expected.detail === 'limit') await keepModelOnTheOffer(core, id, status);
      const blocked = await status(is('waiting', expected.detail), `waiting · ${expected.detail}`);
      expect(blocked.reason).toBe(expected.reason);
      expect(blocked.blocked?.message).toMatch(expected.message);
      if (expected.detail === 'limit') expect(blocked.blocked?.resetsAt).toBe(resetsAt);
    }

    // The API unreachable (the mock's port closed): Codex waits for the network with no end, and
    // goes on by itself once the port answers again.
    const port = new URL(mock.url).port;
    await mock.close();
    await core.sendUserTurn(id, 'Are you there?');
    const unreachable = await status(is('waiting', 'network'), 'waiting · network');
    expect(unreachable.reason).toBe('codex/waiting-for-network');
    expect(unreachable.blocked?.message).toMatch(/^Connection failed: /u);
    // It keeps trying by itself: the inbox offers its pane, nothing to type into it.
    expect(core.listWaiting().find((w) => w.id === id)?.blocked).toMatchObject({ action: 'open_pane', retriesByItself: true });
    const back = new MockResponses({ turns: [[{ text: 'Back online.' }]] });
    await back.listen(Number(port));
    cleanup(() => back.close());
    await back.waitFor('stream_end', undefined, ctx);
    await status(is('idle'), 'idle once the network is back');
    expect(history.filter((s) => s.primary === 'stuck')).toEqual([]);
  }, 180_000);
});

/**
 * Codex's "Approaching rate limits" offer over the limit's error row: a question in the inbox with
 * the offer's own options; "Keep current model" (`2`) closes it and leaves the model as it was.
 */
async function keepModelOnTheOffer(core: AgentOnCore['core'], id: string, status: AgentOnCore['status']): Promise<void> {
  const offer = await status(is('waiting', 'question'), 'the rate-limit offer');
  expect(offer.reason).toBe('codex/rate-limit-switch-model');
  const waiting = core.listWaiting().find((w) => w.id === id)!;
  expect(waiting.blocked).toBeUndefined();
  expect(waiting.question).toMatch(/^\s*Approaching rate limits\n\s*Switch to \S+ for lower credit usage\?/u);
  expect(waiting.question).not.toContain('usage limit');
  expect(waiting.choices.map((c) => [c.id, c.label])).toEqual([
    ['approve', 'Switch to the lower-cost model'],
    ['deny', 'Keep current model'],
  ]);
  expect((await core.answerPrompt({ id, fingerprint: waiting.fingerprint!, choice: 'deny' })).label).toBe('Keep current model');
  await status((s) => s.reason !== 'codex/rate-limit-switch-model', 'the offer closed');
  expect(core.entry(id).screen.getVisibleLines().join('\n')).toMatch(/^\s*switchboard-mock default · /mu);
}
