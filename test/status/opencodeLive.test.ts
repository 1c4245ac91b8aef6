/**
 * The REAL opencode TUI (1.18.33) driven by Switchboard, offline against the mock Chat Completions
 * API: once through the core (idle → active → idle → waiting/permission → idle after Escape → dead
 * after /exit, one CLI process), once through `serve` and its MCP endpoint (an external client
 * spawns the agent and sends it a message; the agent's model calls whoami through the preset's
 * `remote` MCP server and gets its own entry). Ground truth comes from the mock's timeline and our
 * keystrokes, never from the screen.
 */
import { describe, expect, it } from 'vitest';
import type { AgentStatusInfo } from '../../src/shared/status';
import { createOpencodeHarness } from '../fixtures/openaiChat/opencodeHarness';
import { cleanupsAfterEach, greetThenDeployTurns, is, mockAndHarness, spawnOnCore, spawnUnderServe } from './liveAgent';
import { waitForAgentStatus, whoamiThroughAgent, type PolledAgentStatus } from './serveAgent';

/** opencode needs 15-45 s to draw its first screen on a loaded 2-core machine, and its first turn loads every provider plugin. */
const WAIT_MS = 150_000;
const TEST_TIMEOUT_MS = 420_000;
/** opencode names MCP tools `<server>_<tool>`. */
const WHOAMI_TOOL = 'switchboard_whoami';
/** opencode connects its MCP servers while it starts; a call before that finds no tool: a few rounds at most. */
const MAX_WHOAMI_ROUNDS = 3;

const cleanup = cleanupsAfterEach();

/**
 * Idle read from opencode's own screen, not from the quiet fallback: its TUI draws blank cells for
 * 8-25 s after its first output, and a turn typed then is lost.
 */
const PROMPT_DRAWN = /^opencode\/(?:start-screen|idle-hint-row)$/;
const promptIdle = (s: AgentStatusInfo | PolledAgentStatus) => s.primary === 'idle' && PROMPT_DRAWN.test(s.reason ?? '');

describe('the real opencode through Switchboard', () => {
  it(
    'idle → active → idle → waiting/permission → idle after Escape → dead after /exit, one process',
    async () => {
      const { mock, harness } = await mockAndHarness(
        cleanup,
        greetThenDeployTurns('Hello from the opencode mock, streamed word by word.', 'bash'),
        (baseUrl) => createOpencodeHarness({ baseUrl, bash: { '*': 'ask' } }),
      );
      const { core, id, status, ctx } = await spawnOnCore(cleanup, {
        preset: 'opencode',
        label: 'opencode',
        launch: harness,
        waitMs: WAIT_MS,
      });

      await status(promptIdle, 'idle at its drawn prompt');

      await core.sendUserTurn(id, 'Say hello to Switchboard');
      const request = await mock.waitFor('request', (e) => e.kind === 'main', ctx);
      expect(request.userText).toContain('Say hello to Switchboard');
      expect((await status(is('active'), 'active')).reason).toMatch(/^opencode\//);
      await mock.waitFor('stream_end', (e) => e.kind === 'main', ctx);
      await status(is('idle', 'ready'), 'idle after the answer');

      const mark = mock.mark();
      await core.sendUserTurn(id, 'Trigger the deploy hook');
      await mock.waitFor('tool_call', undefined, { ...ctx, after: mark });
      const waiting = await status(is('waiting', 'permission'), 'waiting/permission');
      expect(waiting.reason).toBe('opencode/permission-required');

      core.entry(id).write('\x1b');
      await status(is('idle', 'ready'), 'idle after rejecting the tool');
      expect(mock.events.filter((e) => e.type === 'request' && e.kind === 'main' && e.seq >= mark)).toHaveLength(1);

      await core.sendUserTurn(id, '/exit');
      await status(is('dead'), 'dead after /exit');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'under serve: spawn_agent + send_message over MCP; the agent calls whoami and gets its own entry',
    async () => {
      // Turns are scripted per round by whoamiThroughOpencode.
      const { mock, harness } = await mockAndHarness(cleanup, undefined, (baseUrl) => createOpencodeHarness({ baseUrl }));
      const { client, id } = await spawnUnderServe(cleanup, {
        agent: 'opencode',
        name: 'opencode-under-test',
        launch: harness,
        waitMs: WAIT_MS,
      });
      await waitForAgentStatus(client, id, WAIT_MS, promptIdle);
      const result = await whoamiThroughAgent(client, mock, id, {
        tool: WHOAMI_TOOL,
        notThereYet: /unavailable|not found|invalid/i,
        rounds: MAX_WHOAMI_ROUNDS,
        timeoutMs: WAIT_MS,
        idle: promptIdle,
      });
      expect(result.content).toContain(id);
      expect(result.content).toContain('opencode-under-test');
      expect(result.content).toContain('agent');
    },
    TEST_TIMEOUT_MS,
  );
});
