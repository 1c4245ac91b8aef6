/**
 * The README's pictures, taken from the running app through `serve`: a realistic project (a Vite
 * dev server, an API, a worker and an agent waiting for permission) beside a second open project,
 * and the welcome view with recent projects. `UPDATE_SCREENSHOTS=1` writes them to
 * docs/screenshots/ (commit them); otherwise they go to the test's output folder.
 */
import { expect, test, type TestInfo } from '@playwright/test';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { addAgentFromSidebar, CLAUDE_PERMISSION_STAND_IN } from './support/standIn';
import { pane, paneText, startServe, type ServeHandle } from './support/serve';
import { freePort } from '../test/support/ports';

const ROOT = resolve(__dirname, '..');
const DOCS_SCREENSHOTS = join(ROOT, 'docs/screenshots');

let serve: ServeHandle | undefined;
test.afterEach(async () => {
  await serve?.stop();
  serve = undefined;
});

function screenshotPath(testInfo: TestInfo, name: string): string {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return testInfo.outputPath(name);
  mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
  return join(DOCS_SCREENSHOTS, name);
}

async function storefront(root: string): Promise<string> {
  const dir = join(root, 'storefront');
  mkdirSync(join(dir, 'api'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Storefront</title><h1>Storefront</h1>');
  writeFileSync(
    join(dir, 'api/server.js'),
    "require('http').createServer((q, r) => { console.log(q.method + ' ' + q.url + ' 200'); r.end('{}'); })" +
      ".listen(Number(process.env.PORT), '127.0.0.1', () => console.log('API listening on http://127.0.0.1:' + process.env.PORT));\n",
  );
  const config = {
    processes: {
      web: {
        command: process.execPath,
        args: [join(ROOT, 'node_modules/vite/bin/vite.js'), '--host', '127.0.0.1', '--port', String(await freePort()), '--strictPort'],
      },
      api: { command: 'node', args: ['api/server.js'], env: { PORT: String(await freePort()) } },
      worker: {
        command: 'bash',
        args: ['-c', 'i=0; while true; do i=$((i+1)); echo "[worker] processed job #$i (emails)"; sleep 2; done'],
      },
    },
  };
  writeFileSync(join(dir, 'switchboard.json'), JSON.stringify(config));
  return dir;
}

function billing(root: string): string {
  const dir = join(root, 'billing-api');
  mkdirSync(dir, { recursive: true });
  const config = { processes: { server: { command: 'bash', args: ['-c', 'echo "billing ready on :9090"; exec sleep 1000'] } } };
  writeFileSync(join(dir, 'switchboard.json'), JSON.stringify(config));
  return dir;
}

test('README screenshots: the grid of a realistic project, and the welcome view', async ({ page }, testInfo) => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sb-screens-')));
  const shop = await storefront(root);
  serve = await startServe([shop, billing(root)], { roots: [root] });
  await page.goto(serve.ui);
  await expect(page.getByTestId('app')).toHaveAttribute('data-connected', 'true');
  await expect.poll(() => paneText(page, 'web'), { timeout: 30_000 }).toContain('Local:');
  await expect.poll(() => paneText(page, 'api')).toContain('API listening');

  await addAgentFromSidebar(page, 'claude', CLAUDE_PERMISSION_STAND_IN, 'claude');
  const agent = pane(page, 'claude');
  await expect(agent.getByTestId('state')).not.toContainText('starting', { timeout: 20_000 });
  await agent.locator('.pane-terminal').click();
  await page.keyboard.press('Enter');
  await expect(agent.getByTestId('state')).toContainText('waiting · permission');
  await page.mouse.click(5, 890); // focus away from the terminal so its cursor does not blink into the picture
  await page.screenshot({ path: screenshotPath(testInfo, 'grid.png') });

  // The welcome view lists what ran and what waits for a person; billing-api was closed, storefront is open.
  await page.locator('[data-testid="project-tab"][data-project="billing-api"] [data-testid="project-close"]').click();
  await expect(page.getByTestId('project-tab')).toHaveCount(1);
  await page.getByTestId('project-add').click();
  await expect(page.locator(`[data-testid="recent-project"][data-dir="${shop}"]`)).toContainText('1 needs you');
  await expect(page.locator(`[data-testid="recent-project"][data-dir="${join(root, 'billing-api')}"]`)).toContainText(
    'ran last time: server',
  );
  await page.getByTestId('path-input').fill(`${root}/`);
  await expect(page.getByTestId('path-completion')).toHaveCount(2);
  await page.screenshot({ path: screenshotPath(testInfo, 'welcome.png') });
});
