/**
 * The REAL Qwen Code TUI (0.24.4) driven by Switchboard, offline against the mock Chat Completions
 * API: once through the core (idle → active → waiting → idle → dead, one CLI process for every
 * step), once through `serve` and its MCP endpoint (an external client spawns the agent and sends
 * it a message; the agent's model calls whoami through the preset's MCP wiring and gets its own
 * entry). Ground truth comes from the mock's timeline and our keystrokes, never from the screen.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCore } from '../../src/main/core/composition';
import type { AgentStatusInfo } from '../../src/shared/status';
import { startMockChatCompletions } from '../fixtures/openaiChat/mockChatCompletions';
import { createQwenHarness } from '../fixtures/openaiChat/qwenHarness';
import { callOk, connectClient, firstLine } from '../mcp/mcpHarness';
import { turnWithHooks } from './hookedTurn';
import { stopServe, waitForAgentStatus, whoamiThroughAgent } from './serveAgent';
import { statusWaiter } from './agentStatusWaiter';

/** Qwen Code needs 10-40 s to initialise on a loaded 2-core machine. */
const WAIT_MS = 120_000;
const TEST_TIMEOUT_MS = 300_000;
const ROOT = resolve(__dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const WHOAMI_TOOL = 'mcp__switchboard__whoami';
/** Qwen connects its MCP servers in the background after start-up: a few rounds at most. */
const MAX_WHOAMI_ROUNDS = 5;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const is = (primary: string, detail?: string) => (s: AgentStatusInfo) =>
  s.primary === primary && (detail === undefined || s.detail === detail);

describe('the real Qwen Code through Switchboard', () => {
  it(
    'idle → active → waiting/permission → idle after Escape → dead after /quit, one process',
    async () => {
      const mock = await startMockChatCompletions({
        turns: [
          [{ text: 'Hello from the Qwen mock, streamed word by word.', firstTokenDelayMs: 1_500, chunkDelayMs: 80 }],
          [
            {
              toolCall: {
                name: 'run_shell_command',
                arguments: { command: 'curl -X POST http://127.0.0.1:9/deploy', description: 'Post the deploy hook' },
              },
            },
          ],
        ],
      });
      cleanups.push(() => mock.close());
      const harness = await createQwenHarness({ baseUrl: mock.url });
      cleanups.push(() => harness.cleanup());
      const core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-qwen-')), watchConfig: false, killGraceMs: 1_000 });
      await core.init();
      cleanups.push(() => core.dispose());

      const info = await core.spawnAgent({ preset: 'qwen', name: 'qwen', argv: harness.argv, env: harness.env, cwd: harness.cwd });
      const tracker = core.statusTrackerOf(info.id);
      const status = statusWaiter(core, info.id, 'Qwen', WAIT_MS);

      await status(is('idle', 'ready'), 'idle');
      expect(tracker.status.reason).toMatch(/^qwen\//);
      const ctx = { timeoutMs: WAIT_MS, context: status.describe };

      await core.sendUserTurn(info.id, 'Say hello to Switchboard');
      const request = await mock.waitFor('request', (e) => e.kind === 'main', ctx);
      expect(request.userText).toContain('Say hello to Switchboard');
      expect((await status(is('active'), 'active')).health).toBe('ALIVE');
      await mock.waitFor('stream_end', (e) => e.kind === 'main', ctx);
      await status(is('idle', 'ready'), 'idle after the answer');

      const mark = mock.mark();
      await core.sendUserTurn(info.id, 'Trigger the deploy hook');
      await mock.waitFor('tool_call', undefined, { ...ctx, after: mark });
      const waiting = await status(is('waiting', 'permission'), 'waiting/permission');
      expect(waiting.reason).toMatch(/^qwen\//);

      core.entry(info.id).write('\x1b');
      await status(is('idle', 'ready'), 'idle after rejecting the tool');
      expect(mock.events.filter((e) => e.type === 'request' && e.kind === 'main' && e.seq >= mark)).toHaveLength(1);

      await core.sendUserTurn(info.id, '/quit');
      await status(is('dead'), 'dead after /quit');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "with the MCP endpoint: Qwen's own HTTP hooks (UserPromptSubmit, Stop) reach the tracker through the preset's wiring",
    async () => {
      const mock = await startMockChatCompletions({ turns: [[{ text: 'Hello from the Qwen mock.', firstTokenDelayMs: 500 }]] });
      cleanups.push(() => mock.close());
      const harness = await createQwenHarness({ baseUrl: mock.url });
      cleanups.push(() => harness.cleanup());
      const history = await turnWithHooks({ preset: 'qwen', mock, harness, ready: is('idle', 'ready'), timeoutMs: WAIT_MS, cleanups });
      expect(history.join(' → ')).toMatch(/\(hook:UserPromptSubmit.*\(hook:Stop\)/);
    },
    TEST_TIMEOUT_MS,
  );

  // Known gap, why the qwen preset is not verified yet: this passed once, then failed in most runs
  // (Qwen reports "MCP tool execution may have completed before the connection failed": its
  // streamable-HTTP connection to Switchboard drops). Run it with QWEN_SERVE_MCP=1 while fixing it.
  it.skipIf(process.env.QWEN_SERVE_MCP !== '1')(
    'under serve: spawn_agent + send_message over MCP; the agent calls whoami and gets its own entry',
    async () => {
      // Turns are scripted per round by whoamiThroughQwen.
      const mock = await startMockChatCompletions();
      cleanups.push(() => mock.close());
      const harness = await createQwenHarness({ baseUrl: mock.url });
      cleanups.push(() => harness.cleanup());
      const root = mkdtempSync(join(tmpdir(), 'sb-qwen-serve-'));
      cleanups.push(() => rmSync(root, { recursive: true, force: true }));
      const project = join(root, 'project');
      mkdirSync(project);
      const serve = spawn(
        TSX,
        [join(ROOT, 'src/main/serve.ts'), '--project', project, '--data-dir', join(root, 'data'), '--static-dir', root, '--trust'],
        {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      cleanups.push(() => stopServe(serve));
      const endpoint = JSON.parse(await firstLine(serve, WAIT_MS)) as { url: string; token: string };
      const client = await connectClient(endpoint.url, endpoint.token, 'qwen-live-test');
      cleanups.push(() => client.close());

      const spawned = await callOk<{ id: string }>(client, 'spawn_agent', {
        agent: 'qwen',
        name: 'qwen-under-test',
        argv: harness.argv,
        env: harness.env,
        working_dir: harness.cwd,
      });
      const id = spawned.id;
      await waitForAgentStatus(client, id, WAIT_MS);
      const result = await whoamiThroughAgent(client, mock, id, {
        tool: WHOAMI_TOOL,
        notThereYet: /not found/i,
        rounds: MAX_WHOAMI_ROUNDS,
        timeoutMs: WAIT_MS,
        idle: (agent) => agent.primary === 'idle',
      });
      expect(result.content).toContain(id);
      expect(result.content).toContain('qwen-under-test');
      expect(result.content).toContain('agent');
    },
    TEST_TIMEOUT_MS,
  );
});
