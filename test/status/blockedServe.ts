/**
 * Set-up shared by the blocked-agent tests through `serve` + MCP: the real `serve` child on a
 * project whose switchboard.json holds one agent (its CLI's harness as the command), an MCP client
 * with serve's app token, and a recorder that polls get_process_status as a client would and keeps
 * the history of what it showed (statuses and attention requests), so a test checks the order of
 * states afterwards instead of catching transient ones live.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import type { Settings } from '../../src/shared/config';
import type { ContinueAtResetInfo } from '../../src/shared/model';
import type { AgentStatusInfo } from '../../src/shared/status';
import { callOk, connectClient } from '../mcp/mcpHarness';
import { exitOf, startServe } from '../serve/serveProcess';

/** The issue's goal: the blocked state within 1 s of the API's last answer (as seen by a poll every POLL_MS). */
export const BLOCKED_WITHIN_MS = 1_000;
const POLL_MS = 50;
export const AGENT_WAIT_MS = 90_000;

/** A timer as MCP shows it. */
export interface McpTimer {
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

export interface McpStatus {
  id: string;
  agent?: AgentStatusInfo;
  attention?: { reason: string; at: number; requestedBy: string };
  continueAtReset?: ContinueAtResetInfo;
}

interface Seen {
  label: string;
  at: number;
}

interface BlockedServeOptions {
  /** The agent's name in switchboard.json. */
  name: string;
  preset: string;
  bin: string;
  launch: { argv: string[]; env: Record<string, string>; cwd: string };
  settings?: Settings;
}

/**
 * `serve --trust` with the agent (autoStart, `continueAtReset: true`) and a connected MCP client;
 * returns the client and the agent's id. SIGTERM on cleanup: serve stops its agent before it exits
 * (a SIGKILL would leave the CLI writing in the harness's folder).
 */
export async function serveWithAgent(cleanups: Array<() => unknown>, o: BlockedServeOptions): Promise<{ mcp: Client; agentId: string }> {
  const agent = {
    preset: o.preset,
    command: o.bin,
    args: o.launch.argv.slice(1),
    cwd: o.launch.cwd,
    env: o.launch.env,
    autoStart: true,
    continueAtReset: true,
  };
  const config = { agents: { [o.name]: agent }, ...(o.settings && { settings: o.settings }) };
  const serve = await startServe({
    extraArgs: ['--trust'],
    beforeStart: (projectDir) => writeFileSync(join(projectDir, 'switchboard.json'), JSON.stringify(config)),
  });
  cleanups.push(async () => {
    serve.child.kill('SIGTERM');
    await exitOf(serve.child);
    serve.kill();
  });
  const mcp = await connectClient(serve.printed.url, serve.printed.token, `blocked-serve-${o.preset}`);
  cleanups.push(() => mcp.close());
  const { processes } = await callOk<{ processes: Array<{ id: string; name: string }> }>(mcp, 'list_processes', { kind: 'agent' });
  return { mcp, agentId: processes.find((p) => p.name === o.name)!.id };
}

/** Polls get_process_status, recording each status and each attention request it shows, until stopped. */
export function recordStatus(mcp: Client, id: string) {
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

/** A timer that fires on the agent's next idle, with `body` as its message. */
export function idleTimerOn(mcp: Client, agentId: string): Promise<McpTimer> {
  return callOk<McpTimer>(mcp, 'timer_fire_when_idle_any', { watched: [agentId], body: IDLE_TIMER_BODY, owner_process_id: agentId });
}

export const IDLE_TIMER_BODY = 'idle timer body';

export const isBlockedOn = (detail: string) => (s: McpStatus) => s.agent?.primary === 'waiting' && s.agent.detail === detail;

type Recorder = ReturnType<typeof recordStatus>;

/**
 * Once the continue's answer has streamed: the agent idle, and the history since the block —
 * waiting · limit until the continue was due, then active (not retrying), idle last. Returns the
 * attention requests seen.
 */
export async function expectActiveAgain(recorder: Recorder, o: { answered: Promise<unknown>; blockedAt: number; continueDueAt: number }) {
  await o.answered;
  await recorder.until((s) => s.agent?.primary === 'idle', 'idle after the answer');
  await recorder.stop();
  const { statuses, attention } = recorder;
  const sinceBlock = statuses.filter((s) => s.at >= o.blockedAt);
  expect(sinceBlock[0].label).toBe('waiting · limit');
  expect(sinceBlock.filter((s) => s.at < o.continueDueAt && !s.label.startsWith('waiting'))).toEqual([]);
  expect(
    statuses.some((s) => s.at >= o.continueDueAt && s.label.startsWith('active') && s.label !== 'active · retrying'),
    JSON.stringify(statuses),
  ).toBe(true);
  expect(statuses.at(-1)?.label).toMatch(/^idle/);
  return attention;
}
