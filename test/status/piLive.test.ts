/**
 * The REAL pi TUI (0.73.1) driven by Switchboard, offline against the mock Chat Completions API:
 * once through the core (idle → active → idle → a tool that runs without asking → idle → dead
 * after /quit, one CLI process; pi has no permission prompt), once with the MCP endpoint (pi's
 * turn reported by the preset's status extension), once through `serve` and its MCP endpoint (an
 * external client spawns the agent and sends it a message; the agent's model calls whoami through
 * the preset's MCP extension and gets its own entry). Ground truth comes from the mock's timeline
 * and our keystrokes, never from the screen. Under `serve`, `get_usage` is read from pi's own
 * session file: the mock's token counts summed, the cost pi computed from its models.json prices.
 */
import { describe, expect, it } from 'vitest';
import type { AgentStatusInfo } from '../../src/shared/status';
import { createPiHarness } from '../fixtures/openaiChat/piHarness';
import { cleanupsAfterEach, is, mockAndHarness, spawnOnCore, spawnUnderServe } from './liveAgent';
import { turnWithHooks } from './hookedTurn';
import { waitForAgentStatus, whoamiThroughAgent, type PolledAgentStatus } from './serveAgent';
import { callOk } from '../mcp/mcpHarness';
import type { ProcessUsage } from '../../src/shared/usage';

/** pi starts in 3-8 s here; under load (two CLIs recording at once) up to a minute. */
const WAIT_MS = 90_000;
const TEST_TIMEOUT_MS = 300_000;
/** The preset's MCP extension registers Switchboard's tools as `switchboard_<tool>`. */
const WHOAMI_TOOL = 'switchboard_whoami';
/** The extension registers the tools before pi's first prompt, so one round should do; a second covers a slow start. */
const MAX_WHOAMI_ROUNDS = 2;

const cleanup = cleanupsAfterEach();

/** USD per million tokens in the harness's models.json: pi prices each response with them. */
const MODEL_COST = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

/** Idle read from pi's own screen (a pi rule), not from the quiet fallback. */
const piIdle = (s: AgentStatusInfo | PolledAgentStatus) => s.primary === 'idle' && /^pi\//.test(s.reason ?? '');

describe('the real pi through Switchboard', () => {
  it(
    'idle → active → idle → using_tools (a tool that runs without asking) → idle → dead after /quit, one process',
    async () => {
      const { mock, harness } = await mockAndHarness(
        cleanup,
        [
          [{ text: 'Hello from the pi mock, streamed word by word.', firstTokenDelayMs: 1_500, chunkDelayMs: 80 }],
          [{ toolCall: { name: 'bash', arguments: { command: `node -e "setTimeout(() => console.log('waited'), 3000)"` } } }],
          [{ text: 'The command printed waited.' }],
        ],
        (baseUrl) => createPiHarness({ baseUrl }),
      );
      const { core, id, status, ctx } = await spawnOnCore(cleanup, { preset: 'pi', label: 'pi', launch: harness, waitMs: WAIT_MS });

      await status(piIdle, 'idle at its editor');

      await core.sendUserTurn(id, 'Say hello to Switchboard');
      const request = await mock.waitFor('request', (e) => e.kind === 'main', ctx);
      expect(request.userText).toContain('Say hello to Switchboard');
      expect((await status(is('active'), 'active')).reason).toMatch(/^pi\//);
      await mock.waitFor('stream_end', (e) => e.kind === 'main', ctx);
      await status(is('idle', 'ready'), 'idle after the answer');

      const mark = mock.mark();
      await core.sendUserTurn(id, 'Run the wait command');
      await mock.waitFor('tool_call', undefined, { ...ctx, after: mark });
      expect((await status(is('active', 'using_tools'), 'using_tools while the command runs')).reason).toMatch(/^pi\//);
      const result = await mock.waitFor('tool_result', undefined, { ...ctx, after: mark });
      expect(result.content).toContain('waited');
      await mock.waitFor('stream_end', (e) => e.kind === 'main' && e.seq > result.seq, ctx);
      await status(is('idle', 'ready'), 'idle after the tool turn');

      await core.sendUserTurn(id, '/quit');
      await status(is('dead'), 'dead after /quit');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "with the MCP endpoint: pi's own events reach the tracker through the preset's status extension",
    async () => {
      const { mock, harness } = await mockAndHarness(cleanup, [[{ text: 'Hello from the pi mock.', firstTokenDelayMs: 500 }]], (baseUrl) =>
        createPiHarness({ baseUrl }),
      );
      const history = await turnWithHooks({ preset: 'pi', mock, harness, ready: piIdle, timeoutMs: WAIT_MS, cleanup });
      expect(history.join(' → ')).toMatch(/\(hook:UserPromptSubmit.*\(hook:Stop\)/);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "under serve: spawn_agent + send_message over MCP; the agent calls whoami through the MCP extension and gets its own entry; get_usage is the mock's sums and pi's own cost",
    async () => {
      // Turns are scripted per round by whoamiThroughAgent.
      const { mock, harness } = await mockAndHarness(cleanup, undefined, (baseUrl) => createPiHarness({ baseUrl, modelCost: MODEL_COST }));
      const { client, id } = await spawnUnderServe(cleanup, { agent: 'pi', name: 'pi-under-test', launch: harness, waitMs: WAIT_MS });
      await waitForAgentStatus(client, id, WAIT_MS, piIdle);
      const result = await whoamiThroughAgent(client, mock, id, {
        tool: WHOAMI_TOOL,
        notThereYet: /tool .*not found|unknown tool/i,
        rounds: MAX_WHOAMI_ROUNDS,
        timeoutMs: WAIT_MS,
        idle: piIdle,
      });
      expect(result.content).toContain(id);
      expect(result.content).toContain('pi-under-test');
      expect(result.content).toContain('agent');

      // Read from pi's own session file once the turn is over: exactly what the mock reported, priced by pi.
      await waitForAgentStatus(client, id, WAIT_MS, piIdle);
      const answers = mock.events.flatMap((e) => (e.type === 'stream_end' ? [e] : []));
      expect(answers.length).toBeGreaterThanOrEqual(2);
      expect(answers.length).toBe(mock.events.filter((e) => e.type === 'request').length); // every request answered
      const input = answers.reduce((sum, e) => sum + e.promptTokens, 0);
      const output = answers.reduce((sum, e) => sum + e.completionTokens, 0);
      const usage = await callOk<ProcessUsage>(client, 'get_usage', { process_id: id });
      expect(usage).toMatchObject({
        input_tokens: input,
        output_tokens: output,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        cost_source: 'cli',
        cost_usd: Math.round(input * MODEL_COST.input + output * MODEL_COST.output) / 1e6,
        model: 'switchboard-mock',
        source: 'pi session',
      });
      expect(usage.context_used).toBe(answers.at(-1)!.promptTokens + answers.at(-1)!.completionTokens);
    },
    TEST_TIMEOUT_MS,
  );
});
