/**
 * Every MCP tool declares the right it needs: the whole tool list walked with a narrow token (an
 * agent's default token) aimed at entries it did not spawn — an agent whose output, title and timer
 * carry a marker, and a finished task (the REAL Claude Code, headless, against the mock Messages
 * API) whose prompt and result carry it. Each tool is either refused naming what it needs, or
 * answers without any of that content. A tool missing from the expectations fails here, so a new
 * tool has to say what it needs. Then the parts that withhold: get_process_status and resuming a
 * task's session.
 */
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_TOOLS } from '../../src/main/core/mcp';
import type { ProcessInfo } from '../../src/shared/model';
import { CLAUDE_BIN, createClaudeHarness, type ClaudeHarness } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/anthropic/mockAnthropic';
import { callError, callOk, connectClient, startSwitchboard, type Switchboard } from '../mcp/mcpHarness';
import { waitForOutput } from '../support/wait';

/** Content of entries the caller did not spawn: it must never reach a narrow token. */
const MARKER = 'PRIVATE-8d1c';
const TASK_WAIT = { timeout_seconds: 60 };

let mock: MockAnthropic;
let harness: ClaudeHarness;
let sb: Switchboard;
let app: Client;
let narrow: Client;
let narrowId: string;
let victim: ProcessInfo;
let victimTimer: string;
let taskId: string;
let sessionId: string;
const savedEnv = { ...process.env };

async function finishedTask(client: Client, args: Record<string, unknown>): Promise<{ task_id: string; session_id?: string }> {
  const started = await callOk<{ task_id: string }>(client, 'start_task', { working_dir: harness.cwd, ...args });
  const waited = await callOk<{ task: { phase: string; session_id?: string } }>(client, 'wait_for_task', {
    task_id: started.task_id,
    ...TASK_WAIT,
  });
  expect(waited.task.phase).toBe('done');
  return { task_id: started.task_id, session_id: waited.task.session_id };
}

beforeAll(async () => {
  mock = await startMockAnthropic();
  harness = await createClaudeHarness({ baseUrl: mock.url });
  // start_task takes no command or env: `claude` on PATH, pointed at the mock, as a user's shell would give the app.
  for (const [key, value] of Object.entries(harness.env)) if (key !== 'PATH') process.env[key] = value;
  process.env.PATH = `${path.dirname(CLAUDE_BIN)}:${process.env.PATH ?? ''}`;
  sb = await startSwitchboard();
  app = await connectClient(sb.url, sb.token, 'app');

  victim = await sb.handle.core.spawnAgent({
    preset: 'generic',
    name: 'victim',
    argv: ['bash', '-c', `printf '\\033]0;${MARKER}-title\\007'; echo ${MARKER}-output; exec cat`],
  });
  await waitForOutput(sb.handle.core.entry(victim.id), new RegExp(`${MARKER}-output`));
  victimTimer = (
    await callOk<{ timer_id: string }>(app, 'timer_set', { seconds: 3600, body: `${MARKER}-timer`, owner_process_id: victim.id })
  ).timer_id;
  mock.enqueue([{ text: `${MARKER}-result` }]);
  const task = await finishedTask(app, { prompt: `${MARKER}-prompt`, name: 'app-task' });
  taskId = task.task_id;
  sessionId = task.session_id!;
  expect(sessionId).toMatch(/^[\w-]{8,}$/);

  const caller = await sb.handle.core.spawnAgent({ preset: 'generic', name: 'narrow', argv: ['cat'] });
  narrowId = caller.id;
  narrow = await connectClient(sb.url, sb.handle.mcp.service.identity.tokenFor(caller.id), 'narrow');
}, 120_000);

afterAll(async () => {
  await narrow?.close();
  await app?.close();
  await sb?.close();
  await mock?.close();
  await harness?.cleanup();
  process.env = savedEnv;
});

type Outcome = 'refused' | 'allowed';

/**
 * Each tool with arguments aimed at what the narrow caller does not own, and whether its default
 * token is refused. "allowed" means not refused for want of a right: the call may still fail for
 * another reason (not a git repository, a timer of another that is "not found").
 */
