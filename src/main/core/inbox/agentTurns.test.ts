/**
 * A user turn to an agent whose TUI did not take it: Enter once more when the text is still shown,
 * the turn typed once more when the keys were lost before the CLI read input, never typed twice
 * when the CLI showed it. A real PTY running a prompt fixture; the agent's status is a stand-in
 * that turns active when the fixture reports a submitted turn.
 */
import { afterEach, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { Emitter } from '../base';
import { SessionManager, type ProcessEntry } from '../sessions';
import type { AgentStatusDecoration } from '../agents';
import type { AgentStatusInfo } from '../../../shared/status';
import { AgentTurns } from './agentTurns';
import { waitForOutput, waitForScreen } from '../../../../test/support/wait';

const SLOW_ECHO = resolve(__dirname, '../../../../test/fixtures/sessions/slowEcho.mjs');
const CONFIRM_MS = 1_000;
let manager: SessionManager | undefined;
afterEach(async () => {
  await manager?.dispose();
  manager = undefined;
});

/** A prompt fixture as an agent whose status goes active on each submitted turn (or never, with `takesTurns` false). */
async function promptAgent(env: Record<string, string>, takesTurns = true) {
  manager = new SessionManager({ killGraceMs: 500 });
  const entry = manager.create({ name: 'prompt', kind: 'agent', argv: [process.execPath, SLOW_ECHO], cwd: process.cwd(), env });
  const changed = new Emitter<AgentStatusInfo>();
  const tracker = { status: { primary: 'idle' } as AgentStatusInfo, onDidChangeStatus: changed.event };
  entry.onDidWriteOutput((chunk) => {
    if (!takesTurns || !chunk.text.includes('submitted:')) return;
    tracker.status = { ...tracker.status, primary: 'active' };
    changed.fire(tracker.status);
  });
  const decoration = { preset: { id: 'stand-in', submitAfterEchoMs: 100 }, tracker } as unknown as AgentStatusDecoration;
  const turns = new AgentTurns(
    {
      entry: () => entry,
      entries: () => [entry],
      decorationOf: () => decoration,
      isOpen: () => true,
      requestAttention: () => undefined,
    },
    10_000,
    CONFIRM_MS,
  );
  await entry.start();
  await waitForScreen(entry, (lines) => lines.some((l) => l.includes('ready> ')));
  return { entry, turns };
}

function submitted(entry: ProcessEntry, text: string): number {
  return entry.ring.read(entry.runOffset).data.toString().split(`submitted: ${text}`).length - 1;
}

it('types the turn once more when the CLI lost its keys (drawn prompt, input not read yet), and it is submitted once', async () => {
  // Deaf past the echo wait (3 s) and the Enter: both the text and its Enter are lost.
  const { entry, turns } = await promptAgent({ ECHO_DELAY_MS: '20', SPINNER: '0', DEAF_MS: '3500' });
  await turns.sendUserTurn(entry.id, 'lost the first time');
  await waitForOutput(entry, /submitted: lost the first time/);
  expect(submitted(entry, 'lost the first time')).toBe(1);
}, 20_000);

it('never types a turn twice that the CLI showed: Enter once more only', async () => {
  const { entry, turns } = await promptAgent({ ECHO_DELAY_MS: '20', SPINNER: '0' }, false);
  await turns.sendUserTurn(entry.id, 'shown but not taken');
  // The second Enter, on an empty prompt, is reported by the fixture as one with nothing typed.
  await waitForOutput(entry, /ENTER BEFORE ECHO \(0 typed/);
  expect(submitted(entry, 'shown but not taken')).toBe(1);
  const typedTimes = entry.ring.read(entry.runOffset).data.toString().split('ready> shown but not taken').length - 1;
  expect(typedTimes).toBe(1);
}, 20_000);
