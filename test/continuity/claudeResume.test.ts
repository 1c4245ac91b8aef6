/**
 * The real Claude Code (2.1.197) as a switchboard.json agent under a real `serve` child, offline
 * against the mock Messages API: two turns; serve goes down (SIGTERM, then the same with SIGKILL);
 * a new serve on the same data dir brings the agent back resumable under the same id; Resume
 * relaunches it with `--resume <session>` and the next request to the model carries both earlier
 * turns.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_BIN, createClaudeHarness } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic } from '../fixtures/anthropic/mockAnthropic';
import { callOk } from '../mcp/mcpHarness';
import { AGENT_TURN_TIMEOUT_MS, agentOf, askAndAwaitAnswer, cmdline, resumeAndAsk, serveAgentProject, type Proc } from './restartHarness';
import { waitForFileText } from '../support/wait';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
});

describe.each(['SIGTERM', 'SIGKILL'] as const)('Claude Code resumes its conversation after serve dies by %s', (signal) => {
  it('comes back resumable with the same id, and Resume continues the same conversation', async () => {
    const mock = await startMockAnthropic({
      turns: [[{ text: 'First answer.' }], [{ text: 'Second answer.' }], [{ text: 'Third answer.' }]],
    });
    cleanups.push(() => mock.close());
    const harness = await createClaudeHarness({ baseUrl: mock.url });
    cleanups.push(() => harness.cleanup());
    const { first, restart } = await serveAgentProject({ preset: 'claude', command: CLAUDE_BIN }, harness, cleanups);
    const before = await callOk<Proc>(first.client, 'start_process', { process_id: (await agentOf(first)).id });
    expect(before.session?.id).toMatch(/^[0-9a-f-]{36}$/);

    await askAndAwaitAnswer(first, before.id, 'First question', mock, 0);
    // Read once the CLI answered: right after the spawn the child may not have exec'd yet (it shows serve's command line).
    expect(cmdline(before.pid!)).toEqual(expect.arrayContaining(['--session-id', before.session!.id!]));
    await askAndAwaitAnswer(first, before.id, 'Second question', mock, 1);
    // What a person would see before pulling the plug: the second answer is in Claude Code's own session transcript.
    await waitForFileText(harness.transcriptPath(before.session!.id!), 'Second answer.', AGENT_TURN_TIMEOUT_MS);
    expect(await first.stop(signal)).toBe(signal === 'SIGTERM' ? 0 : null);

    const { resumed, requestId } = await resumeAndAsk(await restart(), before, 'Third question', mock);
    expect(cmdline(resumed.pid!)).toEqual(expect.arrayContaining(['--resume', before.session!.id!]));
    const body = mock.requests.find((r) => r.requestId === requestId)!.body;
    const history = JSON.stringify(body.messages);
    for (const earlier of ['First question', 'First answer.', 'Second question', 'Second answer.']) expect(history).toContain(earlier);
  }, 300_000);
});
