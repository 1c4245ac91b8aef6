/**
 * A blocked agent through `serve` + MCP (issue 30): the real `serve` process as a child, the REAL
 * Claude Code from switchboard.json with `continueAtReset: true`, an MCP client with serve's app
 * token. The mock Messages API answers 429 with the real service's `anthropic-ratelimit-unified-*`
 * headers until its limit lifts. Everything the test knows of Switchboard it reads through MCP:
 * get_process_status (polled; the history of what it showed is recorded), set_continue_at_reset,
 * list_waiting, resolve_blocked and timer_list. Ground truth is the mock's timeline and the reset
 * the API sent. (The same checks through the core alone would repeat this test: serve runs it.)
 */
import { afterAll, expect, it } from 'vitest';
import { RESET_MARGIN_MS } from '../../src/main/core/blocked';
import type { WaitingAgent } from '../../src/shared/inbox';
import { CLAUDE_BIN, createClaudeHarness } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic } from '../fixtures/anthropic/mockAnthropic';
import { callError, callOk } from '../mcp/mcpHarness';
import {
  AGENT_WAIT_MS,
  BLOCKED_WITHIN_MS,
  expectActiveAgain,
  IDLE_TIMER_BODY,
  idleTimerOn,
  isBlockedOn,
  recordStatus,
  serveWithAgent,
  type McpStatus,
  type McpTimer,
} from './blockedServe';

/** The CLI prints the reset in minutes: it is sent on a whole minute at least this far ahead. */
const MIN_RESET_AHEAD_MS = 30_000;

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

