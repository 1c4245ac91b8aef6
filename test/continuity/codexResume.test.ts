/**
 * The real Codex CLI (0.169.0) as a switchboard.json agent under a real `serve` child, offline
 * against the mock Responses API: Switchboard learns the session id Codex picked (its rollout
 * file), serve goes down (SIGTERM, then SIGKILL), the next serve offers Resume under the same id,
 * `codex resume <id>` continues, and the next request to the model carries both earlier turns.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX_BIN, createCodexHarness } from '../fixtures/openai/codexHarness';
import { startMockResponses, type MockResponses } from '../fixtures/openai/mockResponses';
import type { ProcessUsage, ProjectUsage } from '../../src/shared/usage';
import { callOk } from '../mcp/mcpHarness';
import { AGENT_TURN_TIMEOUT_MS, agentOf, askAndAwaitAnswer, cmdline, resumeAndAsk, serveAgentProject, type Proc } from './restartHarness';
import { waitForFileText } from '../support/wait';

/** Codex's rollout file of a session: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl. */
function rolloutFile(codexHome: string, sessionId: string): string {
  const sessions = join(codexHome, 'sessions');
  const found = readdirSync(sessions, { recursive: true, encoding: 'utf8' }).find((p) => p.endsWith(`${sessionId}.jsonl`));
  if (!found) throw new Error(`no rollout file for ${sessionId} under ${sessions}`);
  return join(sessions, found);
}

/** Reset times of the scripted windows (Unix seconds, as Codex's `x-codex-*-reset-at` headers carry them). */
const FIVE_HOUR_RESET = 1_900_000_000;
const WEEKLY_RESET = 1_900_400_000;

function limits(primary: number, secondary: number): Record<string, string> {
  return {
    'x-codex-primary-used-percent': String(primary),
    'x-codex-primary-window-minutes': '300',
    'x-codex-primary-reset-at': String(FIVE_HOUR_RESET),
    'x-codex-secondary-used-percent': String(secondary),
    'x-codex-secondary-window-minutes': '10080',
    'x-codex-secondary-reset-at': String(WEEKLY_RESET),
  };
}

/** get_usage equals the mock's own sums over the main requests so far (OpenAI counts cached input inside input_tokens). */
function expectUsage(usage: ProcessUsage, mock: MockResponses, used: { primary: number; secondary: number }): void {
  const ends = mock.events.flatMap((e) => (e.type === 'stream_end' && e.kind === 'main' ? [e] : []));
  const sum = (f: (e: (typeof ends)[number]) => number) => ends.reduce((n, e) => n + f(e), 0);
  expect(usage).toMatchObject({
    input_tokens: sum((e) => e.inputTokens - e.cachedTokens),
    cache_read_tokens: sum((e) => e.cachedTokens),
    output_tokens: sum((e) => e.outputTokens),
    cache_write_tokens: 0,
    context_used: ends.at(-1)!.inputTokens + ends.at(-1)!.outputTokens,
    cost_usd: null,
    cost_source: 'unpriced',
    source: 'codex rollout',
    windows: [
      { name: '5h', used_percent: used.primary, resets_at: new Date(FIVE_HOUR_RESET * 1000).toISOString() },
      { name: 'weekly', used_percent: used.secondary, resets_at: new Date(WEEKLY_RESET * 1000).toISOString() },
    ],
  });
}

/** The mock's sums in get_usage's terms, with the cost a Codex model has (unpriced: counted as 0 in the history). */
function mockSums(mock: MockResponses) {
  const ends = mock.events.flatMap((e) => (e.type === 'stream_end' && e.kind === 'main' ? [e] : []));
  const sum = (f: (e: (typeof ends)[number]) => number) => ends.reduce((n, e) => n + f(e), 0);
  return {
    input_tokens: sum((e) => e.inputTokens - e.cachedTokens),
    output_tokens: sum((e) => e.outputTokens),
    cache_read_tokens: sum((e) => e.cachedTokens),
    cache_write_tokens: 0,
    cost_usd: 0,
  };
}

interface StoredHistory {
  days: Record<string, Record<string, unknown>>;
}

function todayRow(history: StoredHistory): unknown {
  const days = Object.values(history.days);
  expect(days).toHaveLength(1);
  return days[0].main;
}

function onlyFile(dir: string): string {
  const files = readdirSync(dir);
  expect(files).toHaveLength(1);
  return join(dir, files[0]);
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
});

