/**
 * axe-core on the main views (grid, inbox, palette, timer form, first run, trust prompt): no
 * serious or critical violations. The terminals' own canvas/DOM rows are xterm's, excluded.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServe, type ServeHandle } from './support/serve';

let serve: ServeHandle | undefined;
test.afterEach(async () => {
  await serve?.stop();
  serve = undefined;
});

/** Serious and critical violations, each with its rule, impact and the first offending nodes. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).exclude('.xterm').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

test('grid, inbox, palette and timer form', async ({ page }) => {
  serve = await startServe(resolve(__dirname, 'fixtures/three-entries'));
  await page.goto(serve.ui);
  await expect(page.locator('[data-testid="pane"]')).toHaveCount(3);
  expect(await seriousViolations(page), 'grid').toEqual([]);

  await page.getByTestId('open-inbox').click();
  await expect(page.getByRole('dialog', { name: 'Attention inbox' })).toBeVisible();
  expect(await seriousViolations(page), 'inbox').toEqual([]);
  await page.keyboard.press('Escape');

  await page.keyboard.press('Control+Shift+KeyK');
  await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible();
  expect(await seriousViolations(page), 'palette').toEqual([]);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'New timer for echoer' }).click();
  await expect(page.getByRole('dialog', { name: 'New timer for echoer' })).toBeVisible();
  expect(await seriousViolations(page), 'timer form').toEqual([]);
});

test('first run and trust prompt', async ({ page }) => {
  const fresh = mkdtempSync(join(tmpdir(), 'sb-axe-first-'));
  writeFileSync(join(fresh, 'package.json'), JSON.stringify({ name: 'fresh', scripts: { dev: 'node -e "setInterval(()=>{},1000)"' } }));
  serve = await startServe(fresh);
  await page.goto(serve.ui);
  await expect(page.getByTestId('first-run')).toBeVisible();
  expect(await seriousViolations(page), 'first run').toEqual([]);
  await serve.stop();

  const untrusted = mkdtempSync(join(tmpdir(), 'sb-axe-trust-'));
  writeFileSync(join(untrusted, 'switchboard.json'), JSON.stringify({ processes: { web: { command: 'cat' } } }));
  serve = await startServe(untrusted, { trust: false });
  await page.goto(serve.ui);
  await expect(page.getByTestId('trust-prompt')).toBeVisible();
  expect(await seriousViolations(page), 'trust prompt').toEqual([]);
});
