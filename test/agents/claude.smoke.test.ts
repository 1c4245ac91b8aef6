/**
 * Proves the Claude Code fixtures drive the REAL `claude` binary (2.1.332) offline:
 * a real PTY, a headless terminal for the screen, the mock Messages API for the model.
 * Every wait is on an event (mock timeline or a parsed screen write), never a sleep.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  acceptTrustDialog,
  CLAUDE_BIN,
  CLAUDE_SCREEN,
  CLAUDE_VERSION,
  createClaudeHarness,
  declineAutoModeOffer,
  isClaudeIdle,
} from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic, type AnthropicTurn } from '../fixtures/anthropic/mockAnthropic';
import { runHeadless, useAgentSessions } from './agentSessions';
import type { PtyScreen } from './ptyScreen';

/** Headless `claude -p` finishes in about a second here; generous for a busy machine. */
const HEADLESS_TIMEOUT_MS = 30_000;
/** The auto-allowed command; the sleep proves the turn waits for the tool to finish. */
const AUTO_COMMAND = 'sleep 1 && echo done';
/** A command outside the allow list, so Claude Code must ask. Port 9 (discard) is closed: nothing is sent anywhere. */
const RISKY_COMMAND = 'curl -X POST http://127.0.0.1:9/switchboard-test';

const { startMock, startHarness, startSession } = useAgentSessions({
  startMock: (turns: AnthropicTurn[]) => startMockAnthropic({ turns }),
  createHarness: createClaudeHarness,
});

/** Idle: the empty input row between its rules is back and no turn is running. */
function waitForIdle(screen: PtyScreen): Promise<void> {
  return screen.waitUntil(() => isClaudeIdle(screen), {
    label: 'Claude Code to be idle (empty input row between its rules, no "esc to interrupt")',
  });
}

/** True when some row is the `❯` prompt with a `─` rule directly above and below it. */
function promptBetweenRules(lines: string[]): boolean {
  const isRule = (line: string | undefined): boolean => /^─{20,}$/.test(line ?? '');
  return lines.some((line, i) => line.startsWith(CLAUDE_SCREEN.promptGlyph) && isRule(lines[i - 1]) && isRule(lines[i + 1]));
}

describe('Claude Code (real CLI) against the mock Messages API', () => {
  it('is the version the fixtures were verified against', () => {
    expect(execFileSync(CLAUDE_BIN, ['--version'], { encoding: 'utf8' })).toContain(CLAUDE_VERSION);
  });

  it('starts at its idle prompt', async () => {
    const { screen } = await startSession([]);
    await waitForIdle(screen);
    expect(promptBetweenRules(screen.lines()), screen.describe()).toBe(true);
  });

  it('sends a typed prompt to the mock and shows the streamed answer', async () => {
    const answer = 'Hello from the mock model, streamed word by word.';
    const { mock, screen, ctx } = await startSession([[{ text: answer, firstTokenDelayMs: 200, chunkDelayMs: 20 }]]);
    await waitForIdle(screen);
    await screen.submit('Say hello to Switchboard');
    const request = await mock.waitFor('request', (e) => e.kind === 'main', ctx);
    expect(request.userText).toBe('Say hello to Switchboard');
    expect(mock.lastUserMessage()).toBe('Say hello to Switchboard');
    await mock.waitFor('stream_end', (e) => e.requestId === request.requestId, ctx);
    await screen.waitForText(answer);
    await waitForIdle(screen);
  });

  it('runs an auto-allowed Bash command unasked and sends its tool_result back', async () => {
    const { mock, screen, ctx } = await startSession([
      [{ text: 'Running it now.' }, { toolUse: { name: 'Bash', input: { command: AUTO_COMMAND, description: 'Wait, then print done' } } }],
      [{ text: 'The command printed done.' }],
    ]);
    await waitForIdle(screen);
    await screen.submit('Run the sleep command');
    const toolUse = await mock.waitFor('tool_use', undefined, ctx);
    // No keystroke after Enter: the result can only arrive if Claude Code ran the tool by itself.
    const result = await mock.waitFor('tool_result', (e) => e.toolUseId === toolUse.id, ctx);
    expect(result).toMatchObject({ isError: false, content: 'done', turn: 1 });
    expect(result.t - toolUse.t).toBeGreaterThanOrEqual(1_000);
    await screen.waitForText('The command printed done.');
    await waitForIdle(screen);
  });

  it('asks permission before a risky command and runs it only after approval', async () => {
    // Manual mode: auto mode (the default) would ask its server-side check, which the mock does not pass.
    const { mock, screen, ctx } = await startSession(
      [[{ toolUse: { name: 'Bash', input: { command: RISKY_COMMAND, description: 'Post to a local endpoint' } } }], [{ text: 'Posted.' }]],
      { defaultMode: 'default' },
    );
    await declineAutoModeOffer(screen);
    await screen.submit('Post the data');
    const toolUse = await mock.waitFor('tool_use', undefined, ctx);
    await screen.waitForText(CLAUDE_SCREEN.permissionQuestion);
    expect(screen.text()).toContain(RISKY_COMMAND);
    expect(mock.events.some((e) => e.type === 'tool_result')).toBe(false);
    // "1. Yes" is preselected; the dialog drops keys for a moment after it is drawn.
    await screen.pressUntil('\r', () => !screen.text().includes(CLAUDE_SCREEN.permissionQuestion), { label: 'the permission answered' });
    const result = await mock.waitFor('tool_result', (e) => e.toolUseId === toolUse.id, ctx);
    expect(result.content).toContain('curl');
    await screen.waitForText('Posted.');
  });

  it('retries after 529 Overloaded and then streams the answer', async () => {
    const { mock, screen, ctx } = await startSession([[{ httpError: 529 }, { httpError: 529 }, { text: 'Answer after two overloads.' }]]);
    await waitForIdle(screen);
    await screen.submit('Are you overloaded?');
    await mock.waitFor('http_error', (e) => e.turn === 0, ctx);
    await screen.waitForText(/API error · retrying in \d+s · attempt \d+\/\d+/);
    await mock.waitFor('stream_end', (e) => e.turn === 0, ctx);
    expect(mock.events.filter((e) => e.type === 'http_error').map((e) => e.status)).toEqual([529, 529]);
    await screen.waitForText('Answer after two overloads.');
  });

  it('shows the folder trust dialog when the folder is not trusted', async () => {
    const { screen } = await startSession([], { trusted: false });
    await screen.waitForText(CLAUDE_SCREEN.trustQuestion);
    expect(isClaudeIdle(screen)).toBe(false);
    await acceptTrustDialog(screen);
    await waitForIdle(screen);
  });

  it('prints a stream-json result with usage in headless -p mode', async () => {
    const mock = await startMock([[{ text: 'Headless hello.' }]]);
    const harness = await startHarness({ baseUrl: mock.url });
    const { code, stdout, stderr } = await runHeadless(
      harness.headlessArgv('Say hello', { maxTurns: 2 }),
      harness,
      'claude -p',
      HEADLESS_TIMEOUT_MS,
    );
    expect(code, stderr).toBe(0);
    const messages = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const result = messages.find((m) => m.type === 'result');
    expect(result, stdout).toMatchObject({ subtype: 'success', is_error: false, result: 'Headless hello.' });
    const usage = (result as { usage: { input_tokens: number; output_tokens: number } }).usage;
    expect(usage.input_tokens).toBeGreaterThan(0);
    expect(usage.output_tokens).toBeGreaterThan(0);
    expect(mock.lastUserMessage()).toBe('Say hello');
  });
});
