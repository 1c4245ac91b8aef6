/**
 * A blocked agent through `serve` + MCP (issue 30): the real `serve` process as a child, the REAL
 * Claude Code from switchboard.json with `continueAtReset: true`, an MCP client with serve's app
 * token. The mock Messages API answers 429 with the real service's `anthropic-ratelimit-unified-*`
 * headers until its limit lifts. Everything the test knows of Switchboard it reads through MCP:
 * get_process_status (polled; the history of what it showed is recorded), list_waiting and
 * timer_list. Ground truth is the mock's timeline and the reset the API sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { RESET_MARGIN_MS } from '../../src/main/core/blocked';
import type { WaitingAgent } from '../../src/shared/inbox';
import type { ContinueAtResetInfo } from '../../src/shared/model';
import type { AgentStatusInfo } from '../../src/shared/status';
import { CLAUDE_BIN, createClaudeHarness } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic } from '../fixtures/anthropic/mockAnthropic';
import { callError, callOk, connectClient } from '../mcp/mcpHarness';
import { exitOf, startServe } from '../serve/serveProcess';

/** The issue's goal: the blocked state within 1 s of the API's last answer (as seen by a poll every POLL_MS). */
const BLOCKED_WITHIN_MS = 1_000;
const POLL_MS = 50;
const AGENT_WAIT_MS = 90_000;
/** The CLI prints the reset in minutes: it is sent on a whole minute at least this far ahead. */
const MIN_RESET_AHEAD_MS = 30_000;

interface McpTimer {
  timer_id: string;
  kind: string;
  state: string;
  label?: string;
  fires_at?: string;
  owner_process_id?: string;
  body_preview?: string;
  continue_at_reset?: true;
  blocked_on?: Array<{ process_id: string; reason: string }>;
}

interface McpStatus {
  id: string;
  agent?: AgentStatusInfo;
  attention?: { reason: string; at: number; requestedBy: string };
  continueAtReset?: ContinueAtResetInfo;
}

