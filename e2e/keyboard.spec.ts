/**
 * The command palette, timers from the UI and the screen-reader option in Chromium through
 * `serve`. Every action runs through the same control calls as the buttons.
 */
import { expect, test } from '@playwright/test';
import { resolve } from 'node:path';
import { pane, paneText, serveForEachTest } from './support/serve';

const PROJECT = resolve(__dirname, 'fixtures/three-entries');
const running = serveForEachTest(PROJECT);

test('Ctrl+Shift+K opens the palette from inside a terminal; words in any order find an action; Enter runs it', async ({ page }) => {
  await page.goto(running().ui);
  await expect(page.locator('[data-testid="pane"]')).toHaveCount(3);
  await pane(page, 'shell').locator('.pane-terminal').click();
  await page.keyboard.press('Control+Shift+KeyK');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette).toBeVisible();
  const search = palette.getByRole('combobox', { name: 'Search commands' });
  await expect(search).toBeFocused();
  await search.fill('echoer stop');
  await expect(palette.getByRole('option')).toHaveText(['Stop echoer']);
  await page.keyboard.press('Enter');
  await expect(palette).toHaveCount(0);
  await expect(pane(page, 'echoer').getByTestId('state')).toContainText('stopped');

  // Arrow keys move the selection; the inbox opens from the palette too.
  await page.keyboard.press('Control+Shift+KeyK');
  await search.fill('start');
  await expect(palette.getByRole('option', { selected: true })).toHaveText('Start echoer');
  await page.keyboard.press('ArrowDown');
  await expect(palette.getByRole('option', { selected: true })).toHaveText('Restart clock');
  await search.fill('inbox');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Attention inbox' })).toContainText('No agent is waiting.');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a delay timer set from the pane header is typed into its entry when due; the palette opens the same form', async ({ page }) => {
  await page.goto(running().ui);
  const echoer = pane(page, 'echoer');
  await echoer.getByRole('button', { name: 'New timer for echoer' }).click();
  const form = page.getByRole('dialog', { name: 'New timer for echoer' });
  await form.getByLabel('Delay (minutes)').fill('0.03');
  await form.getByLabel('Body').fill('timer-from-the-ui-17');
  await form.getByLabel('Label (optional)').fill('ui check');
  await form.getByRole('button', { name: 'Set timer' }).click();
  await expect(form).toHaveCount(0);
  await expect(echoer.getByTestId('timer-indicator')).toHaveAttribute('title', /ui check/);
  await expect.poll(() => paneText(page, 'echoer'), { timeout: 15_000 }).toContain('timer-from-the-ui-17');
  await expect(echoer.getByTestId('timer-indicator')).toHaveCount(0);

  // From the palette: the same form; an idle timer on a non-agent is refused with the core's reason.
  await page.keyboard.press('Control+Shift+KeyK');
  await page.getByRole('combobox', { name: 'Search commands' }).fill('timer echoer');
  await page.keyboard.press('Enter');
  await expect(form).toBeVisible();
  await form.getByLabel('Fires').selectOption('idle_all');
  await form.getByLabel('Body').fill('never');
  await form.getByRole('button', { name: 'Set timer' }).click();
  await expect(form.getByRole('alert')).toContainText('at least one agent');
  await page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);
});

test('screen reader mode turns on xterm’s accessibility tree in every pane and is remembered after a reload', async ({ page }) => {
  await page.goto(running().ui);
  await expect(page.locator('[data-testid="pane"]')).toHaveCount(3);
  await expect(page.locator('.xterm-accessibility')).toHaveCount(0);
  await page.getByLabel('Screen reader mode (terminals)').check();
  await expect(page.locator('.xterm-accessibility')).toHaveCount(3);
  await page.reload();
  await expect(page.getByLabel('Screen reader mode (terminals)')).toBeChecked();
  await expect(page.locator('.xterm-accessibility')).toHaveCount(3);
});

test('sidebar rows are reachable with Tab and focus their pane with Enter', async ({ page }) => {
  await page.goto(running().ui);
  const names = page.getByTestId('entry-name');
  await expect(names).toHaveCount(3);
  await names.nth(2).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="pane"].focused')).toHaveAttribute('data-name', 'echoer');
  await expect(names.nth(2)).toHaveAttribute('aria-current', 'true');
});
