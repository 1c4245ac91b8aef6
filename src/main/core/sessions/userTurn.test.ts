import { afterEach, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { SessionManager } from './sessionManager';
import { typeUserTurn, ECHO_QUIET_MS } from './userTurn';
import { waitForOutput, waitForScreen } from '../../../../test/support/wait';

const SLOW_ECHO = resolve(__dirname, '../../../../test/fixtures/sessions/slowEcho.mjs');
let manager: SessionManager | undefined;
afterEach(async () => {
  await manager?.dispose();
  manager = undefined;
});

async function slowEchoPrompt(delayMs: number, spinner = true) {
  manager = new SessionManager({ killGraceMs: 500 });
  const entry = manager.create({
    name: 'slow',
    kind: 'agent',
    argv: [process.execPath, SLOW_ECHO],
    cwd: process.cwd(),
    env: { ECHO_DELAY_MS: String(delayMs), SPINNER: spinner ? '1' : '0' },
  });
  await entry.start();
  await waitForScreen(entry, (lines) => lines.some((l) => l.includes('ready> ')));
  return entry;
}

describe('typeUserTurn', () => {
  it('regression: Enter waits for the echo of the text, not for any output (a spinner kept writing while the echo lagged)', async () => {
    const entry = await slowEchoPrompt(700);
    await typeUserTurn(entry, 'hello there');
    await waitForOutput(entry, /submitted: hello there|ENTER BEFORE ECHO/);
    expect(entry.ring.read(entry.runOffset).data.toString()).toContain('submitted: hello there');
  });

  it("presses Enter the given pause after the echo (a preset's submitAfterEchoMs)", async () => {
    const entry = await slowEchoPrompt(20, false);
    const pauseMs = 400;
    let echoedAt = 0;
    const probe = entry.screen.onDidChange(() => {
      if (!echoedAt && entry.screen.getVisibleLines().some((l) => l.includes('ready> timed turn'))) echoedAt = Date.now();
    });
    await typeUserTurn(entry, 'timed turn', pauseMs);
    const enterAt = Date.now();
    probe.dispose();
    await waitForOutput(entry, /submitted: timed turn|ENTER BEFORE ECHO/);
    expect(echoedAt).toBeGreaterThan(0);
    expect(enterAt - echoedAt).toBeGreaterThanOrEqual(pauseMs);
  });

  it('submits a multi-line paste (which programs may show abbreviated) once the output after it has gone quiet', async () => {
    const entry = await slowEchoPrompt(20, false);
    const started = Date.now();
    await typeUserTurn(entry, 'first line\nsecond line');
    await waitForOutput(entry, /submitted: first line|ENTER BEFORE ECHO/);
    expect(entry.ring.read(entry.runOffset).data.toString()).toMatch(/submitted: first line\s+second line/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(ECHO_QUIET_MS);
  });
});