describe.each(['SIGTERM', 'SIGKILL'] as const)('Codex resumes its conversation after serve dies by %s', (signal) => {
  it('discovers the session Codex picked, comes back resumable, and codex resume continues it', async () => {
    // Distinctive token counts per turn and the rate-limit headers Codex reads (a ChatGPT plan's).
    const mock = await startMockResponses({
      turns: [
        {
          steps: [{ text: 'First answer.' }],
          usage: { input_tokens: 2311, cached_tokens: 1103, output_tokens: 131 },
          headers: limits(12.5, 3),
        },
        {
          steps: [{ text: 'Second answer.' }],
          usage: { input_tokens: 4622, cached_tokens: 2207, output_tokens: 262 },
          headers: limits(47.5, 6),
        },
        {
          steps: [{ text: 'Third answer.' }],
          usage: { input_tokens: 6933, cached_tokens: 3301, output_tokens: 393 },
          headers: limits(83, 9),
        },
      ],
    });
    cleanups.push(() => mock.close());
    const harness = await createCodexHarness({ baseUrl: mock.url });
    cleanups.push(() => harness.cleanup());
    const { first, restart, dataDir } = await serveAgentProject({ preset: 'codex', command: CODEX_BIN }, harness, cleanups);
    const started = await callOk<Proc>(first.client, 'start_process', { process_id: (await agentOf(first)).id });
    await askAndAwaitAnswer(first, started.id, 'First question', mock, 0);
    await askAndAwaitAnswer(first, started.id, 'Second question', mock, 1);
    const before = await agentOf(first);
    expect(before.session?.id, JSON.stringify(before.session)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const rollout = rolloutFile(harness.codexHome, before.session!.id!);
    await waitForFileText(rollout, 'Second answer.', AGENT_TURN_TIMEOUT_MS);
    // Codex logs a response's token count after its message.
    await waitForFileText(rollout, '"used_percent":47.5', AGENT_TURN_TIMEOUT_MS);
    expectUsage(await callOk<ProcessUsage>(first.client, 'get_usage', { process_id: started.id }), mock, { primary: 47.5, secondary: 6 });
    expect(await first.stop(signal)).toBe(signal === 'SIGTERM' ? 0 : null);
    if (signal === 'SIGTERM') {
      // A clean stop writes the day's totals at once (saves are coalesced while running).
      const historyFile = onlyFile(join(dataDir, 'usage'));
      expect(statSync(historyFile).mode & 0o777).toBe(0o600);
      expect(todayRow(JSON.parse(readFileSync(historyFile, 'utf8')) as StoredHistory)).toEqual(mockSums(mock));
    }
    // After a SIGKILL within the save window the history may lag: the restart below reads the rollout
    // log again, and the day's row must then hold every turn exactly once.

    const restartedServe = await restart();
    const { resumed, requestId } = await resumeAndAsk(restartedServe, before, 'Third question', mock);
    // Read once the CLI asked the model: right after the spawn the child may not have exec'd yet (it shows serve's command line).
    const argv = cmdline(resumed.pid!);
    expect(argv.slice(argv.indexOf('resume'), argv.indexOf('resume') + 2)).toEqual(['resume', before.session!.id]);
    const history = JSON.stringify(mock.requests.find((r) => r.requestId === requestId)!.body.input);
    for (const earlier of ['First question', 'First answer.', 'Second question', 'Second answer.']) expect(history).toContain(earlier);
    // The resumed session's usage goes on from the same rollout log: all three turns.
    await mock.waitFor((e) => e.type === 'stream_end' && e.turn === 2, { timeoutMs: AGENT_TURN_TIMEOUT_MS });
    await waitForFileText(rollout, '"used_percent":83', AGENT_TURN_TIMEOUT_MS);
    expectUsage(await callOk<ProcessUsage>(restartedServe.client, 'get_usage', { process_id: resumed.id }), mock, {
      primary: 83,
      secondary: 9,
    });
    // The 5h window passed 80 %: the agent is flagged for a person, with the reset time.
    const flagged = await callOk<{ attention?: { reason: string } }>(restartedServe.client, 'get_process_status', {
      process_id: resumed.id,
    });
    expect(flagged.attention?.reason).toBe(
      `codex: 5h usage window at 83 %; it resets at ${new Date(FIVE_HOUR_RESET * 1000).toISOString()}`,
    );
    // The history went on from the stored totals: the rollout log read again from its start after the restart counts once.
    const { days } = await callOk<ProjectUsage>(restartedServe.client, 'get_usage');
    expect(days).toHaveLength(1);
    expect(days[0]).toMatchObject({ worktree: 'main', ...mockSums(mock) });
  }, 300_000);
});
