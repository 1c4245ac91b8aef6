/**
 * The REAL Codex (0.171.0) blocked at its usage limit through `serve` + MCP (issue 30): Codex from
 * switchboard.json with `continueAtReset: true` and the project's probe starting at 5 s
 * (`settings.continueProbeFirstMs`), the mock Responses API refusing the turn with the service's
 * `usage_limit_reached` and no `resets_at` (Codex: "Try again later."), then answering once the
 * limit has lifted. Read through MCP only: the block and its reason within 1 s, list_waiting, the
 * probe and an idle timer held in timer_list, attention once; the probe types Codex's continue and
 * the agent is active, then idle, again. Ground truth is the mock's timeline.
 */
import { afterAll, expect, it } from 'vitest';
import type { WaitingAgent } from '../../src/shared/inbox';
import { CODEX_BIN, createCodexHarness } from '../fixtures/openai/codexHarness';
import { codexRefusals, startMockResponses } from '../fixtures/openai/mockResponses';
import { callOk } from '../mcp/mcpHarness';
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

const PROBE_FIRST_MS = 5_000;

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

it('through serve + MCP: waiting · limit within 1 s, attention once, an idle timer held, the probe continues it, active again', async () => {
  // The answer streams for a second or two, so a client polling every 50 ms sees the agent active.
  const answer = { text: 'Back at work after the limit.', firstTokenDelayMs: 1_000, chunkDelayMs: 150 };
  const mock = await startMockResponses({ turns: [[codexRefusals.usageLimit(), answer]] });
  cleanups.push(() => mock.close());
  const harness = await createCodexHarness({ baseUrl: mock.url });
  cleanups.push(() => harness.cleanup());
  const { mcp, agentId } = await serveWithAgent(cleanups, {
    name: 'limited',
    preset: 'codex',
    bin: CODEX_BIN,
    launch: harness,
    settings: { continueProbeFirstMs: PROBE_FIRST_MS },
  });
  const recorder = recordStatus(mcp, agentId);
  cleanups.push(() => recorder.stop());
  await recorder.until((s) => s.agent?.primary === 'idle', 'idle at start');
  const idleTimer = await idleTimerOn(mcp, agentId);
  await callOk(mcp, 'send_input', { process_id: agentId, kind: 'text', text: 'Say hello', submit: true });

  const refusal = await mock.waitFor('http_error', (e) => e.status === 429, { timeoutMs: AGENT_WAIT_MS });
  const blockedAt = await recorder.until(isBlockedOn('limit'), 'waiting · limit');
  expect(blockedAt - refusal.at).toBeLessThanOrEqual(BLOCKED_WITHIN_MS);
  const { agent } = await callOk<McpStatus>(mcp, 'get_process_status', { process_id: agentId });
  expect(agent?.reason).toBe('codex/error-usage-limit');
  expect(agent?.blocked?.message).toMatch(/^You’ve hit your usage limit\. .*or try again later\.$/u);
  expect(agent?.blocked?.resetsAt).toBeUndefined();
  const { agents } = await callOk<{ agents: WaitingAgent[] }>(mcp, 'list_waiting');
  expect(agents.find((a) => a.id === agentId)?.blocked).toMatchObject({ detail: 'limit', action: 'retry_now' });

  // No reset shown: the setting armed the probe's first try; the idle timer waits, saying why.
  const listed = (await callOk<{ timers: McpTimer[] }>(mcp, 'timer_list')).timers;
  const probe = listed.find((t) => t.continue_at_reset)!;
  expect(probe).toMatchObject({
    kind: 'delay',
    owner_process_id: agentId,
    body_preview: 'continue',
    label: 'continue probe 1/6 (usage limit)',
  });
  const firesAt = Date.parse(probe.fires_at!);
  expect(firesAt - refusal.at).toBeGreaterThanOrEqual(PROBE_FIRST_MS);
  expect(firesAt - refusal.at).toBeLessThan(PROBE_FIRST_MS + BLOCKED_WITHIN_MS);
  expect(listed.find((t) => t.timer_id === idleTimer.timer_id)).toMatchObject({
    state: 'pending',
    blocked_on: [{ process_id: agentId, reason: expect.stringMatching(/^limit: You’ve hit your usage limit/u) }],
  });

  // The probe types Codex's continue (a user turn of its own); the limit has lifted, so it is answered.
  const continued = await mock.waitFor('request', (e) => e.kind === 'main' && e.userText === 'continue', { timeoutMs: AGENT_WAIT_MS });
  expect(continued.at).toBeGreaterThanOrEqual(firesAt);
  // Not fired while blocked: its body never reached the model. (Codex clears its error report once
  // typed into, so the idle timer may come due as the continue is typed; it is cancelled here.)
  expect(mock.events.some((e) => e.type === 'request' && e.userText === IDLE_TIMER_BODY)).toBe(false);
  await callOk(mcp, 'timer_cancel', { timer_id: idleTimer.timer_id });

  const attention = await expectActiveAgain(recorder, {
    answered: mock.waitFor('stream_end', (e) => e.requestId === continued.requestId, { timeoutMs: AGENT_WAIT_MS }),
    blockedAt,
    continueDueAt: firesAt,
  });
  expect(attention.map((a) => a.reason)).toEqual(['codex: usage limit']);
  expect(attention[0].at - refusal.at).toBeLessThanOrEqual(BLOCKED_WITHIN_MS);
  // The probe went through: no further try is armed.
  expect((await callOk<{ timers: McpTimer[] }>(mcp, 'timer_list')).timers.filter((t) => t.continue_at_reset)).toEqual([]);
}, 120_000);