interface Seen {
  label: string;
  at: number;
}

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Polls get_process_status, recording each status and each attention request it shows, until stopped. */
function recordStatus(mcp: Client, id: string) {
  const statuses: Seen[] = [];
  const attention: Array<{ reason: string; at: number }> = [];
  let last: McpStatus | undefined;
  let running = true;
  const loop = (async () => {
    while (running) {
      const status = await callOk<McpStatus>(mcp, 'get_process_status', { process_id: id });
      const seenAt = Date.now();
      last = status;
      const label = status.agent ? `${status.agent.primary}${status.agent.detail ? ` · ${status.agent.detail}` : ''}` : 'none';
      if (statuses.at(-1)?.label !== label) statuses.push({ label, at: seenAt });
      const flag = status.attention;
      if (flag && flag.requestedBy === 'switchboard' && attention.at(-1)?.at !== flag.at)
        attention.push({ reason: flag.reason, at: flag.at });
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  })();
  const until = async (pred: (s: McpStatus) => boolean, what: string, timeoutMs = AGENT_WAIT_MS): Promise<number> => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (last && pred(last)) return statuses.at(-1)!.at;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(last?.agent)}; seen ${JSON.stringify(statuses)}`);
  };
  return {
    statuses,
    attention,
    until,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

it('through serve + MCP: waiting · limit within 1 s, attention once, an idle timer held, continued at the reset by the setting, active again', async () => {
  const headers: Record<string, string> = {
    'anthropic-ratelimit-unified-status': 'rejected',
    'anthropic-ratelimit-unified-representative-claim': 'five_hour',
  };
  const limited = { httpError: 429, message: 'rate limited', headers };
  // The turn meets the limit (the request and its one retry); the next request, after the reset, is answered.
  const mock = await startMockAnthropic({ turns: [[limited, limited, { text: 'Back at work after the reset.' }]] });
  cleanups.push(() => mock.close());
  const harness = await createClaudeHarness({ baseUrl: mock.url, env: { CLAUDE_CODE_MAX_RETRIES: '1' } });
  cleanups.push(() => harness.cleanup());
  const serve = await startServe({ extraArgs: ['--trust'], beforeStart: (projectDir) => writeConfig(projectDir, harness) });
  // SIGTERM: serve stops its agent before it exits (a SIGKILL would leave Claude Code writing in the harness's folder).
  cleanups.push(async () => {
    serve.child.kill('SIGTERM');
    await exitOf(serve.child);
    serve.kill();
  });
  const mcp = await connectClient(serve.printed.url, serve.printed.token, 'blocked-serve-e2e');
  cleanups.push(() => mcp.close());

  const { processes } = await callOk<{ processes: Array<{ id: string; name: string }> }>(mcp, 'list_processes', { kind: 'agent' });
  const agentId = processes.find((p) => p.name === 'limited')!.id;
  const recorder = recordStatus(mcp, agentId);
  cleanups.push(() => recorder.stop());
  await recorder.until((s) => s.agent?.primary === 'idle', 'idle at start');
  const first = await callOk<McpStatus>(mcp, 'get_process_status', { process_id: agentId });
  expect(first.continueAtReset).toEqual({ enabled: true, source: 'agent' });
  // A timer waiting for this agent's next idle must not fire while it is blocked.
  const idleTimer = await callOk<McpTimer>(mcp, 'timer_fire_when_idle_any', {
    watched: [agentId],
    body: 'idle timer body',
    owner_process_id: agentId,
  });
  const resetsAt = Math.ceil((Date.now() + MIN_RESET_AHEAD_MS) / 60_000) * 60_000;
  headers['anthropic-ratelimit-unified-reset'] = String(resetsAt / 1000);
  await callOk(mcp, 'send_input', { process_id: agentId, kind: 'text', text: 'Say hello', submit: true });

  const lastRejection = await mock.waitFor('http_error', (e) => e.requestId === 'req_2', { timeoutMs: AGENT_WAIT_MS });
  const blockedAt = await recorder.until((s) => s.agent?.primary === 'waiting' && s.agent.detail === 'limit', 'waiting · limit');
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
  expect(continued.at).toBeGreaterThanOrEqual(resetsAt);
  const beforeGoingOn = (await callOk<{ timers: McpTimer[] }>(mcp, 'timer_list')).timers;
  expect(beforeGoingOn.find((t) => t.timer_id === idleTimer.timer_id)).toMatchObject({ state: 'pending' });
  expect(mock.events.some((e) => e.type === 'request' && e.userText === 'idle timer body')).toBe(false);
  await callOk(mcp, 'timer_cancel', { timer_id: idleTimer.timer_id });

  await mock.waitFor('stream_end', (e) => e.requestId === continued.requestId, { timeoutMs: AGENT_WAIT_MS });
  await recorder.until((s) => s.agent?.primary === 'idle', 'idle after the answer');
  await recorder.stop();
  const { statuses, attention } = recorder;
  const sinceBlock = statuses.filter((s) => s.at >= blockedAt);
  expect(sinceBlock[0].label).toBe('waiting · limit');
  expect(sinceBlock.filter((s) => s.at < resetsAt && !s.label.startsWith('waiting'))).toEqual([]);
  expect(
    statuses.some((s) => s.at >= resetsAt && s.label.startsWith('active') && s.label !== 'active · retrying'),
    JSON.stringify(statuses),
  ).toBe(true);
  expect(statuses.at(-1)?.label).toMatch(/^idle/);
  expect(attention.map((a) => a.reason)).toEqual([expect.stringMatching(/^claude: usage limit, resets \d\d:\d\d$/)]);
  expect(attention[0].at).toBeGreaterThan(lastRejection.at);
  expect(attention[0].at - lastRejection.at).toBeLessThanOrEqual(BLOCKED_WITHIN_MS);
}, 240_000);

function writeConfig(projectDir: string, harness: { argv: string[]; env: Record<string, string>; cwd: string }): void {
  const agent = {
    preset: 'claude',
    command: CLAUDE_BIN,
    args: harness.argv.slice(1),
    cwd: harness.cwd,
    env: harness.env,
    autoStart: true,
    continueAtReset: true,
  };
  writeFileSync(join(projectDir, 'switchboard.json'), JSON.stringify({ agents: { limited: agent } }));
}
