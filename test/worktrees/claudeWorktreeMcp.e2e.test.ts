/**
 * The REAL Claude Code (against the mock Messages API) working in a worktree made over MCP: its
 * scripted Write tool call makes a file there, `worktree_diff` shows exactly that change, the
 * review's "Ask the agent" gets its commit message back through `propose_commit_message` (a
 * real MCP tool call from Claude), and `merge_worktree` lands the commit on main. Every wait is
 * on an event (the mock's timeline, the core's answer); nothing sleeps.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createCore, type CoreHandle } from '../../src/main/core/composition';
import { makeTestRepo, type TestRepo } from '../../src/main/core/worktrees/testing/gitRepo';
import { DEFAULT_ALLOWED_TOOLS, createClaudeHarness, trustClaudeFolder, type ClaudeHarness } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/anthropic/mockAnthropic';
import { callError, callOk, connectClient } from '../mcp/mcpHarness';
import { screenTail } from '../support/wait';

const AGENT_WAIT_MS = 90_000;
const TEST_TIMEOUT_MS = 240_000;
const TOOL_RULES = ['Write', 'mcp__switchboard__propose_commit_message'];
const MESSAGE = 'Add feature.txt written by Claude';

let repo: TestRepo;
let handle: CoreHandle | undefined;
let client: Client | undefined;
let mock: MockAnthropic | undefined;
let harness: ClaudeHarness | undefined;

beforeEach(() => {
  repo = makeTestRepo({ 'README.md': 'hello\n' });
});

afterEach(async () => {
  await client?.close();
  await handle?.dispose();
  await mock?.close();
  await harness?.cleanup();
  client = handle = mock = harness = undefined;
  repo.cleanup();
});

describe('a real Claude Code in a worktree made over MCP', () => {
  it(
    'writes a file there; the diff shows exactly it; its commit message comes back through MCP; merge_worktree lands it',
    async () => {
      handle = await createCore({
        projectDir: repo.root,
        dataDir: join(repo.home, 'data'),
        watchConfig: false,
        killGraceMs: 1_000,
        grantTrust: true,
      });
      const { core } = handle;
      client = await connectClient(handle.mcp.url, handle.mcp.token);
      const a = await callOk<{ id: string; path: string; branch: string }>(client, 'create_worktree', { name: 'a' });
      await callOk(client, 'create_worktree', { name: 'b' });

      mock = await startMockAnthropic({ turns: [] });
      harness = await createClaudeHarness({ baseUrl: mock.url, allow: [...DEFAULT_ALLOWED_TOOLS, ...TOOL_RULES] });
      trustClaudeFolder(harness, a.path);
      const agent = await core.spawnAgent({ preset: 'claude', name: 'claude-a', argv: harness.argv, env: harness.env, worktree: 'a' });
      expect(core.describe(agent.id)).toMatchObject({ worktree: 'a', cwd: a.path });
      const context = () => screenTail(core.entry(agent.id));

      const beforeWrite = mock.mark();
      mock.enqueue(
        [{ toolUse: { name: 'Write', input: { file_path: join(a.path, 'feature.txt'), content: 'written by claude\n' } } }],
        [{ text: 'Wrote feature.txt.' }],
      );
      await core.sendUserTurn(agent.id, 'Write feature.txt.');
      const wrote = await mock.waitFor('tool_result', undefined, { after: beforeWrite, timeoutMs: AGENT_WAIT_MS, context });
      expect(wrote.isError, wrote.content).toBe(false);
      await mock.waitFor('stream_end', (e) => e.stopReason === 'end_turn', { after: beforeWrite, timeoutMs: AGENT_WAIT_MS, context });

      const diff = await callOk<{ files: Array<{ path: string; added: number; removed: number; isUncommitted: boolean; patch: string }> }>(
        client,
        'worktree_diff',
        { worktree: 'a' },
      );
      expect(diff.files.map(({ path, added, removed, isUncommitted }) => ({ path, added, removed, isUncommitted }))).toEqual([
        { path: 'feature.txt', added: 1, removed: 0, isUncommitted: true },
      ]);
      expect(diff.files[0].patch).toContain('+written by claude');
      expect((await callOk<{ files: unknown[] }>(client, 'worktree_diff', { worktree: 'b' })).files).toEqual([]);

      // Only the agent asked may answer: nobody asked yet, and the app token is not an agent.
      expect((await callError(client, 'propose_commit_message', { message: 'not asked' })).text).toMatch(/Nobody asked you/);

      const beforeAsk = mock.mark();
      mock.enqueue(
        [{ toolUse: { name: 'mcp__switchboard__propose_commit_message', input: { message: MESSAGE } } }],
        [{ text: 'Proposed.' }],
      );
      const asked = await core.worktrees.askCommitMessage('a');
      expect(asked).toEqual({ message: MESSAGE, agent: agent.id });
      const request = await mock.waitFor('request', (e) => e.userText !== null, { after: beforeAsk, timeoutMs: AGENT_WAIT_MS, context });
      expect(request.userText).toContain('propose_commit_message');
      const answered = await mock.waitFor('tool_result', undefined, { after: beforeAsk, timeoutMs: AGENT_WAIT_MS, context });
      expect(answered.isError, answered.content).toBe(false);
      expect(JSON.parse(answered.content)).toEqual({ delivered: true });

      await core.worktrees.manager.commit('a', asked.message);
      const merged = await callOk<{ base: string; commit: string }>(client, 'merge_worktree', { worktree: 'a', strategy: 'ff' });
      expect(merged.base).toBe('main');
      expect(repo.git('show', 'main:feature.txt')).toBe('written by claude\n');
      expect(repo.git('log', '-1', '--format=%s', 'main').trim()).toBe(MESSAGE);
      expect(repo.git('diff', '--name-only', 'HEAD~1', 'main').trim()).toBe('feature.txt');
    },
    TEST_TIMEOUT_MS,
  );
});
