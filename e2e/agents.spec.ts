/**
 * Agent status in the browser: a "new agent" from the UI shows its state, detail and health,
 * with the deciding rule on hover, and an agent waiting for permission flags its pane.
 * The stand-in prints Claude Code 2.1.197's permission dialog (as in recordings/dev-permission-yes);
 * the real CLI is covered in test/status and core/status against the recordings.
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_PRESETS } from '../src/main/core/agents/presets';
import { addAgentFromSidebar, CLAUDE_PERMISSION_STAND_IN } from './support/standIn';
import { pane, startServe, type ServeHandle } from './support/serve';

let serve: ServeHandle;
test.beforeEach(async () => {
  serve = await startServe(mkdtempSync(join(tmpdir(), 'sb-e2e-agents-')));
});
test.afterEach(async () => {
  await serve.stop();
});

test('a new agent shows status, health and waiting-for-permission', async ({ page }) => {
  await page.goto(serve.ui);
  await addAgentFromSidebar(page, 'claude', CLAUDE_PERMISSION_STAND_IN, 'stand-in');

  const agent = pane(page, 'stand-in');
  await expect(agent.getByTestId('health')).toHaveText('ALIVE');
  await expect(agent.getByTestId('state')).not.toContainText('starting', { timeout: 20_000 });
  await expect(agent.getByTestId('state')).toHaveAttribute('title', /.+/);
  // Claude Code's preset was verified against the real CLI: no mark.
  await expect(agent.getByTestId('unverified')).toHaveCount(0);

  await agent.locator('.pane-terminal').click();
  await page.keyboard.press('Enter');
  await expect(agent.getByTestId('state')).toContainText('waiting · permission');
  await expect(agent.getByTestId('state')).toHaveAttribute('title', /permission-prompt/);
  await expect(page.locator('[data-testid="sidebar-entry"]').filter({ hasText: 'stand-in' })).toContainText('waiting');
  await expect(page).toHaveTitle(/^\(1\) Switchboard/);

  await page.keyboard.press('Enter');
  await expect(agent.getByTestId('state')).not.toContainText('waiting');
  await expect(page).toHaveTitle(/^Switchboard/);
  // Stopped by a person: shown as stopped, not as a dead agent (red is for a run that ended on its own).
  await agent.getByTestId('stop').click();
  await expect(agent.getByTestId('state')).toHaveText(/^○ stopped/);
  await expect(agent.getByTestId('health')).toHaveCount(0);
});

test('an unverified preset says so next to its status, in the pane header and the sidebar', async ({ page }) => {
  await page.goto(serve.ui);
  await addAgentFromSidebar(page, 'cursor-agent', 'printf "> "; sleep 1000', 'cur');

  const agent = pane(page, 'cur');
  await expect(agent.getByTestId('state')).toBeVisible();
  const mark = agent.getByRole('note', { name: /^unverified preset: cursor-agent/ });
  await expect(mark).toHaveText('unverified');
  const sidebar = page.locator('[data-testid="sidebar-entry"]').filter({ hasText: 'cur' });
  await expect(sidebar.getByRole('note', { name: /^unverified preset: cursor-agent/ })).toBeVisible();
  await agent.getByTestId('stop').click();
});

test('screens the rules do not know, while the agent keeps printing, read "low confidence" with the tested version', async ({ page }) => {
  await page.goto(serve.ui);
  // Output that changes every 300 ms and matches none of Claude Code's rules: a changed CLI.
  const drifting = 'i=0; while true; do i=$((i+1)); printf "\\rcomposing part %s " $i; sleep 0.3; done';
  await addAgentFromSidebar(page, 'claude', drifting, 'drifter');

  const agent = pane(page, 'drifter');
  const verified = BUILTIN_PRESETS.get('claude')!.verified;
  const version = verified === 'unverified' ? '' : verified.cliVersion;
  const mark = agent.getByRole('note', { name: `low confidence: no rule matched — the CLI may have changed (version ${version})` });
  await expect(mark).toHaveText('low confidence', { timeout: 30_000 });
  await expect(agent.getByTestId('state')).toHaveAttribute('title', /low confidence: no rule matched/);
  await agent.getByTestId('stop').click();
  await expect(mark).toHaveCount(0);
});
