/**
 * The inbox's answers to the REAL Codex TUI (0.169.0): Codex asks before an escalated
 * `exec_command` (approval_policy on-request, read-only sandbox). The keys the codex preset
 * declares (`y` to approve, Escape to deny) must do what the menu says: approve runs the command
 * and its output goes back to the model; deny never runs it and Codex is idle again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCore } from '../../src/main/core/composition';
import { createCodexHarness } from '../fixtures/openai/codexHarness';
import { startMockResponses } from '../fixtures/openai/mockResponses';
import { statusWaiter } from './agentStatusWaiter';

/** A real CLI on a busy 2-core machine can take seconds to start. */
const WAIT_MS = 45_000;
const MARKER = 'approved-marker';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function codexAskingToRun() {
  const escalatedTouch = {
    functionCall: {
      name: 'exec_command',
      arguments: { cmd: `touch ${MARKER}`, sandbox_permissions: 'require_escalated', justification: 'Create the marker file' },
    },
  };
  const mock = await startMockResponses({ turns: [[escalatedTouch], [{ text: 'The marker file is there.' }]] });
  cleanups.push(() => mock.close());
  const harness = await createCodexHarness({ baseUrl: mock.url, approvalPolicy: 'on-request', sandboxMode: 'read-only' });
  cleanups.push(() => harness.cleanup());
  const core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-codex-approval-')), watchConfig: false, killGraceMs: 1_000 });
  await core.init();
  cleanups.push(() => core.dispose());

  const info = await core.spawnAgent({ preset: 'codex', name: 'codex', argv: harness.argv, env: harness.env, cwd: harness.cwd });
  const status = statusWaiter(core, info.id, 'Codex', WAIT_MS);
  await status((s) => s.primary === 'idle', 'idle');
  await core.sendUserTurn(info.id, 'Create the marker file');
  // Codex reports that it asks (OSC 7501) before it draws the dialog; answering needs the dialog on screen.
  await status((s) => s.primary === 'waiting' && s.detail === 'permission', 'waiting for permission');
  await status((s) => s.reason === 'codex/approval-request', 'the approval dialog drawn');
  const waiting = core.listWaiting().find((w) => w.id === info.id);
  expect(waiting?.question, status.describe()).toMatch(/Would you like to run the following command\?[\s\S]*touch approved-marker/);
  expect(waiting?.fingerprint).toBeTruthy();
  return { core, mock, id: info.id, fingerprint: waiting!.fingerprint!, status, markerPath: join(harness.cwd, MARKER) };
}

describe('inbox answers on the real Codex TUI', () => {
  it('approve sends `y`: the command runs and its output reaches the model', async () => {
    const { core, mock, id, fingerprint, status, markerPath } = await codexAskingToRun();
    const answer = await core.answerPrompt({ id, fingerprint, choice: 'approve' });
    expect(answer.label).toBe('Yes, proceed');
    const call = await mock.waitFor('function_call', undefined, { timeoutMs: WAIT_MS });
    await mock.waitFor('tool_output', (e) => e.callId === call.callId, { timeoutMs: WAIT_MS });
    expect(existsSync(markerPath)).toBe(true);
    await status((s) => s.primary === 'idle', 'idle after the approved turn');
    expect(core.entry(id).screen.getVisibleLines().join('\n')).toContain('The marker file is there.');
  });

  it('deny sends Escape: the command never runs and Codex is idle again', async () => {
    const { core, mock, id, fingerprint, status, markerPath } = await codexAskingToRun();
    const toolOutputs = () => mock.events.filter((e) => e.type === 'tool_output').length;
    const answer = await core.answerPrompt({ id, fingerprint, choice: 'deny' });
    expect(answer.label).toBe('No');
    await status((s) => s.primary === 'idle', 'idle after the denied command');
    expect(existsSync(markerPath)).toBe(false);
    expect(core.listWaiting().some((w) => w.id === id)).toBe(false);
    expect(toolOutputs()).toBe(0); // nothing ran, so nothing was reported as the command's result
  });
});