it('through serve + MCP: waiting · limit within 1 s, attention once, an idle timer held, continued at the reset by the setting, active again', async () => {
  const headers: Record<string, string> = {
    'anthropic-ratelimit-unified-status': 'rejected',
    'anthropic-ratelimit-unified-representative-claim': 'five_hour',
  };
  const limited = { httpError: 429, message: 'rate limited', headers };
  // The turn meets the limit (the request and its one retry); the next request, after the reset, is
  // answered after 2 s of thinking, so the agent is still at work when the test reads the timers.
  const answer = { text: 'Back at work after the reset.', firstTokenDelayMs: 2_000 };
  const mock = await startMockAnthropic({ turns: [[limited, limited, answer]] });
  cleanups.push(() => mock.close());
  const harness = await createClaudeHarness({ baseUrl: mock.url, env: { CLAUDE_CODE_MAX_RETRIES: '1' } });
  cleanups.push(() => harness.cleanup());
  const { mcp, agentId } = await serveWithAgent(cleanups, { name: 'limited', preset: 'claude', bin: CLAUDE_BIN, launch: harness });

  const recorder = recordStatus(mcp, agentId);
  cleanups.push(() => recorder.stop());
  await recorder.until((s) => s.agent?.primary === 'idle', 'idle at start');
  const first = await callOk<McpStatus>(mcp, 'get_process_status', { process_id: agentId });
  expect(first.continueAtReset).toEqual({ enabled: true, source: 'agent' });
  // The run-time toggle wins over the entry; on while the agent is not blocked arms nothing yet.
  const setting = await callOk<{ continue_at_reset: unknown; timer?: McpTimer }>(mcp, 'set_continue_at_reset', {
    process_id: agentId,
    enabled: true,
  });
  expect(setting).toMatchObject({ continue_at_reset: { enabled: true, source: 'toggle' }, done: 'on' });
  expect(setting.timer).toBeUndefined();
  // A timer waiting for this agent's next idle must not fire while it is blocked.
  const idleTimer = await idleTimerOn(mcp, agentId);
  const resetsAt = Math.ceil((Date.now() + MIN_RESET_AHEAD_MS) / 60_000) * 60_000;
  headers['anthropic-ratelimit-unified-reset'] = String(resetsAt / 1000);
  await callOk(mcp, 'send_input', { process_id: agentId, kind: 'text', text: 'Say hello', submit: true });

  const lastRejection = await mock.waitFor('http_error', (e) => e.requestId === 'req_2', { timeoutMs: AGENT_WAIT_MS });
  const blockedAt = await recorder.until(isBlockedOn('limit'), 'waiting · limit');
  expect(blockedAt - lastRejection.at).toBeLessThanOrEqual(BLOCKED_WITHIN_MS);
  const blocked = await callOk<McpStatus>(mcp, 'get_process_status', { process_id: agentId });
  expect(blocked.agent?.blocked?.resetsAt).toBe(resetsAt);

  const { agents } = await callOk<{ agents: WaitingAgent[] }>(mcp, 'list_waiting');
  expect(agents.find((a) => a.id === agentId)?.blocked).toMatchObject({ detail: 'limit', resetsAt, action: 'continue_at_reset' });
  // The setting armed the continue as the block began: no click; a click finds it armed.
  const listed = (await callOk<{ timers: McpTimer[] }>(mcp, 'timer_list')).timers;
  const armed = listed.find((t) => t.continue_at_reset);
  expect(armed).toMatchObject({ kind: 'delay', owner_process_id: agentId, body_preview: 'continue' });
  expect(armed!.label).toMatch(/^continue at reset \(usage limit, resets \d\d:\d\d\)$/);
  // Due at the reset plus the margin (the delay is counted from the moment it was armed, a few ms later).
  const firesAt = Date.parse(armed!.fires_at!);
  expect(firesAt).toBeGreaterThanOrEqual(resetsAt + RESET_MARGIN_MS);
  expect(firesAt).toBeLessThan(resetsAt + RESET_MARGIN_MS + 1_000);
  expect((await callError(mcp, 'resolve_blocked', { process_id: agentId, action: 'continue_at_reset' })).text).toContain(
    `already continues at its reset (timer ${armed!.timer_id})`,
  );
  expect(listed.map((t) => t.timer_id).sort()).toEqual([idleTimer.timer_id, armed!.timer_id].sort());
  expect(listed.find((t) => t.timer_id === idleTimer.timer_id)?.blocked_on).toEqual([
    { process_id: agentId, reason: expect.stringMatching(/^limit: /) },
  ]);

  // Claude Code sends the refused prompt again with the continue as one user message.
  const continued = await mock.waitFor('request', (e) => e.kind === 'main' && e.userText?.split('\n').at(-1) === 'continue', {
    timeoutMs: resetsAt - Date.now() + AGENT_WAIT_MS,
  });
  expect(continued.userText).toBe('Say hello\ncontinue');
  expect(continued.at).toBeGreaterThanOrEqual(resetsAt);
  // Blocked the whole time until the continue: the idle timer is still pending.
  const beforeGoingOn = (await callOk<{ timers: McpTimer[] }>(mcp, 'timer_list')).timers;
  expect(beforeGoingOn.find((t) => t.timer_id === idleTimer.timer_id)).toMatchObject({ state: 'pending' });
  expect(mock.events.some((e) => e.type === 'request' && e.userText === IDLE_TIMER_BODY)).toBe(false);
  await callOk(mcp, 'timer_cancel', { timer_id: idleTimer.timer_id });

  // From the block: waiting · limit until the continue at the reset, then active (not retrying), then idle.
  const attention = await expectActiveAgain(recorder, {
    answered: mock.waitFor('stream_end', (e) => e.requestId === continued.requestId, { timeoutMs: AGENT_WAIT_MS }),
    blockedAt,
    continueDueAt: resetsAt,
  });
  expect(attention.map((a) => a.reason)).toEqual([expect.stringMatching(/^claude: usage limit, resets \d\d:\d\d$/)]);
  // Raised for the block itself (not while the CLI still retried), within the goal of the API's last refusal.
  expect(attention[0].at).toBeGreaterThan(lastRejection.at);
  expect(attention[0].at - lastRejection.at).toBeLessThanOrEqual(BLOCKED_WITHIN_MS);
}, 240_000);
