/**
 * The REAL GitHub Copilot CLI (1.0.102) through the core, offline against the mock Chat Completions
 * API answering a refused key as OpenAI does (401 invalid_api_key, every time): Copilot retries
 * twice and then names the provider, waiting · login. The launch goes on: OpenAI's rate limit (429
 * with `retry-after`) on every request is retried five times, silently on screen but told by Copilot's
 * errorOccurred hook (the preset's status plugin: active · retrying, never stuck), and given up
 * (waiting · limit), then its 500 the same way (waiting · api_error), then an answer (idle). Status
 * changes are recorded and checked rather than caught live. All along, a sniffer reads every
 * process's command line: the hooks' posts never show the run's token there. pi's refused key is checked in piBlocked.test.ts's launch.
 */
import { describe, expect, it } from 'vitest';
import type { AgentStatusInfo } from '../../src/shared/status';
import { resolvePreset } from '../../src/main/core/agents';
import type { ScreenView } from '../../src/main/core/sessions';
import { classify } from '../../src/main/core/status';
import { createCopilotHarness } from '../fixtures/openaiChat/copilotHarness';
import { INVALID_API_KEY_BODY, rateLimitExceeded, SERVER_ERROR, type ChatTurn } from '../fixtures/openaiChat/mockChatCompletions';
import { startCmdlineSniffer } from '../support/cmdlineSniffer';
import { cleanupsAfterEach, is, mockAndHarness, spawnOnCore } from './liveAgent';

const WAIT_MS = 120_000;
const TEST_TIMEOUT_MS = 300_000;
const REFUSED = { httpError: 401, body: INVALID_API_KEY_BODY };
/** Copilot 1.0.102 retries a 429 or a 5xx five times before it gives up: six requests a turn. */
const COPILOT_REQUESTS_PER_TURN = 6;
type ChatStep = Extract<ChatTurn, unknown[]>[number];

const cleanup = cleanupsAfterEach();

/** What Copilot's screen rules read on every screen change (the status may be a hook's), until disposed. */
function screenReadings(screen: ScreenView): { seen: Set<string>; dispose(): void } {
  const seen = new Set<string>();
  const rules = resolvePreset('copilot').rules;
  const listener = screen.onDidChange(() => seen.add(classify(screen, screen.title, { rules, now: Date.now() }).reason));
  return { seen, dispose: () => listener.dispose() };
}

/** Spawns `preset` against a mock that refuses its key, sends one turn and returns the blocked status. */
async function refusedTurn(
  preset: 'copilot',
  blockedDetail: 'login',
  harnessFor: typeof createCopilotHarness,
  /** What the requests after the three refused ones get, one step each (errors) until a text answers the rest. */
  laterSteps: ChatStep[] = [],
) {
  const { mock, harness } = await mockAndHarness(cleanup, [[REFUSED, REFUSED, REFUSED, ...laterSteps]], (baseUrl) =>
    harnessFor({ baseUrl }),
  );
  // With its MCP endpoint, so the preset's wiring installs Copilot's status hooks (its --plugin-dir plugin).
  const agent = await spawnOnCore(cleanup, { preset, label: preset, launch: harness, waitMs: WAIT_MS, withHooks: true });
  const { core, id, status, ctx } = agent;
  const sniffer = await startCmdlineSniffer();
  cleanup(() => sniffer.stop().then(() => undefined));
  sniffer.watch({ secrets: agent.endpoint!.secrets, markers: [agent.endpoint!.hooksUrl] });
  const history: AgentStatusInfo[] = [];
  core.statusTrackerOf(id).onDidChangeStatus((s) => history.push(s));
  await status(is('idle', 'ready'), 'idle');
  await core.sendUserTurn(id, 'Say something');
  await mock.waitFor('http_error', (e) => e.status === 401, ctx);
  const blocked = await status(is('waiting', blockedDetail), `waiting · ${blockedDetail}`);
  expect(history.some((s) => s.primary === 'active')).toBe(true);
  expect(history.filter((s) => s.primary === 'stuck')).toEqual([]);
  return { blocked, mock, agent, history, sniffer };
}

