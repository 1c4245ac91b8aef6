/**
 * The REAL GitHub Copilot CLI (1.0.102) through the core, offline against the mock Chat Completions
 * API answering a refused key as OpenAI does (401 invalid_api_key, every time): Copilot retries
 * twice and then names the provider, waiting · login. Status changes are recorded and checked
 * rather than caught live. pi's refused key is checked in piBlocked.test.ts's launch.
 */
import { describe, expect, it } from 'vitest';
import type { AgentStatusInfo } from '../../src/shared/status';
import { createCopilotHarness } from '../fixtures/openaiChat/copilotHarness';
import { INVALID_API_KEY_BODY } from '../fixtures/openaiChat/mockChatCompletions';
import { cleanupsAfterEach, is, mockAndHarness, spawnOnCore } from './liveAgent';

const WAIT_MS = 120_000;
const TEST_TIMEOUT_MS = 300_000;
const REFUSED = { httpError: 401, body: INVALID_API_KEY_BODY };

const cleanup = cleanupsAfterEach();

/** Spawns `preset` against a mock that refuses its key, sends one turn and returns the blocked status. */
async function refusedTurn(preset: 'copilot', blockedDetail: 'login', harnessFor: typeof createCopilotHarness) {
  const { mock, harness } = await mockAndHarness(cleanup, [[REFUSED, REFUSED, REFUSED]], (baseUrl) => harnessFor({ baseUrl }));
  const { core, id, status, ctx } = await spawnOnCore(cleanup, { preset, label: preset, launch: harness, waitMs: WAIT_MS });
  const history: AgentStatusInfo[] = [];
  core.statusTrackerOf(id).onDidChangeStatus((s) => history.push(s));
  await status(is('idle', 'ready'), 'idle');
  await core.sendUserTurn(id, 'Say something');
  await mock.waitFor('http_error', (e) => e.status === 401, ctx);
  const blocked = await status(is('waiting', blockedDetail), `waiting · ${blockedDetail}`);
  expect(history.some((s) => s.primary === 'active')).toBe(true);
  expect(history.filter((s) => s.primary === 'stuck')).toEqual([]);
  return blocked;
}

describe('real chat-completions CLIs blocked', () => {
  it(
    'copilot: a key refused on every retry is waiting · login naming the provider',
    async () => {
      const blocked = await refusedTurn('copilot', 'login', createCopilotHarness);
      expect(blocked.reason).toBe('copilot/provider-auth-failed');
      expect(blocked.blocked?.message).toMatch(/^Authentication failed with provider at http:\/\/127\.0\.0\.1:\d+\/v1 \(HTTP 401\)\.$/u);
    },
    TEST_TIMEOUT_MS,
  );
});
