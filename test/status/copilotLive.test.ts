/**
 * The REAL GitHub Copilot CLI TUI (1.0.102) driven by Switchboard, offline against the mock Chat
 * Completions API (BYOK): once through the core (idle → active → waiting → idle → dead, one CLI
 * process for every step), once through `serve` and its MCP endpoint (an external client spawns the
 * agent and sends it a message; the agent's model calls whoami through the preset's MCP wiring and
 * gets its own entry). Ground truth comes from the mock's timeline and our keystrokes, never from
 * the screen.
 */
import { describe, expect, it } from 'vitest';
import { usageOf } from '../../src/main/core/usage';
import { createCopilotHarness } from '../fixtures/openaiChat/copilotHarness';
import {
  askThenDenyDeploy,
  cleanupsAfterEach,
  greetAndAnswer,
  greetThenDeployTurns,
  is,
  mockAndHarness,
  spawnOnCore,
  spawnUnderServe,
} from './liveAgent';
import { waitForAgentStatus, whoamiThroughAgent } from './serveAgent';

/** Copilot starts in 2-20 s here (more the first time, when it unpacks itself). */
const WAIT_MS = 120_000;
const TEST_TIMEOUT_MS = 300_000;
/** Copilot names an MCP tool `<server>-<tool>`. */
const WHOAMI_TOOL = 'switchboard-whoami';
/** Copilot connects its MCP servers in the background after start-up: a few rounds at most. */
const MAX_WHOAMI_ROUNDS = 5;

const cleanup = cleanupsAfterEach();

describe('the real GitHub Copilot CLI through Switchboard', () => {
  it(
    "idle → active → waiting/permission → idle after Escape → dead after /exit, one process; its usage is the mock's sums",
    async () => {
      const { mock, harness } = await mockAndHarness(
        cleanup,
        greetThenDeployTurns('Hello from the Copilot mock, streamed word by word.', 'bash'),
        (baseUrl) => createCopilotHarness({ baseUrl }),
      );
      const { core, id, status, ctx } = await spawnOnCore(cleanup, {
        preset: 'copilot',
        label: 'Copilot',
        launch: harness,
        waitMs: WAIT_MS,
      });
      const tracker = core.statusTrackerOf(id);

      await status(is('idle', 'ready'), 'idle');
      expect(tracker.status.reason).toMatch(/^copilot\//);

      expect((await greetAndAnswer({ core, id, status, ctx }, mock)).health).toBe('ALIVE');

      const denied = await askThenDenyDeploy({ core, id, status, ctx }, mock);
      expect(denied.waiting.reason).toMatch(/^copilot\/permission-prompt/);
      expect(denied.mainRequestsSinceAsk).toBe(1);

      await core.sendUserTurn(id, '/exit');
      await status(is('dead'), 'dead after /exit');

      // Read from Copilot's own session event log (what get_usage answers): exactly what the mock reported.
      const answers = mock.events.flatMap((e) => (e.type === 'stream_end' && e.kind === 'main' ? [e] : []));
      expect(answers.length).toBeGreaterThanOrEqual(2);
      expect(answers.length).toBe(mock.events.filter((e) => e.type === 'request').length); // every request answered
      expect(usageOf(core).ofProcess(id)).toMatchObject({
        input_tokens: answers.reduce((sum, e) => sum + e.promptTokens, 0),
        output_tokens: answers.reduce((sum, e) => sum + e.completionTokens, 0),
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        cost_usd: null,
        cost_source: 'unpriced',
        context_used: answers.at(-1)!.promptTokens + answers.at(-1)!.completionTokens,
        model: 'switchboard-mock',
        source: 'copilot session events',
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a folder Copilot was not told to trust: its trust question is waiting/question, and the inbox answer "Yes" lets the turn run',
    async () => {
      const { mock, harness } = await mockAndHarness(cleanup, [[{ text: 'Hello from a folder trusted just now.' }]], (baseUrl) =>
        createCopilotHarness({ baseUrl, trusted: false }),
      );
      const { core, id, status, ctx } = await spawnOnCore(cleanup, {
        preset: 'copilot',
        label: 'Copilot',
        launch: harness,
        waitMs: WAIT_MS,
      });

      // While the dialog draws, the unrecognised-dialog rule may read it first (waiting all the same);
      // its own rule must name it once it is whole.
      const asking = await status(
        (s) => is('waiting', 'question')(s) && s.reason === 'copilot/folder-trust',
        'waiting on the trust question, read by its own rule',
      );
      expect(asking.reason).toBe('copilot/folder-trust');
      const waiting = core.listWaiting().find((w) => w.id === id);
      expect(waiting?.question, status.describe()).toMatch(/Do you trust the files in this folder\?[\s\S]*1\. Yes/);
      const answer = await core.answerPrompt({ id, fingerprint: waiting!.fingerprint!, choice: 'answer' });
      expect(answer.label).toBe('Yes');
      await status(is('idle', 'ready'), 'idle at the composer once trusted');

      await greetAndAnswer({ core, id, status, ctx }, mock);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'under serve: spawn_agent + send_message over MCP; the agent calls whoami and gets its own entry',
    async () => {
      // Turns are scripted per round by whoamiThroughAgent.
      const { mock, harness } = await mockAndHarness(cleanup, undefined, (baseUrl) => createCopilotHarness({ baseUrl }));
      const { client, id } = await spawnUnderServe(cleanup, {
        agent: 'copilot',
        name: 'copilot-under-test',
        launch: harness,
        waitMs: WAIT_MS,
      });
      await waitForAgentStatus(client, id, WAIT_MS);
      const result = await whoamiThroughAgent(client, mock, id, {
        tool: WHOAMI_TOOL,
        notThereYet: /not found|does not exist|unknown tool/i,
        rounds: MAX_WHOAMI_ROUNDS,
        timeoutMs: WAIT_MS,
        idle: (agent) => agent.primary === 'idle',
      });
      expect(result.content).toContain(id);
      expect(result.content).toContain('copilot-under-test');
      expect(result.content).toContain('agent');
    },
    TEST_TIMEOUT_MS,
  );
});