const WALK: Readonly<Record<string, { args: () => Record<string, unknown>; outcome: Outcome }>> = {
  whoami: { args: () => ({}), outcome: 'allowed' },
  help: { args: () => ({}), outcome: 'allowed' },
  get_project_status: { args: () => ({}), outcome: 'allowed' },
  trust_project: { args: () => ({}), outcome: 'refused' },
  list_processes: { args: () => ({}), outcome: 'allowed' },
  get_process_status: { args: () => ({ process_id: victim.id }), outcome: 'allowed' },
  spawn_process: { args: () => ({ kind: 'command', argv: ['true'] }), outcome: 'allowed' },
  spawn_agent: { args: () => ({ agent: 'generic', argv: ['true'] }), outcome: 'allowed' },
  start_process: { args: () => ({ process_id: victim.id }), outcome: 'refused' },
  resume_process: { args: () => ({ process_id: victim.id }), outcome: 'refused' },
  stop_process: { args: () => ({ process_id: victim.id }), outcome: 'refused' },
  close_process: { args: () => ({ process_id: victim.id }), outcome: 'refused' },
  restart_process: { args: () => ({ process_id: victim.id }), outcome: 'refused' },
  check_process_ready: { args: () => ({ process_id: victim.id }), outcome: 'allowed' },
  get_process_ports: { args: () => ({ process_id: victim.id }), outcome: 'allowed' },
  rename_process: { args: () => ({ process_id: victim.id, name: 'renamed' }), outcome: 'refused' },
  select_process: { args: () => ({ process_id: victim.id }), outcome: 'allowed' },
  get_process_output: { args: () => ({ process_id: victim.id }), outcome: 'refused' },
  get_process_raw_output: { args: () => ({ process_id: victim.id }), outcome: 'refused' },
  search_output: { args: () => ({ process_id: victim.id, pattern: MARKER }), outcome: 'refused' },
  wait_for_pattern: { args: () => ({ process_id: victim.id, pattern: MARKER, from: 'start' }), outcome: 'refused' },
  send_input: { args: () => ({ process_id: victim.id, kind: 'text', text: 'x' }), outcome: 'refused' },
  send_message: { args: () => ({ target_process_id: victim.id, message: 'x' }), outcome: 'refused' },
  request_human_attention: { args: () => ({ process_id: victim.id, reason: 'please look' }), outcome: 'allowed' },
  list_waiting: { args: () => ({}), outcome: 'refused' },
  answer_prompt: { args: () => ({ process_id: victim.id, fingerprint: 'f', choice: 'approve' }), outcome: 'refused' },
  resolve_blocked: { args: () => ({ process_id: victim.id, action: 'retry_now' }), outcome: 'refused' },
  set_continue_at_reset: { args: () => ({ process_id: victim.id, enabled: true }), outcome: 'refused' },
  scratchpad_list: { args: () => ({}), outcome: 'allowed' },
  scratchpad_read: { args: () => ({ name: 'notes' }), outcome: 'allowed' },
  scratchpad_write: { args: () => ({ name: 'notes', content: 'shared' }), outcome: 'allowed' },
  scratchpad_append: { args: () => ({ name: 'notes', content: ' notes' }), outcome: 'allowed' },
  scratchpad_delete: { args: () => ({ name: 'notes' }), outcome: 'allowed' },
  timer_set: { args: () => ({ seconds: 60, body: 'x', owner_process_id: victim.id }), outcome: 'refused' },
  timer_fire_when_idle_any: { args: () => ({ watched: [victim.id], body: 'x', owner_process_id: victim.id }), outcome: 'refused' },
  timer_fire_when_idle_all: { args: () => ({ watched: [victim.id], body: 'x', owner_process_id: victim.id }), outcome: 'refused' },
  timer_cancel: { args: () => ({ timer_id: victimTimer }), outcome: 'allowed' },
  timer_pause: { args: () => ({ timer_id: victimTimer }), outcome: 'allowed' },
  timer_resume: { args: () => ({ timer_id: victimTimer }), outcome: 'allowed' },
  timer_list: { args: () => ({}), outcome: 'allowed' },
  timer_wait: { args: () => ({ seconds: 600 }), outcome: 'allowed' },
  start_task: { args: () => ({ prompt: 'x', resume_session_id: sessionId }), outcome: 'refused' },
  get_task: { args: () => ({ task_id: taskId }), outcome: 'refused' },
  cancel_task: { args: () => ({ task_id: taskId }), outcome: 'refused' },
  wait_for_task: { args: () => ({ task_id: taskId, timeout_seconds: 0 }), outcome: 'refused' },
  create_worktree: { args: () => ({ name: 'narrow-wt' }), outcome: 'allowed' },
  list_worktrees: { args: () => ({}), outcome: 'allowed' },
  worktree_diff: { args: () => ({ worktree: 'main' }), outcome: 'allowed' },
  merge_worktree: { args: () => ({ worktree: 'someone-elses' }), outcome: 'refused' },
  remove_worktree: { args: () => ({ worktree: 'someone-elses' }), outcome: 'refused' },
  propose_commit_message: { args: () => ({ message: 'Add notes' }), outcome: 'allowed' },
  get_usage: { args: () => ({ process_id: victim.id }), outcome: 'refused' },
};

