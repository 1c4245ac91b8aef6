/**
 * The REAL opencode TUI (1.18.33) driven by Switchboard, offline against the mock Chat Completions
 * API: once through the core (idle → active → idle → waiting/permission → idle after Escape → dead
 * after /exit, one CLI process), once through `serve` and its MCP endpoint (an external client
 * spawns the agent and sends it a message; the agent's model calls whoami through the preset's
 * `remote` MCP server and gets its own entry). Ground truth comes from the mock's timeline and our
 * keystrokes, never from the screen.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCore } from '../../src/main/core/composition';
import type { AgentStatusInfo } from '../../src/shared/status';
import { createOpencodeHarness } from '../fixtures/openaiChat/opencodeHarness';
import { askThenDenyDeploy, cleanupsAfterEach, greetThenDeployTurns, is, mockAndHarness, spawnOnCore, spawnUnderServe } from './liveAgent';
import { agentWithHooks, idleFromStop } from './hookedTurn';
import { usageOf } from '../../src/main/core/usage';
import type { MockChatCompletions } from '../fixtures/openaiChat/mockChatCompletions';
import { waitForAgentStatus, whoamiThroughAgent, type PolledAgentStatus } from './serveAgent';
import { statusWaiter } from './agentStatusWaiter';

/** opencode needs 15-45 s to draw its first screen on a loaded 2-core machine, and its first turn is a cold start of up to a minute there. */
const WAIT_MS = 150_000;
const TEST_TIMEOUT_MS = 420_000;
/** opencode names MCP tools `<server>_<tool>`. */
const WHOAMI_TOOL = 'switchboard_whoami';
/** opencode connects its MCP servers while it starts; a call before that finds no tool: a few rounds at most. */
const MAX_WHOAMI_ROUNDS = 3;

const cleanup = cleanupsAfterEach();

/** The mock model's prices in opencode.json, USD per million tokens: opencode prices each response itself. */
const MODEL_COST = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };

/** What the mock reported for the conversation's requests (its title request is no message of the session). */
function mockSums(events: MockChatCompletions['events']) {
  const answers = events.flatMap((e) => (e.type === 'stream_end' && e.kind === 'main' ? [e] : []));
  const input_tokens = answers.reduce((sum, e) => sum + e.promptTokens, 0);
  const output_tokens = answers.reduce((sum, e) => sum + e.completionTokens, 0);
  const last = answers.at(-1);
  return {
    steps: answers.length,
    input_tokens,
    output_tokens,
    cost_usd: Math.round(input_tokens * MODEL_COST.input + output_tokens * MODEL_COST.output) / 1e6,
    lastContext: last ? last.promptTokens + last.completionTokens : 0,
  };
}

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

      const denied = await askThenDenyDeploy({ core, id, status, ctx }, mock);
      expect(denied.waiting.reason).toBe('opencode/permission-required');
      expect(denied.mainRequestsSinceAsk).toBe(1);

      await core.sendUserTurn(id, '/exit');
      await status(is('dead'), 'dead after /exit');
    },
    TEST_TIMEOUT_MS,
  );

  it.each([
    ['instructions at spawn', 'instructions'],
    ['a user turn sent right after spawn', 'send'],
  ] as const)(
    'blank start screen read as idle: %s waits for the drawn prompt and reaches the model',
    async (_label, how) => {
      const { mock, harness } = await mockAndHarness(cleanup, [[{ text: 'Hello from the mock.' }]], (baseUrl) =>
        createOpencodeHarness({ baseUrl }),
      );
      // The core waits for the drawn prompt as long as this test waits for anything (opencode took
      // over 60 s to draw it at load 15).
      const core = buildCore({
        projectDir: mkdtempSync(join(tmpdir(), 'sb-opencode-')),
        watchConfig: false,
        killGraceMs: 1_000,
        instructionsReadyTimeoutMs: WAIT_MS,
      });
      await core.init();
      cleanup(() => core.dispose());

      const turn = 'Say hello to the blank screen';
      const info = await core.spawnAgent({
        preset: 'opencode',
        name: 'opencode',
        argv: harness.argv,
        env: harness.env,
        cwd: harness.cwd,
        ...(how === 'instructions' ? { instructions: turn } : {}),
      });
      const status = statusWaiter(core, info.id, 'opencode', WAIT_MS);
      expect(core.statusTrackerOf(info.id).status.primary).toBe('starting');
      const sent = how === 'send' ? core.sendUserTurn(info.id, turn) : Promise.resolve();
      // Both at once: a turn that was refused fails the test with its own reason.
      const [request] = await Promise.all([
        mock.waitFor('request', (e) => e.kind === 'main', { timeoutMs: WAIT_MS, context: status.describe }),
        sent,
      ]);
      expect(request.userText).toContain(turn);
      // Nothing but start-up before the first status read from opencode's own screen.
      const firstOwn = status.history.findIndex((h) => h.includes('(opencode/') && !h.includes('fallback'));
      expect(
        status.history.slice(0, firstOwn).filter((h) => !h.startsWith('starting/')),
        status.describe(),
      ).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "with the MCP endpoint: opencode's own events reach the tracker through the preset's status plugin; its usage is the mock's sums and opencode's own cost",
    async () => {
      const { mock, harness } = await mockAndHarness(
        cleanup,
        [
          [{ text: 'Hello from the opencode mock.', firstTokenDelayMs: 500 }],
          [{ toolCall: { name: 'bash', arguments: { command: 'echo switchboard-usage', description: 'Echo a word' } } }],
          [{ text: 'The command printed switchboard-usage, as you asked.' }],
        ],
        (baseUrl) => createOpencodeHarness({ baseUrl, bash: 'allow', modelCost: MODEL_COST }),
      );
      const { core, id, status } = await agentWithHooks({
        preset: 'opencode',
        mock,
        harness,
        ready: promptIdle,
        timeoutMs: WAIT_MS,
        cleanup,
      });
      const ctx = { timeoutMs: WAIT_MS, context: status.describe };
      const turn = async (prompt: string, lastMainTurn: number) => {
        await core.sendUserTurn(id, prompt);
        await mock.waitFor('stream_end', (e) => e.kind === 'main' && e.turn === lastMainTurn, ctx);
        // The plugin posts in opencode's order: a turn's steps arrive before its Stop.
        await status(idleFromStop, 'idle from its own Stop event');
        return usageOf(core).ofProcess(id);
      };

      const expected = () => {
        const sums = mockSums(mock.events);
        return {
          input_tokens: sums.input_tokens,
          output_tokens: sums.output_tokens,
          cache_read_tokens: 0,
          cache_write_tokens: 0,
          cost_usd: sums.cost_usd,
          cost_source: 'cli',
          context_used: sums.lastContext,
          model: 'switchboard-mock',
          source: 'opencode steps',
        };
      };

      const afterOne = await turn('Say hello to Switchboard', 0);
      expect(status.history.join(' → ')).toMatch(/\(hook:UserPromptSubmit.*\(hook:Stop\)/);
      expect(afterOne).toMatchObject(expected());
      const afterTwo = await turn('Run echo switchboard-usage', 2);
      expect(mockSums(mock.events).steps).toBe(3); // distinct counts per step: a greeting, a tool call, an answer
      expect(afterTwo).toMatchObject(expected());
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
