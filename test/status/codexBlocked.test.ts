/**
 * The REAL Codex TUI (0.171.0) through the core, offline against the mock Responses API answering
 * 500s as the real service does until Codex gives up: its "Reconnecting... n/m" row reads
 * active · retrying with the attempt, and the turn that ended on the error reads waiting ·
 * api_error from Codex's own state report. One launch; status changes are recorded and checked in
 * order rather than caught live.
 */
import { describe, expect, it } from 'vitest';
import type { AgentStatusInfo } from '../../src/shared/status';
import { createCodexHarness } from '../fixtures/openai/codexHarness';
import { startMockResponses } from '../fixtures/openai/mockResponses';
import { cleanupsAfterEach, is, spawnOnCore } from './liveAgent';

const WAIT_MS = 60_000;
/** Codex's provider `stream_max_retries` here: a few seconds of back-off in all. */
const STREAM_RETRIES = 2;

const cleanup = cleanupsAfterEach();

describe('the real Codex blocked', () => {
  it('reads its reconnect rows as active · retrying with the attempt, then the given-up turn as waiting · api_error', async () => {
    // The first request and each retry get a 500 (more than Codex will make).
    const failures = Array.from({ length: STREAM_RETRIES + 2 }, () => ({ httpError: 500 }));
    const mock = await startMockResponses({ turns: [failures] });
    cleanup(() => mock.close());
    const harness = await createCodexHarness({ baseUrl: mock.url, streamMaxRetries: STREAM_RETRIES });
    cleanup(() => harness.cleanup());
    const { core, id, status, ctx } = await spawnOnCore(cleanup, { preset: 'codex', label: 'Codex', launch: harness, waitMs: WAIT_MS });
    const history: AgentStatusInfo[] = [];
    core.statusTrackerOf(id).onDidChangeStatus((s) => history.push(s));
    await status(is('idle'), 'idle');

    await core.sendUserTurn(id, 'Say something');
    await mock.waitFor('http_error', (e) => e.status === 500, ctx);
    const retrying = await status(is('active', 'retrying'), 'active · retrying');
    expect(retrying.reason).toBe('codex/reconnecting');
    expect(retrying.blocked).toMatchObject({ attempt: 1, maxAttempts: STREAM_RETRIES });
    const gaveUp = await status(is('waiting', 'api_error'), 'waiting · api_error');
    expect(gaveUp.reason).toBe('codex/state-error');
    const attempts = history.filter((s) => s.detail === 'retrying').map((s) => s.blocked?.attempt);
    expect(attempts).toContain(STREAM_RETRIES);
    // Every retry carried the API's message once Codex drew it.
    expect(history.filter((s) => s.detail === 'retrying').at(-1)?.blocked?.message).toMatch(/high demand/u);
    expect(history.filter((s) => s.primary === 'stuck')).toEqual([]);
  }, 180_000);
});
