/**
 * The real Codex CLI (0.169.0) as a switchboard.json agent under a real `serve` child, offline
 * against the mock Responses API: Switchboard learns the session id Codex picked (its rollout
 * file), serve goes down (SIGTERM, then SIGKILL), the next serve offers Resume under the same id,
 * `codex resume <id>` continues, and the next request to the model carries both earlier turns.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX_BIN, createCodexHarness } from '../fixtures/openai/codexHarness';
import { startMockResponses } from '../fixtures/openai/mockResponses';
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

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
});

describe.each(['SIGTERM', 'SIGKILL'] as const)('Codex resumes its conversation after serve dies by %s', (signal) => {
  it('discovers the session Codex picked, comes back resumable, and codex resume continues it', async () => {
    const mock = await startMockResponses({
      turns: [[{ text: 'First answer.' }], [{ text: 'Second answer.' }], [{ text: 'Third answer.' }]],
    });
    cleanups.push(() => mock.close());
    const harness = await createCodexHarness({ baseUrl: mock.url });
    cleanups.push(() => harness.cleanup());
    const { first, restart } = await serveAgentProject({ preset: 'codex', command: CODEX_BIN }, harness, cleanups);
    const started = await callOk<Proc>(first.client, 'start_process', { process_id: (await agentOf(first)).id });
    await askAndAwaitAnswer(first, started.id, 'First question', mock, 0);
    await askAndAwaitAnswer(first, started.id, 'Second question', mock, 1);
    const before = await agentOf(first);
    expect(before.session?.id, JSON.stringify(before.session)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await waitForFileText(rolloutFile(harness.codexHome, before.session!.id!), 'Second answer.', AGENT_TURN_TIMEOUT_MS);
    expect(await first.stop(signal)).toBe(signal === 'SIGTERM' ? 0 : null);

    const { resumed, requestId } = await resumeAndAsk(await restart(), before, 'Third question', mock);
    // Read once the CLI asked the model: right after the spawn the child may not have exec'd yet (it shows serve's command line).
    const argv = cmdline(resumed.pid!);
    expect(argv.slice(argv.indexOf('resume'), argv.indexOf('resume') + 2)).toEqual(['resume', before.session!.id]);
    const history = JSON.stringify(mock.requests.find((r) => r.requestId === requestId)!.body.input);
    for (const earlier of ['First question', 'First answer.', 'Second question', 'Second answer.']) expect(history).toContain(earlier);
  }, 300_000);
});
