/**
 * The MCP task tools through the real endpoint (createCore, Streamable HTTP, SDK client), running
 * the real Claude Code from PATH as an MCP caller would: start_task takes no command or env, so
 * this worker's environment points `claude` at the mock (each test file runs in its own process).
 */
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_BIN, createClaudeHarness, type ClaudeHarness } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/anthropic/mockAnthropic';
import { callError, callOk, connectClient, startSwitchboard, type Switchboard } from '../mcp/mcpHarness';
import { survivorsOf } from './taskHarness';

interface TaskResultJson {
  task_id: string;
  phase: string;
  message: string;
  is_ended: boolean;
  turns: number;
  cost_usd?: number;
  result?: { subtype: string; text?: string };
  decisions: Array<{ kind: string; rule?: string }>;
  current_tools?: Array<{ name: string }>;
}

let mock: MockAnthropic;
let harness: ClaudeHarness;
let sb: Switchboard;
let client: Client;
const savedEnv = { ...process.env };

beforeAll(async () => {
  mock = await startMockAnthropic();
  harness = await createClaudeHarness({ baseUrl: mock.url, allow: ['Bash'] });
  // What a user's shell would give the app: claude on PATH, configured for the (mock) API.
  for (const [key, value] of Object.entries(harness.env)) if (key !== 'PATH') process.env[key] = value;
  process.env.PATH = `${path.dirname(CLAUDE_BIN)}:${process.env.PATH ?? ''}`;
  sb = await startSwitchboard();
  client = await connectClient(sb.url, sb.token);
});

afterAll(async () => {
  await client?.close();
  await sb?.close();
  await mock?.close();
  await harness?.cleanup();
  process.env = savedEnv;
});

describe('MCP task tools', () => {
  it('start_task, then wait_for_task with progress: done with result, turns and cost; get_task agrees', async () => {
    mock.enqueue([{ toolUse: { name: 'Bash', input: { command: 'sleep 3', description: 'nap' } } }], [{ text: 'Finished after a nap.' }]);
    const started = await callOk<TaskResultJson>(client, 'start_task', {
      prompt: 'Take a nap, then report',
      working_dir: harness.cwd,
      max_turns: 5,
      timeouts: { idle_seconds: 2 },
    });
    expect(started).toMatchObject({ phase: 'starting', is_ended: false });

    const progress: string[] = [];
    const waited = (await client.callTool(
      { name: 'wait_for_task', arguments: { task_id: started.task_id, timeout_seconds: 60 } },
      undefined,
      {
        onprogress: (p) => progress.push(String(p.message)),
        timeout: 90_000,
      },
    )) as CallToolResult;
    expect(waited.isError, JSON.stringify(waited.content)).toBeFalsy();
    const result = waited.structuredContent as { is_ended: boolean; reason: string; task: TaskResultJson };
    expect(result).toMatchObject({
      is_ended: true,
      reason: 'ended',
      task: { phase: 'done', turns: 2, result: { subtype: 'success', text: 'Finished after a nap.' } },
    });
    expect(result.task.cost_usd).toBeGreaterThan(0);
    expect(result.task.decisions.find((d) => d.kind === 'extended')).toMatchObject({ rule: 'bash-own-timeout' });
    expect(progress.some((m) => m.startsWith('tool_executing: Running Bash (sleep 3)'))).toBe(true);
    expect(progress.some((m) => m.includes('Silent for'))).toBe(true); // the stall warning, as it happened

    const got = await callOk<TaskResultJson>(client, 'get_task', { task_id: started.task_id });
    expect(got).toMatchObject({ phase: 'done', is_ended: true, message: expect.stringMatching(/^Finished in 2 turns/) });
    const listed = await callOk<{ processes: Array<{ id: string; kind: string }> }>(client, 'list_processes', { kind: 'task' });
    expect(listed.processes.map((p) => p.id)).toContain(started.task_id);
  });

  it('cancel_task mid-tool ends the tree; wait_for_task with no time left reports the state', async () => {
    const mark = mock.mark();
    mock.enqueue([{ toolUse: { name: 'Bash', input: { command: 'sleep 120', description: 'long' } } }]);
    const started = await callOk<TaskResultJson>(client, 'start_task', { prompt: 'Sleep long', working_dir: harness.cwd });
    await mock.waitFor('tool_use', undefined, { after: mark });
    const early = await callOk<{ is_ended: boolean; reason: string }>(client, 'wait_for_task', {
      task_id: started.task_id,
      timeout_seconds: 0,
    });
    expect(early).toMatchObject({ is_ended: false, reason: 'timeout' });

    const cancelled = await callOk<TaskResultJson>(client, 'cancel_task', { task_id: started.task_id });
    expect(cancelled).toMatchObject({ phase: 'cancelled', is_ended: true });
    expect(survivorsOf(started.task_id)).toEqual([]);
    const again = await callOk<TaskResultJson>(client, 'cancel_task', { task_id: started.task_id });
    expect(again.phase).toBe('cancelled');
  });

  it('task tools refuse entries that are not tasks, and unknown ids', async () => {
    const shell = await callOk<{ id: string }>(client, 'spawn_process', { kind: 'command', argv: ['sleep', '30'] });
    const wrong = await callError(client, 'get_task', { task_id: shell.id });
    expect(wrong.text).toMatch(/is a command entry, not a task/);
    expect((await callError(client, 'cancel_task', { task_id: 'p_000000' })).text).toMatch(/Unknown process id "p_000000"/);
    expect((await callError(client, 'start_task', { prompt: 'x', timeouts: { idle: 3 } })).text).toMatch(/idle/);
    await callOk(client, 'close_process', { process_id: shell.id });
  });
});
