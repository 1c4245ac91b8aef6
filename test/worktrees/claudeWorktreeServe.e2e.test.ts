/**
 * Worktrees through the real `serve` process (a child, as a user runs it) and its MCP endpoint, on
 * a real git repository the test makes, with the REAL Claude Code against the mock Messages API:
 * two worktrees on new branches; Claude's scripted Write call makes a file in one; `worktree_diff`
 * shows exactly that change; the review's "Ask the agent" (the UI's control call) gets its commit
 * message back through Claude's `propose_commit_message` call; the UI's commit and `merge_worktree`
 * land it on main; removing the other, dirty worktree is refused without `force` and its file
 * survives. serve stops (SIGTERM) and starts again on the same data dir: both worktrees are listed,
 * the agent is back in its worktree and cwd, resumable, and Resume continues its conversation there.
 * Then a forced removal saves the dirty work to a branch. Every wait is on an event (the mock's
 * timeline, serve's answer, the transcript Claude writes); nothing sleeps.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { isSecretEnvName } from '../../src/shared/secretEnv';
import { makeTestRepo } from '../../src/main/core/worktrees/testing/gitRepo';
import { DEFAULT_ALLOWED_TOOLS, createClaudeHarness, trustClaudeFolder } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic } from '../fixtures/anthropic/mockAnthropic';
import { callError, callOk } from '../mcp/mcpHarness';
import { startServe, type ServeChild } from '../continuity/serveChild';
import { cmdline } from '../continuity/restartHarness';
import { uiCall } from '../serve/uiSession';
import { waitForFileText } from '../support/wait';

const AGENT_WAIT_MS = 90_000;
const TOOL_RULES = ['Write', 'mcp__switchboard__propose_commit_message'];
const MESSAGE = 'Add feature.txt written by Claude';

interface Worktree {
  id: string;
  path: string;
  branch: string;
}
interface Proc {
  id: string;
  name: string;
  state: string;
  pid?: number;
  worktree?: string;
  cwd?: string;
  session?: { id?: string; resumable: boolean };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await Promise.resolve(cleanups.pop()!()).catch(() => undefined);
});

it('through serve + MCP: a real Claude Code works in one of two worktrees, its change is diffed and merged, dirty removal is refused then forced, and after a serve restart both worktrees and the agent are back', async () => {
  const repo = makeTestRepo({ 'README.md': 'hello\n' });
  cleanups.push(() => repo.cleanup());
  const dataDir = join(repo.home, 'data');
  const staticDir = join(repo.home, 'static');
  mkdirSync(staticDir);
  const mock = await startMockAnthropic({ turns: [] });
  cleanups.push(() => mock.close());
  const harness = await createClaudeHarness({ baseUrl: mock.url, allow: [...DEFAULT_ALLOWED_TOOLS, ...TOOL_RULES] });
  cleanups.push(() => harness.cleanup());
  // The API key comes from serve's environment, as from a user's shell: secrets given to one spawn
  // are not kept on disk, so they would not survive the restart.
  const secretEnv = Object.fromEntries(Object.entries(harness.env).filter(([name]) => isSecretEnvName(name)));
  const agentEnv = Object.fromEntries(Object.entries(harness.env).filter(([name]) => !isSecretEnvName(name)));
  const serve = async (): Promise<ServeChild> => {
    const started = await startServe(repo.root, dataDir, staticDir, { env: secretEnv });
    // SIGTERM: serve stops Claude Code before the harness's folders are removed.
    cleanups.push(() => started.stop('SIGTERM'));
    return started;
  };

  const first = await serve();
  const mcp = first.client;
  const a = await callOk<Worktree>(mcp, 'create_worktree', { name: 'a' });
  const b = await callOk<Worktree>(mcp, 'create_worktree', { name: 'b' });
  expect([a.branch, b.branch]).toEqual(['switchboard/a', 'switchboard/b']);
  trustClaudeFolder(harness, a.path);
  const spawned = await callOk<Proc>(mcp, 'spawn_agent', {
    agent: 'claude',
    name: 'claude-a',
    argv: harness.argv,
    env: agentEnv,
    worktree: 'a',
  });
  const agent = await callOk<Proc>(mcp, 'get_process_status', { process_id: spawned.id });
  expect(agent).toMatchObject({ worktree: 'a', cwd: a.path });
  const context = () => JSON.stringify(mock.events.slice(-5));

  const beforeWrite = mock.mark();
  mock.enqueue(
    [{ toolUse: { name: 'Write', input: { file_path: join(a.path, 'feature.txt'), content: 'written by claude\n' } } }],
    [{ text: 'Wrote feature.txt.' }],
  );
  await callOk(mcp, 'send_message', { target_process_id: agent.id, message: 'Write feature.txt.' });
  const wrote = await mock.waitFor('tool_result', undefined, { after: beforeWrite, timeoutMs: AGENT_WAIT_MS, context });
  expect(wrote.isError, wrote.content).toBe(false);
  await mock.waitFor('stream_end', (e) => e.stopReason === 'end_turn', { after: beforeWrite, timeoutMs: AGENT_WAIT_MS, context });

  const diff = await callOk<{ files: Array<{ path: string; added: number; removed: number; isUncommitted: boolean; patch: string }> }>(
    mcp,
    'worktree_diff',
    { worktree: 'a' },
  );
  expect(diff.files.map(({ path, added, removed, isUncommitted }) => ({ path, added, removed, isUncommitted }))).toEqual([
    { path: 'feature.txt', added: 1, removed: 0, isUncommitted: true },
  ]);
  expect(diff.files[0].patch).toContain('+written by claude');
  expect((await callOk<{ files: unknown[] }>(mcp, 'worktree_diff', { worktree: 'b' })).files).toEqual([]);

  // Only the agent asked may answer: nobody asked yet, and the app token is not an agent.
  expect((await callError(mcp, 'propose_commit_message', { message: 'not asked' })).text).toMatch(/Nobody asked you/);
  const beforeAsk = mock.mark();
  mock.enqueue([{ toolUse: { name: 'mcp__switchboard__propose_commit_message', input: { message: MESSAGE } } }], [{ text: 'Proposed.' }]);
  const asked = await uiCall<{ message: string; agent: string }>(first.ui, 'askCommitMessage', { worktree: 'a' });
  expect(asked).toEqual({ message: MESSAGE, agent: agent.id });
  const answered = await mock.waitFor('tool_result', undefined, { after: beforeAsk, timeoutMs: AGENT_WAIT_MS, context });
  expect(JSON.parse(answered.content)).toEqual({ delivered: true });
  await mock.waitFor('stream_end', (e) => e.stopReason === 'end_turn', { after: beforeAsk, timeoutMs: AGENT_WAIT_MS, context });

  await uiCall(first.ui, 'commitWorktree', { worktree: 'a', message: asked.message });
  const merged = await callOk<{ base: string }>(mcp, 'merge_worktree', { worktree: 'a', strategy: 'ff' });
  expect(merged.base).toBe('main');
  expect(repo.git('show', 'main:feature.txt')).toBe('written by claude\n');
  expect(repo.git('log', '-1', '--format=%s', 'main').trim()).toBe(MESSAGE);
  expect(repo.git('diff', '--name-only', 'HEAD~1', 'main').trim()).toBe('feature.txt');

  writeFileSync(join(b.path, 'draft.txt'), 'unsaved draft\n');
  expect((await callError(mcp, 'remove_worktree', { worktree: 'b' })).text).toMatch(/uncommitted file\(s\) \(draft\.txt\)/);
  expect(readFileSync(join(b.path, 'draft.txt'), 'utf8')).toBe('unsaved draft\n');

  // What a person would see before quitting: the last answer is in Claude Code's own transcript.
  const sessionId = (await callOk<Proc>(mcp, 'get_process_status', { process_id: agent.id })).session!.id!;
  await waitForFileText(harness.transcriptPath(sessionId, a.path), 'Proposed.', AGENT_WAIT_MS);
  expect(await first.stop('SIGTERM')).toBe(0);

  const second = await serve();
  const worktrees = await callOk<{ worktrees: Array<{ id: string; branch: string; changedFiles: number }> }>(
    second.client,
    'list_worktrees',
  );
  expect(worktrees.worktrees.map(({ id, branch, changedFiles }) => ({ id, branch, changedFiles }))).toEqual([
    { id: 'main', branch: 'main', changedFiles: 0 },
    { id: 'a', branch: 'switchboard/a', changedFiles: 0 },
    { id: 'b', branch: 'switchboard/b', changedFiles: 1 },
  ]);
  const { processes } = await callOk<{ processes: Proc[] }>(second.client, 'list_processes', { kind: 'agent' });
  expect(processes.map(({ id, name, worktree }) => ({ id, name, worktree }))).toEqual([{ id: agent.id, name: 'claude-a', worktree: 'a' }]);
  const restored = await callOk<Proc>(second.client, 'get_process_status', { process_id: agent.id });
  expect(restored).toMatchObject({ state: 'stopped', cwd: a.path, session: { id: sessionId, resumable: true } });

  const resumed = await callOk<Proc>(second.client, 'resume_process', { process_id: agent.id });
  const beforeResume = mock.mark();
  mock.enqueue([{ text: 'I wrote feature.txt.' }]);
  await callOk(second.client, 'send_message', { target_process_id: agent.id, message: 'What did you write?' });
  const request = await mock.waitFor('request', (e) => e.kind === 'main' && (e.userText ?? '').includes('What did you write?'), {
    after: beforeResume,
    timeoutMs: AGENT_WAIT_MS,
    context,
  });
  const history = JSON.stringify(mock.requests.find((r) => r.requestId === request.requestId)!.body.messages);
  for (const earlier of ['Write feature.txt.', 'Wrote feature.txt.', 'Proposed.']) expect(history).toContain(earlier);
  // Read once the CLI asked the model: right after the spawn the child may not have exec'd yet.
  expect(cmdline(resumed.pid!)).toEqual(expect.arrayContaining(['--resume', sessionId]));
  await mock.waitFor('stream_end', (e) => e.requestId === request.requestId, { timeoutMs: AGENT_WAIT_MS, context });

  const forced = await callOk<{ savedTo: string }>(second.client, 'remove_worktree', { worktree: 'b', force: true });
  expect(repo.git('show', `${forced.savedTo}:draft.txt`)).toBe('unsaved draft\n');
  const left = await callOk<{ worktrees: Array<{ id: string }> }>(second.client, 'list_worktrees');
  expect(left.worktrees.map((w) => w.id)).toEqual(['main', 'a']);
}, 300_000);
