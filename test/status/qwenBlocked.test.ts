/**
 * The REAL Qwen Code (0.24.4) through the core, offline against the mock Chat Completions API
 * answering a refused key as OpenAI does (401 invalid_api_key): the turn ends blocked with the
 * CLI's reason. Status changes are recorded and checked rather than caught live.
 */
import { describe, expect, it } from 'vitest';
import type { AgentStatusInfo } from '../../src/shared/status';
import { INVALID_API_KEY_BODY } from '../fixtures/openaiChat/mockChatCompletions';
import { createQwenHarness } from '../fixtures/openaiChat/qwenHarness';
import { cleanupsAfterEach, is, mockAndHarness, spawnOnCore } from './liveAgent';

/** Qwen Code needs 10-40 s to initialise on a loaded 2-core machine. */
const WAIT_MS = 120_000;

const cleanup = cleanupsAfterEach();

describe('the real Qwen Code blocked', () => {
  it('reads a refused key (401) as waiting · login with the API message, not as idle', async () => {
    const { mock, harness } = await mockAndHarness(cleanup, [[{ httpError: 401, body: INVALID_API_KEY_BODY }]], (baseUrl) =>
      createQwenHarness({ baseUrl }),
    );
    const { core, id, status, ctx } = await spawnOnCore(cleanup, { preset: 'qwen', label: 'Qwen', launch: harness, waitMs: WAIT_MS });
    const history: AgentStatusInfo[] = [];
    core.statusTrackerOf(id).onDidChangeStatus((s) => history.push(s));
    await status(is('idle', 'ready'), 'idle');

    await core.sendUserTurn(id, 'Say something');
    await mock.waitFor('http_error', (e) => e.status === 401, ctx);
    const login = await status(is('waiting', 'login'), 'waiting · login');
    expect(login.reason).toBe('qwen/api-key-refused');
    expect(login.blocked?.message).toMatch(/^401 Incorrect API key provided: .*api-keys\.$/u);
    // It was read as a refusal once the turn ran, and never as stuck.
    expect(history.some((s) => s.primary === 'active')).toBe(true);
    expect(history.filter((s) => s.primary === 'stuck')).toEqual([]);
  }, 300_000);
});