function outcomeOf(result: CallToolResult): Outcome {
  const error = (result.structuredContent as { error?: { code?: string } } | undefined)?.error;
  return result.isError && error?.code === 'forbidden' ? 'refused' : 'allowed';
}

describe('the tool-rights walk', () => {
  it('the app token sees the content the walk looks for (the leak check can fail)', async () => {
    const status = JSON.stringify(await callOk(app, 'get_process_status', { process_id: victim.id }));
    expect(status).toContain(`${MARKER}-title`);
    expect(status).toContain(`${MARKER}-timer`);
    const task = JSON.stringify(await callOk(app, 'get_process_status', { process_id: taskId }));
    expect(task).toContain(`${MARKER}-prompt`);
    expect(task).toContain(`${MARKER}-result`);
    expect(task).toContain(sessionId);
  });

  it('every tool: a narrow token is refused naming the right, or answers without another entry’s content', async () => {
    const unlisted = CORE_TOOLS.map((t) => t.name as string).filter((name) => !(name in WALK));
    expect(unlisted, 'a tool without an expectation here: declare its right (requires) and add it to WALK').toEqual([]);
    for (const tool of CORE_TOOLS) {
      const name = tool.name as string;
      const { args, outcome } = WALK[name];
      const result = (await narrow.callTool({ name, arguments: args() })) as CallToolResult;
      const text = JSON.stringify(result);
      expect(outcomeOf(result), `${name}: ${text.slice(0, 400)}`).toBe(outcome);
      expect('open' in tool.requires, `${name} is declared open, so no token may be refused it`).toBe(outcome === 'allowed');
      expect(text, `${name} leaked another entry's content`).not.toContain(MARKER);
      expect(text, `${name} leaked another entry's session id`).not.toContain(sessionId);
      if (outcome === 'refused' && !('appOnly' in tool.requires))
        expect((result.structuredContent as { error: { missing_scope?: string } }).error.missing_scope, name).toMatch(/^[a-z]+:[a-z-]+$/);
    }
    // Nothing the refusals were about changed.
    expect(sb.handle.core.describe(victim.id)).toMatchObject({ name: 'victim', state: 'running' });
    expect(sb.handle.core.timers.list({ kind: 'external' }).timers.map((t) => t.id)).toContain(victimTimer);
  });
});

describe('what a narrow token reads of another entry', () => {
  it("get_process_status keeps the status and withholds the content, saying so; its own entry's is whole", async () => {
    const status = await callOk<Record<string, unknown>>(narrow, 'get_process_status', { process_id: victim.id });
    expect(status).toMatchObject({
      id: victim.id,
      name: 'victim',
      kind: 'agent',
      state: 'running',
      agent: { primary: expect.any(String) },
    });
    expect(status.withheld).toMatchObject({ fields: expect.arrayContaining(['title', 'timer body previews', 'session id']) });
    expect((status.timers as Array<{ id: string; bodyPreview: string }>)[0]).toMatchObject({ id: victimTimer, bodyPreview: /withheld/ });

    const task = await callOk<{ task: Record<string, unknown>; withheld?: unknown }>(narrow, 'get_process_status', { process_id: taskId });
    expect(task.task).toMatchObject({ phase: 'done', isEnded: true, prompt: '', text: '' });
    expect(task.task.result).toBeUndefined();
    expect(task.task.sessionId).toBeUndefined();
    expect(task.withheld).toBeDefined();

    const own = await callOk<Record<string, unknown>>(narrow, 'get_process_status', { process_id: narrowId });
    expect(own.withheld).toBeUndefined();
    expect(own.argv).toEqual(['cat']);
  });

  it('start_task resumes only a session the caller may read: its own task’s yes, another’s or an unknown one no', async () => {
    mock.enqueue([{ text: 'My own first answer.' }]);
    const own = await finishedTask(narrow, { prompt: 'Answer once', name: 'own-task' });
    expect(own.session_id).toBeDefined();
    mock.enqueue([{ text: 'Resumed my own session.' }]);
    const resumed = await finishedTask(narrow, { prompt: 'Go on', name: 'own-resume', resume_session_id: own.session_id });
    expect(resumed.task_id).not.toBe(own.task_id);

    const others = await callError(narrow, 'start_task', { prompt: 'Read it', resume_session_id: sessionId });
    expect(others.structured).toMatchObject({ error: { code: 'forbidden', missing_scope: 'entries:read-all' } });
    expect(others.text).toMatch(/resuming the session of "app-task"/);
    const unknown = await callError(narrow, 'start_task', { prompt: 'Read it', resume_session_id: 'a-session-no-entry-has' });
    expect(unknown.structured).toMatchObject({ error: { code: 'forbidden', missing_scope: 'entries:read-all' } });
  }, 120_000);
});
