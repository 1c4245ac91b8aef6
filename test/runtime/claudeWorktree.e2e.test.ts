/**
 * The REAL Claude Code (against the mock Messages API) started in worktree `a` gets its own
 * worktree's server: its scripted turn calls `restart_process {process_id: "web"}` then
 * `check_process_ready {process_id: "web"}` through Switchboard's MCP endpoint, and both answer
 * for a's web (a's port, a's folder) while the main checkout's web stays stopped. The web
 * instance was started by a person (worktrees.start), so this also checks that an agent controls
 * its own worktree's app without extra scopes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreHandle } from '../../src/main/core/composition';
import { makeTestRepo, type TestRepo } from '../../src/main/core/worktrees/testing/gitRepo';
import { DEFAULT_ALLOWED_TOOLS, createClaudeHarness, trustClaudeFolder, type ClaudeHarness } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/anthropic/mockAnthropic';
import { startRepoCore } from '../support/repoCore';
import { screenTail } from '../support/wait';

const AGENT_WAIT_MS = 90_000;
const TEST_TIMEOUT_MS = 240_000;
const SERVER =
  "const [port, text] = process.argv.slice(1); require('http').createServer((q, s) => s.end(text)).listen(+port, '127.0.0.1');";
const TOOL_RULES = ['mcp__switchboard__restart_process', 'mcp__switchboard__check_process_ready'];

let repo: TestRepo;
let handle: CoreHandle | undefined;
let mock: MockAnthropic | undefined;
let harness: ClaudeHarness | undefined;

beforeEach(() => {
  repo = makeTestRepo({ 'README.md': 'hello\n', '.gitignore': 'switchboard.json\n' });
  const config = {
    processes: { web: { command: 'node', args: ['-e', SERVER, '${port}', 'web in ${worktree}'], autoStart: false } },
    worktrees: { start: ['web'] },
  };
  writeFileSync(join(repo.root, 'switchboard.json'), JSON.stringify(config));
});

afterEach(async () => {
  await handle?.dispose();
  await mock?.close();
  await harness?.cleanup();
  handle = mock = harness = undefined;
  repo.cleanup();
});

describe('a real Claude Code in a worktree', () => {
  it(
    'restart_process then check_process_ready on "web" answer for its own worktree’s web',
    async () => {
      handle = await startRepoCore(repo);
      const { core } = handle;
      const created = await core.worktrees.createWorktree({ name: 'a' });
      const webA = created.instances!.started[0];
      expect(webA).toMatchObject({ name: 'web', worktree: 'a' });
      const port = core.ports.assigned('a').web;

      mock = await startMockAnthropic({ turns: [] });
      harness = await createClaudeHarness({ baseUrl: mock.url, allow: [...DEFAULT_ALLOWED_TOOLS, ...TOOL_RULES] });
      trustClaudeFolder(harness, created.worktree.path);
      const agent = await core.spawnAgent({ preset: 'claude', name: 'claude-a', argv: harness.argv, env: harness.env, worktree: 'a' });
      expect(core.describe(agent.id)).toMatchObject({ worktree: 'a', cwd: created.worktree.path });

      const mark = mock.mark();
      mock.enqueue(
        [{ toolUse: { name: 'mcp__switchboard__restart_process', input: { process_id: 'web', ready_timeout: 30_000 } } }],
        [{ toolUse: { name: 'mcp__switchboard__check_process_ready', input: { process_id: 'web' } } }],
        [{ text: 'web is up.' }],
      );
      await core.sendUserTurn(agent.id, 'Restart web and check that it is ready.');
      const context = () => screenTail(core.entry(agent.id));
      const restarted = await mock.waitFor('tool_result', undefined, { after: mark, timeoutMs: AGENT_WAIT_MS, context });
      expect(restarted.isError, restarted.content).toBe(false);
      expect(JSON.parse(restarted.content)).toMatchObject({ success: true, state: 'ready', port, url: `http://localhost:${port}` });
      const afterRestart = mock.mark();
      const checked = await mock.waitFor('tool_result', undefined, { after: afterRestart, timeoutMs: AGENT_WAIT_MS, context });
      expect(checked.isError, checked.content).toBe(false);
      expect(JSON.parse(checked.content)).toMatchObject({ ready: true, state: 'ready', port });

      // It was a's web that restarted (a new run), and the main checkout's web never ran.
      expect(core.describe(webA.id).runId).toBe(2);
      const mainWeb = core.listProcesses().find((p) => p.configName === 'web' && !p.worktree)!;
      expect(mainWeb).toMatchObject({ state: 'stopped', runId: 0 });
    },
    TEST_TIMEOUT_MS,
  );
});