describe('real chat-completions CLIs blocked', () => {
  it(
    'copilot: a key refused on every retry is waiting · login naming the provider; a rate limit its retries did not get past is waiting · limit; server errors given up are waiting · api_error until an answer',
    async () => {
      const { blocked, mock, agent, history, sniffer } = await refusedTurn('copilot', 'login', createCopilotHarness, [
        ...Array<ChatStep>(COPILOT_REQUESTS_PER_TURN).fill(rateLimitExceeded(1)),
        ...Array<ChatStep>(COPILOT_REQUESTS_PER_TURN).fill(SERVER_ERROR),
        { text: 'Back after the server errors.' },
      ]);
      expect(blocked.reason).toBe('copilot/provider-auth-failed');
      expect(blocked.blocked?.message).toMatch(/^Authentication failed with provider at http:\/\/127\.0\.0\.1:\d+\/v1 \(HTTP 401\)\.$/u);
      const { core, id, status, ctx } = agent;

      const sinceLogin = history.length;
      await core.sendUserTurn(id, 'Say something else');
      await mock.waitFor('http_error', (e) => e.status === 429, ctx);
      const limit = await status(is('waiting', 'limit'), 'waiting · limit');
      expect(limit.reason).toBe('copilot/gave-up-limit');
      expect(limit.blocked?.message).toMatch(
        /^Failed to get response from the AI model; retried 5 times \(.*\) Last error: 429 .*Please try again in 1s\./u,
      );
      expect(mock.events.filter((e) => e.type === 'http_error' && e.status === 429)).toHaveLength(COPILOT_REQUESTS_PER_TURN);
      // Copilot retries a 429 with nothing on screen but `Working`; its errorOccurred hook says it retries.
      const silentRetries = history.slice(sinceLogin).filter((s) => s.detail === 'retrying');
      expect(silentRetries.length).toBeGreaterThan(0);
      expect(silentRetries[0]).toMatchObject({ primary: 'active', reason: 'hook:ApiRetry' });
      expect(silentRetries[0].blocked?.message).toMatch(/^Rate limit reached for .* Please try again in 1s\./u);
      expect(history.slice(sinceLogin).filter((s) => s.primary === 'stuck')).toEqual([]);

      const sinceLimit = history.length;
      await core.sendUserTurn(id, 'And now?');
      await mock.waitFor('http_error', (e) => e.status === 500, ctx);
      const screenReasons = screenReadings(core.entry(id).screen);
      const gaveUp = await status(is('waiting', 'api_error'), 'waiting · api_error');
      screenReasons.dispose();
      expect(gaveUp.reason).toBe('copilot/gave-up');
      expect(gaveUp.blocked?.message).toMatch(
        /^Failed to get response from the AI model; retried 5 times \(.*\) Last error: 500 [^┃█]*Sorry about that!$/u,
      );
      // Its retry notices, read under the transcript's scrollbar column (it overflows by now). The
      // status says retrying from Copilot's errorOccurred hook, which comes before the notice.
      expect(screenReasons.seen.has('copilot/retrying')).toBe(true);
      const serverRetries = history.slice(sinceLimit).filter((s) => s.detail === 'retrying');
      expect(serverRetries.map((s) => s.blocked?.message)).toContain(
        'The server had an error while processing your request. Sorry about that!',
      );
      expect(history.slice(sinceLimit).filter((s) => s.detail === 'responding')).toEqual([]);

      await core.sendUserTurn(id, 'Once more');
      await mock.waitFor('stream_end', (e) => e.kind === 'main', ctx);
      await status(is('idle', 'ready'), 'idle after the answer');
      expect(history.filter((s) => s.primary === 'stuck')).toEqual([]);

      // The hooks ran while the sniffer looked (their shells name the receiver), and no command line held a token.
      const sniffed = await sniffer.stop();
      expect(sniffed.marked, `${sniffed.scans} scans`).toBeGreaterThan(0);
      expect(sniffed.leaks).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
