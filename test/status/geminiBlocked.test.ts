/**
 * The REAL Gemini CLI (0.61.0) through the core, offline against the mock Gemini API answering as
 * the real one does when the key is rejected (400 API_KEY_INVALID) and when the daily quota is
 * spent (429 RESOURCE_EXHAUSTED with a per-day QuotaFailure): each turn ends blocked with the
 * CLI's reason. Status changes are recorded and checked in order rather than caught live.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitForEvent } from '../../src/main/core/base/lifecycle';
import type { AgentStatusInfo } from '../../src/shared/status';
import { GEMINI_BIN, createGeminiHarness } from '../fixtures/gemini/geminiHarness';
import { API_KEY_INVALID_BODY, quotaExceededBody, startMockGemini } from '../fixtures/gemini/mockGemini';
import { startSwitchboard } from '../mcp/mcpHarness';

/** A real CLI on a busy 2-core machine can take many seconds to start. */
const WAIT_MS = 60_000;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('the real Gemini CLI blocked', () => {
  it('reads a rejected key as waiting · login and a spent daily quota as waiting · limit, each with its reason', async () => {
    const mock = await startMockGemini({
      turns: [
        [{ httpError: 400, body: API_KEY_INVALID_BODY }],
        [{ httpError: 429, body: quotaExceededBody({ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier', retryDelay: '1s' }) }],
      ],
    });
    cleanups.push(() => mock.close());
    const harness = await createGeminiHarness({ baseUrl: mock.url });
    cleanups.push(() => harness.cleanup());
    const sb = await startSwitchboard({ projectDir: harness.cwd });
    cleanups.push(() => sb.close());
    const core = sb.handle.core;

    const info = await core.spawnAgent({
      preset: 'gemini',
      name: 'gemini-blocked',
      argv: [GEMINI_BIN],
      env: harness.env,
      cwd: harness.cwd,
    });
    const entry = core.entry(info.id);
    const screen = () => entry.screen.getVisibleLines().join('\n');
    const ctx = { timeoutMs: WAIT_MS, context: screen };
    const tracker = core.statusTrackerOf(info.id);
    const history: AgentStatusInfo[] = [];
    tracker.onDidChangeStatus((s) => history.push(s));
    const described = () => history.map((s) => `${s.primary}/${s.detail} (${s.reason})`).join(' → ');
    const status = (pred: (s: AgentStatusInfo) => boolean, label: string) =>
      pred(tracker.status)
        ? Promise.resolve(tracker.status)
        : waitForEvent(tracker.onDidChangeStatus, pred, WAIT_MS).catch(() => {
            throw new Error(`Gemini CLI never became ${label}; history: ${described()}\nscreen:\n${screen()}`);
          });

    await status((s) => s.primary === 'idle', 'idle');

    await core.sendUserTurn(info.id, 'Say something');
    await mock.waitFor('http_error', (e) => e.status === 400, ctx);
    const login = await status((s) => s.detail === 'login', 'waiting · login');
    expect(login).toMatchObject({ primary: 'waiting', reason: 'gemini/api-key-rejected' });
    expect(login.blocked).toEqual({ message: 'API key not valid. Please pass a valid API key.' });

    const before = history.length;
    await core.sendUserTurn(info.id, 'Try again');
    await mock.waitFor('http_error', (e) => e.status === 429, ctx);
    const limit = await status((s) => s.detail === 'limit', 'waiting · limit');
    expect(limit).toMatchObject({ primary: 'waiting', reason: 'gemini/usage-limit-dialog' });
    expect(limit.blocked).toEqual({ message: 'Usage limit reached for gemini-2.5-flash' });
    // The second turn really ran (it left the login state), and nothing read it as stuck.
    const second = history.slice(before);
    expect(second.some((s) => s.primary === 'active')).toBe(true);
    expect(history.filter((s) => s.primary === 'stuck')).toEqual([]);
  }, 180_000);
});
