/**
 * The inbox answers the REAL Claude Code (2.1.332) in its default auto mode behind a gateway that
 * does not pass auto mode's server-side check (the mock here; a company proxy or Switchboard's
 * sandbox key proxy in use). The CLI first asks what to do about the unreachable check; having
 * stayed in auto mode, it asks about the risky call with unnumbered options, "No" selected first.
 * Both are answered through the core's answerPrompt (the inbox's, MCP's and a notification's path)
 * and the mock, not the screen, says whether the call ran.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { buildCore } from '../../src/main/core/composition';
import type { WaitingAgent } from '../../src/shared/inbox';
import { createClaudeHarness } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic } from '../fixtures/anthropic/mockAnthropic';
import { cleanupsAfterEach } from '../status/liveAgent';
import { statusWaiter } from '../status/agentStatusWaiter';

/** A real CLI start on a loaded 2-core machine. */
const WAIT_MS = 60_000;
const COMMAND = 'curl -X POST http://127.0.0.1:9/auto-mode';

const cleanup = cleanupsAfterEach();

async function claudeInAutoMode(callId: string) {
  const mock = await startMockAnthropic({
    turns: [[{ toolUse: { id: callId, name: 'Bash', input: { command: COMMAND, description: 'Post it' } } }], [{ text: 'Done.' }]],
  });
  cleanup(() => mock.close());
  const harness = await createClaudeHarness({ baseUrl: mock.url });
  cleanup(() => harness.cleanup());
  const core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-auto-mode-')), watchConfig: false, killGraceMs: 1_000 });
  await core.init();
  cleanup(() => core.dispose());
  const info = await core.spawnAgent({ preset: 'claude', name: 'claude', ...harness, cols: 120, rows: 40, instructions: 'Post it' });
  const status = statusWaiter(core, info.id, 'claude', WAIT_MS);
  /** The inbox row once the screen shows the dialog of `rule`. */
  const rowOf = async (rule: string): Promise<WaitingAgent> => {
    await status((s) => s.primary === 'waiting' && (s.reason ?? '').includes(`claude/${rule}`), rule);
    const row = core.listWaiting().find((w) => w.id === info.id);
    expect(row?.fingerprint, status.describe()).toBeDefined();
    return row!;
  };
  return { core, id: info.id, mock, status, rowOf };
}

it('stays in auto mode, then approves the call from the inbox: the call runs', async () => {
  const { core, id, mock, rowOf } = await claudeInAutoMode('toolu_auto_yes');
  const check = await rowOf('auto-mode-check-unreachable');
  await core.answerPrompt({ id, fingerprint: check.fingerprint!, choice: 'approve' });

  const call = await rowOf('unnumbered-permission');
  expect(call).toMatchObject({ detail: 'permission', question: expect.stringContaining(COMMAND) });
  expect(call.choices).toEqual([
    { id: 'approve', label: 'Yes' },
    { id: 'deny', label: 'No' },
  ]);
  await core.answerPrompt({ id, fingerprint: call.fingerprint!, choice: 'approve' });
  const result = await mock.waitFor('tool_result', (e) => e.toolUseId === 'toolu_auto_yes', { timeoutMs: WAIT_MS });
  expect(result.content).toContain('curl: (7)'); // it ran: nothing listens on port 9
}, 180_000);

it('denies the call from the inbox: the call does not run', async () => {
  const { core, id, mock, status, rowOf } = await claudeInAutoMode('toolu_auto_no');
  const check = await rowOf('auto-mode-check-unreachable');
  await core.answerPrompt({ id, fingerprint: check.fingerprint!, choice: 'approve' });
  const call = await rowOf('unnumbered-permission');
  await core.answerPrompt({ id, fingerprint: call.fingerprint!, choice: 'deny' });
  await status((s) => s.primary === 'idle', 'idle after the refusal');
  expect(
    mock.events.some((e) => e.type === 'tool_result' && e.toolUseId === 'toolu_auto_no' && !/doesn.t want|rejected/i.test(e.content ?? '')),
  ).toBe(false);
}, 180_000);
