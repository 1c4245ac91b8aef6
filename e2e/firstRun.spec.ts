import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pane, paneText, startServe, type ServeHandle } from './support/serve';
import { SwitchboardConfigSchema } from '../src/shared/config';

let serve: ServeHandle | undefined;
test.afterEach(async () => {
  await serve?.stop();
  serve = undefined;
});

/** A project a person has just cloned: an npm dev server, a Procfile.dev worker, a production `start`. */
function freshProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-first-run-'));
  const server =
    "require('http').createServer((q, r) => r.end('ok')).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port) })";
  writeFileSync(join(dir, 'server.js'), server);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'fresh', scripts: { dev: 'node server.js', start: 'node dist/server.js' } }),
  );
  writeFileSync(join(dir, 'Procfile.dev'), 'worker: while true; do echo "processed job"; sleep 1; done\n');
  return dir;
}

test('a folder without switchboard.json proposes its processes; the kept ones are written and run', async ({ page }, testInfo) => {
  const dir = freshProject();
  serve = await startServe(dir);
  await page.goto(serve.ui);
  const firstRun = page.getByTestId('first-run');
  await expect(firstRun).toBeVisible();
  // Agent CLIs on PATH (node_modules/.bin holds claude and codex here) are proposed as well; processes are what we check.
  await expect(page.locator('[data-testid="proposal-entry"][data-section="processes"]')).toHaveCount(3);
  await expect(page.locator('[data-testid="proposal-entry"][data-name="worker"]')).toBeChecked();
  await expect(page.locator('[data-testid="proposal-entry"][data-name="dev"]')).toBeChecked();
  await expect(page.locator('[data-testid="proposal-entry"][data-name="start"]')).not.toBeChecked();
  await page.screenshot({ path: testInfo.outputPath('first-run.png') });
  await testInfo.attach('first-run', { path: testInfo.outputPath('first-run.png'), contentType: 'image/png' });

  await page.locator('[data-testid="proposal-entry"][data-name="worker"]').uncheck();
  for (const agent of await page.locator('[data-testid="proposal-entry"][data-section="agents"]').all()) await agent.uncheck();
  await page.getByTestId('proposal-create').click();
  await expect(page.locator('[data-testid="pane"]')).toHaveCount(1);
  await expect.poll(() => paneText(page, 'dev')).toContain('listening on http://127.0.0.1:');
  await expect(pane(page, 'dev')).toBeVisible();

  const written = JSON.parse(readFileSync(join(dir, 'switchboard.json'), 'utf8')) as Record<string, unknown>;
  expect(SwitchboardConfigSchema.safeParse(written).success).toBe(true);
  expect(written.processes).toEqual({ dev: { command: 'npm', args: ['run', 'dev'] } });
  expect(written.$schema).toMatch(/switchboard\.schema\.json$/);
});

test('a project with a switchboard.json shows its grid, not the proposal', async ({ page }) => {
  const dir = freshProject();
  writeFileSync(join(dir, 'switchboard.json'), JSON.stringify({ processes: {} }));
  serve = await startServe(dir);
  await page.goto(serve.ui);
  await expect(page.getByTestId('app')).toHaveAttribute('data-connected', 'true');
  await expect(page.getByText('No processes yet')).toBeVisible();
  await expect(page.getByTestId('first-run')).toHaveCount(0);
});
