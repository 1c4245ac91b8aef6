/**
 * Proves the Codex fixtures drive the REAL `codex` CLI (0.169.0) offline: a real PTY, a
 * headless terminal for the screen, the mock Responses API for the model.
 * Every wait is on an event (mock timeline or a parsed screen write), never a sleep.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CODEX_BIN, CODEX_SCREEN, CODEX_VERSION, createCodexHarness } from '../fixtures/openai/codexHarness';
import { startMockResponses, type ResponsesTurn } from '../fixtures/openai/mockResponses';
import { runHeadless, useAgentSessions } from './agentSessions';
import type { PtyScreen } from './ptyScreen';

/** `codex exec` finishes in about a second here; generous for a busy machine. */
const EXEC_TIMEOUT_MS = 30_000;

const { startMock, startHarness, startSession } = useAgentSessions({
  startMock: (turns: ResponsesTurn[]) => startMockResponses({ turns }),
  createHarness: createCodexHarness,
});

/** Idle: header loaded (shows the folder, not "loading"), composer and hint visible, no turn running. */
function waitForIdle(screen: PtyScreen): Promise<void> {
  return screen.waitUntil(
    () => {
      const text = screen.text();
      return (
        text.includes(CODEX_SCREEN.composerPlaceholder) &&
        text.includes(CODEX_SCREEN.idleHint) &&
        text.includes('~/project') &&
        !CODEX_SCREEN.loadingHeader.test(text) &&
        !text.includes(CODEX_SCREEN.busyHint)
      );
    },
    { label: 'Codex to be idle (composer shown, header loaded, no "esc to interrupt")' },
  );
}

describe('Codex (real CLI) against the mock Responses API', () => {
  it('is the version the fixtures were verified against', () => {
    expect(execFileSync(CODEX_BIN, ['--version'], { encoding: 'utf8' })).toContain(CODEX_VERSION);
  });

  it('starts idle at its composer', async () => {
    const { screen } = await startSession([]);
    await waitForIdle(screen);
    expect(screen.text()).toContain(CODEX_SCREEN.banner);
  });

  it('sends a typed prompt to the mock and shows the streamed answer', async () => {
    const answer = 'Hello from the Codex mock, streamed word by word.';
    const { mock, screen, ctx } = await startSession([[{ text: answer, firstTokenDelayMs: 200, chunkDelayMs: 20 }]]);
    await waitForIdle(screen);
    await screen.submit('Say hello to Switchboard');
    const request = await mock.waitFor('request', (e) => e.kind === 'main', ctx);
    expect(request.userText).toBe('Say hello to Switchboard');
    await screen.waitForText(CODEX_SCREEN.busyHint);
    await mock.waitFor('stream_end', (e) => e.requestId === request.requestId, ctx);
    await screen.waitForText(answer);
    await waitForIdle(screen);
    expect(mock.lastUserMessage()).toBe('Say hello to Switchboard');
  });

  it('runs a scripted exec_command and sends its output back', async () => {
    const { mock, screen, ctx } = await startSession([
      [{ functionCall: { name: 'exec_command', arguments: { cmd: 'echo done-by-codex' } } }],
      [{ text: 'The command printed done.' }],
    ]);
    await waitForIdle(screen);
    await screen.submit('Run the echo command');
    const call = await mock.waitFor('function_call', undefined, ctx);
    const output = await mock.waitFor('tool_output', (e) => e.callId === call.callId, ctx);
    expect(output.output).toContain('done-by-codex');
    await screen.waitForText('The command printed done.');
  });

  it('asks whether to trust the folder when it is not trusted', async () => {
    const { screen } = await startSession([], { trusted: false });
    await screen.waitForText(CODEX_SCREEN.trustAccept);
    expect(screen.text()).toContain(CODEX_SCREEN.trustQuestion);
    // Codex drops keys for a moment after drawing this dialog (and draws nothing when it is
    // ready), so Enter is repeated until the dialog is gone; an extra Enter on an empty composer is a no-op.
    await screen.pressUntil('\r', () => !screen.text().includes(CODEX_SCREEN.trustQuestion), { label: 'the trust dialog to accept Enter' });
    await waitForIdle(screen);
  });

  it('answers headless `codex exec --json` with the agent message and usage', async () => {
    const mock = await startMock([[{ text: 'Headless Codex hello.' }]]);
    const harness = await startHarness({ baseUrl: mock.url });
    const { code, stdout, stderr } = await runHeadless(harness.execArgv('Say hello'), harness, 'codex exec', EXEC_TIMEOUT_MS);
    expect(code, stderr).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; item?: { type: string; text?: string }; usage?: { output_tokens: number } });
    expect(
      events.some((e) => e.item?.type === 'agent_message' && e.item.text === 'Headless Codex hello.'),
      stdout,
    ).toBe(true);
    expect(events.find((e) => e.type === 'turn.completed')?.usage?.output_tokens, stdout).toBeGreaterThan(0);
  });
});
