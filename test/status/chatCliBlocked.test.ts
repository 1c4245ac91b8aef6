/**
 * The REAL GitHub Copilot CLI (1.0.102) through the core, offline against the mock Chat Completions
 * API answering a refused key as OpenAI does (401 invalid_api_key, every time): Copilot retries
 * twice and then names the provider, waiting · login. The launch goes on: OpenAI's rate limit (429
 * with `retry-after`) on every request is retried five times and given up (waiting · limit), then its
 * 500 the same way (waiting · api_error), then an answer (idle). Status changes are recorded and
 * checked rather than caught live. pi's refused key is checked in piBlocked.test.ts's launch.
 */
import { describe, expect, it } from 'vitest';
import type { AgentStatusInfo } from '../../src/shared/status';
import { createCopilotHarness } from '../fixtures/openaiChat/copilotHarness';
import { INVALID_API_KEY_BODY, rateLimitExceeded, SERVER_ERROR, type ChatTurn } from '../fixtures/openaiChat/mockChatCompletions';
import { cleanupsAfterEach, is, mockAndHarness, spawnOnCore } from './liveAgent';

const WAIT_MS = 120_000;
const TEST_TIMEOUT_MS = 300_000;
const REFUSED = { httpError: 401, body: INVALID_API_KEY_BODY };
/** Copilot 1.0.102 retries a 429 or a 5xx five times before it gives up: six requests a turn. */
const COPILOT_REQUESTS_PER_TURN = 6;
type ChatStep = Extract<ChatTurn, unknown[]>[number];

const cleanup = cleanupsAfterEach();

/** Spawns `preset` against a mock that refuses its key, sends one turn and returns the blocked status. */
async function refusedTurn(
  preset: 'copilot',
  blockedDetail: 'login',
  harnessFor: typeof createCopilotHarness,
  /** What the requests after the three refused ones get, one step each (errors) until a text answers the rest. */
  laterSteps: ChatStep[] = [],
) {
  const { mock, harness } = await mockAndHarness(cleanup, [[REFUSED, REFUSED, REFUSED, ...laterSteps]], (baseUrl) =>
    harnessFor({ baseUrl }),
  );
  const agent = await spawnOnCore(cleanup, { preset, label: preset, launch: harness, waitMs: WAIT_MS });
  const { core, id, status, ctx } = agent;
  const history: AgentStatusInfo[] = [];
  core.statusTrackerOf(id).onDidChangeStatus((s) => history.push(s));
  await status(is('idle', 'ready'), 'idle');
  await core.sendUserTurn(id, 'Say something');
  await mock.waitFor('http_error', (e) => e.status === 401, ctx);
  const blocked = await status(is('waiting', blockedDetail), `waiting · ${blockedDetail}`);
  expect(history.some((s) => s.primary === 'active')).toBe(true);
  expect(history.filter((s) => s.primary === 'stuck')).toEqual([]);
  return { blocked, mock, agent, history };
}

describe('real chat-completions CLIs blocked', () => {
  it(
    'copilot: a key refused on every retry is waiting · login naming the provider; a rate limit its retries did not get past is waiting · limit; server errors given up are waiting · api_error until an answer',
    async () => {
      const { blocked, mock, agent, history } = await refusedTurn('copilot', 'login', createCopilotHarness, [
        ...Array<ChatStep>(COPILOT_REQUESTS_PER_TURN).fill(rateLimitExceeded(1)),
        ...Array<ChatStep>(COPILOT_REQUESTS_PER_TURN).fill(SERVER_ERROR),
        { text: 'Back after the server errors.' },
      ]);
      expect(blocked.reason).toBe('copilot/provider-auth-failed');
      expect(blocked.blocked?.message).toMatch(/^Authentication failed with provider at http:\/\/127\.0\.0\.1:\d+\/v1 \(HTTP 401\)\.$/u);
      const { core, id, status, ctx } = agent;

      await core.sendUserTurn(id, 'Say something else');
      await mock.waitFor('http_error', (e) => e.status === 429, ctx);
      const limit = await status(is('waiting', 'limit'), 'waiting · limit');
      expect(limit.reason).toBe('copilot/gave-up-limit');
      expect(limit.blocked?.message).toMatch(
        /^Failed to get response from the AI model; retried 5 times \(.*\) Last error: 429 .*Please try again in 1s\./u,
      );
      expect(mock.events.filter((e) => e.type === 'http_error' && e.status === 429)).toHaveLength(COPILOT_REQUESTS_PER_TURN);

      const sinceLimit = history.length;
      await core.sendUserTurn(id, 'And now?');
      await mock.waitFor('http_error', (e) => e.status === 500, ctx);
      const gaveUp = await status(is('waiting', 'api_error'), 'waiting · api_error');
      expect(gaveUp.reason).toBe('copilot/gave-up');
      expect(gaveUp.blocked?.message).toMatch(
        /^Failed to get response from the AI model; retried 5 times \(.*\) Last error: 500 [^┃█]*Sorry about that!$/u,
      );
      // Its retry notices, read under the transcript's scrollbar column (it overflows by now).
      expect(history.slice(sinceLimit).some((s) => s.reason === 'copilot/retrying')).toBe(true);
      expect(history.slice(sinceLimit).filter((s) => s.detail === 'responding')).toEqual([]);

      await core.sendUserTurn(id, 'Once more');
      await mock.waitFor('stream_end', (e) => e.kind === 'main', ctx);
      await status(is('idle', 'ready'), 'idle after the answer');
      expect(history.filter((s) => s.primary === 'stuck')).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
