/**
 * The attention inbox with two real Claude Code agents (mock Messages API each) waiting for
 * permission at once: approving one from the inbox runs its tool (its mock sees the tool_result)
 * while the other keeps waiting, untouched: its mock sees nothing new and its prompt on screen is
 * the same prompt (same fingerprint). Writes docs/screenshots/inbox.png.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pane, startServe, type ServeHandle } from './support/serve';
import { startMockAnthropic, type MockAnthropic } from '../test/fixtures/anthropic/mockAnthropic';
import { CLAUDE_BIN, createClaudeHarness, type ClaudeHarness } from '../test/fixtures/anthropic/claudeHarness';

const SCREENSHOT = resolve(__dirname, '../docs/screenshots/inbox.png');
/** Two Claude Code start-ups on a loaded 2-core machine. */
const TEST_TIMEOUT_MS = 240_000;
const WAITING_TIMEOUT_MS = 120_000;

interface Agent {
  name: string;
  command: string;
  mock: MockAnthropic;
  harness: ClaudeHarness;
}

let serve: ServeHandle | undefined;
const agents: Agent[] = [];

test.afterEach(async () => {
  await serve?.stop();
  for (const a of agents.splice(0)) {
    await a.mock.close();
    await a.harness.cleanup();
  }
});

async function claudeAgent(name: string, command: string): Promise<Agent> {
  const mock = await startMockAnthropic({
    turns: [[{ toolUse: { name: 'Bash', input: { command, description: `Post for ${name}` } } }], [{ text: 'Posted.' }]],
  });
  const harness = await createClaudeHarness({ baseUrl: mock.url });
  const agent = { name, command, mock, harness };
  agents.push(agent);
  return agent;
}

test('two Claude Code agents wait for permission: approving one from the inbox never types into the other', async ({ page }) => {
  test.setTimeout(TEST_TIMEOUT_MS);
  const alpha = await claudeAgent('alpha', 'curl -X POST http://127.0.0.1:9/alpha-upload');
  const beta = await claudeAgent('beta', 'curl -X POST http://127.0.0.1:9/beta-upload');
  const project = mkdtempSync(join(tmpdir(), 'sb-e2e-inbox-'));
  const entry = (a: Agent) => ({
    preset: 'claude',
    command: CLAUDE_BIN,
    args: [`Upload the file for ${a.name}`],
    cwd: a.harness.cwd,
    env: a.harness.env,
    autoStart: true,
  });
  writeFileSync(join(project, 'switchboard.json'), JSON.stringify({ agents: { alpha: entry(alpha), beta: entry(beta) } }));
  serve = await startServe(project);
  await page.goto(serve.ui);

  for (const a of [alpha, beta]) {
    await expect(pane(page, a.name).getByTestId('state')).toContainText('waiting · permission', { timeout: WAITING_TIMEOUT_MS });
  }
  await expect(page.getByTestId('open-inbox')).toContainText('2 waiting');

  await page.keyboard.press('Control+Shift+KeyE');
  const inbox = page.getByRole('dialog', { name: 'Attention inbox' });
  const items = inbox.getByTestId('inbox-item');
  await expect(items).toHaveCount(2);
  const item = (a: Agent) => inbox.locator(`[data-testid="inbox-item"][data-name="${a.name}"]`);
  for (const a of [alpha, beta]) {
    await expect(item(a).getByTestId('inbox-question')).toContainText(a.command);
    await expect(item(a).getByTestId('inbox-question')).toContainText('Do you want to proceed?');
    await expect(item(a).getByRole('button', { name: `Yes (approve) — ${a.name}` })).toBeVisible();
  }
  await page.screenshot({ path: SCREENSHOT });
  const axe = await new AxeBuilder({ page }).include('[data-testid="inbox"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  const betaFingerprint = await item(beta).getAttribute('data-fingerprint');
  expect(betaFingerprint).toMatch(/^[0-9a-f]{16}$/);
  const betaMark = beta.mock.mark();

  await item(alpha).getByRole('button', { name: `Yes (approve) — alpha` }).click();
  // The approved tool ran: Claude Code sent its result back to alpha's model.
  const toolUse = await alpha.mock.waitFor('tool_use');
  const result = await alpha.mock.waitFor('tool_result', (e) => e.toolUseId === toolUse.id, { timeoutMs: 60_000 });
  // Ran (curl's own failure to connect is fine), not the rejection Claude Code reports after a No.
  expect(result.content).not.toMatch(/doesn.t want to proceed|rejected/i);
  await expect(pane(page, 'alpha').getByTestId('state')).not.toContainText('waiting', { timeout: 30_000 });
  await expect(items).toHaveCount(1);
  await expect(item(beta)).toHaveAttribute('data-fingerprint', betaFingerprint!);

  // Beta got no keys: still waiting on the same prompt, and its model heard nothing since.
  await expect(pane(page, 'beta').getByTestId('state')).toContainText('waiting · permission');
  const isMain = (e: object) => (e as { kind?: string }).kind === 'main';
  expect(beta.mock.events.filter((e) => e.seq >= betaMark && isMain(e))).toEqual([]);
  expect(beta.mock.events.some((e) => e.type === 'tool_result')).toBe(false);

  // Deny beta from the inbox: Escape, the tool never runs.
  await item(beta).getByRole('button', { name: 'No (deny) — beta' }).click();
  await expect(pane(page, 'beta').getByTestId('state')).not.toContainText('waiting', { timeout: 30_000 });
  await expect(inbox.getByText('No agent is waiting.')).toBeVisible();
  expect(beta.mock.events.some((e) => e.type === 'tool_result' && !e.isError)).toBe(false);
});
