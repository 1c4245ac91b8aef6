import { expect, test } from '@playwright/test';
import { resolve } from 'node:path';
import { pane, paneText, serveForEachTest } from './support/serve';

const PROJECT = resolve(__dirname, 'fixtures/three-entries');
const running = serveForEachTest(PROJECT);

test("the UI secret travels in the fragment, leaves the address bar, and only this server's cookie opens the WebSocket", async ({
  page,
  request,
}) => {
  const ui = new URL(running().ui);
  const secret = new URLSearchParams(ui.hash.slice(1)).get('token') ?? '';
  expect(secret).toMatch(/^[\w-]{43}$/);
  expect(secret).not.toBe(running().token); // never the MCP app token
  expect(ui.search).toBe('');
  expect((await request.post(`${ui.origin}/session`, { headers: { Authorization: 'Bearer wrong' } })).status()).toBe(401);
  const wsRefused = (wsUrl: string) =>
    page.evaluate(
      async (url) =>
        await new Promise<boolean>((r) => {
          const ws = new WebSocket(url);
          ws.onopen = () => r(false);
          ws.onerror = () => r(true);
        }),
      wsUrl,
    );
  await page.goto(`${ui.origin}/`);
  expect(await wsRefused(`${ui.origin.replace('http', 'ws')}/ws`)).toBe(true);
  expect(await wsRefused(`${ui.origin.replace('http', 'ws')}/ws?token=${secret}`)).toBe(true);

  await page.goto('about:blank'); // the same URL plus a fragment would not reload the page
  await page.goto(running().ui);
  await expect(page.locator('[data-testid="app"][data-connected="true"]')).toBeVisible();
  expect(page.url()).toBe(`${ui.origin}/`);
  const cookies = await page.context().cookies();
  expect(cookies).toEqual([expect.objectContaining({ name: `sb_ui_${ui.port}`, httpOnly: true, sameSite: 'Strict', path: '/' })]);
  expect(await page.evaluate(() => document.cookie)).toBe('');
  expect(await wsRefused(`${ui.origin.replace('http', 'ws')}/ws`)).toBe(false);
});

test('shows live output of every entry, echoes typing, and survives a reload', async ({ page }, testInfo) => {
  await page.goto(running().ui);
  await expect(page.locator('[data-testid="pane"]')).toHaveCount(3);
  await expect(page.locator('[data-testid="sidebar-entry"]')).toHaveCount(3);

  await expect.poll(() => paneText(page, 'clock')).toMatch(/tick \d+/);
  const firstTick = Number(/tick (\d+)/.exec(await paneText(page, 'clock'))![1]);
  await expect
    .poll(async () => Math.max(...[...(await paneText(page, 'clock')).matchAll(/tick (\d+)/g)].map((m) => Number(m[1]))))
    .toBeGreaterThan(firstTick + 1);

  await pane(page, 'echoer').locator('.pane-terminal').click();
  await page.keyboard.type('hello from the browser');
  await page.keyboard.press('Enter');
  await expect.poll(() => paneText(page, 'echoer')).toMatch(/hello from the browser\s*\n\s*hello from the browser/);

  await pane(page, 'shell').locator('.pane-terminal').click();
  await page.keyboard.type('echo $((6*7))-marker');
  await page.keyboard.press('Enter');
  await expect.poll(() => paneText(page, 'shell')).toContain('42-marker');

  await page.screenshot({ path: testInfo.outputPath('grid.png'), fullPage: true });
  await testInfo.attach('grid', { path: testInfo.outputPath('grid.png'), contentType: 'image/png' });

  // A reloaded window re-attaches to the running entries and shows their current screen.
  await page.reload();
  await expect(page.locator('[data-testid="pane"]')).toHaveCount(3);
  await expect.poll(() => paneText(page, 'shell')).toContain('42-marker');
  await expect.poll(() => paneText(page, 'echoer')).toContain('hello from the browser');
});

test('restart and close from the UI', async ({ page }) => {
  await page.goto(running().ui);
  await expect.poll(() => paneText(page, 'clock')).toMatch(/tick \d+/);
  await pane(page, 'clock').getByTestId('restart').click();
  await expect.poll(() => paneText(page, 'clock')).toContain('restarted');
  await expect.poll(async () => (await paneText(page, 'clock')).split('restarted')[1] ?? '').toMatch(/tick 1\b/);

  await pane(page, 'echoer').getByTestId('close').click();
  await expect(page.locator('[data-testid="pane"]')).toHaveCount(2);
  await expect(page.locator('[data-testid="sidebar-entry"]')).toHaveCount(2);

  await pane(page, 'shell').getByTestId('stop').click();
  await expect(pane(page, 'shell').getByTestId('state')).toContainText('stopped');
  await pane(page, 'shell').getByTestId('start').click();
  await expect(pane(page, 'shell').getByTestId('state')).toContainText(/starting|running|ready/);
});

test('a flooding pane does not starve typing in another', async ({ page }) => {
  await page.goto(running().ui);
  await page.getByTestId('add-kind').selectOption('command');
  await page.getByTestId('add-command').fill('yes flood-line');
  await page.getByTestId('add-name').fill('flood');
  await page.getByTestId('add-submit').click();
  await expect(pane(page, 'flood')).toBeVisible();
  await expect.poll(() => paneText(page, 'flood')).toContain('flood-line');

  await pane(page, 'echoer').locator('.pane-terminal').click();
  for (const word of ['alpha', 'bravo', 'charlie']) {
    await page.keyboard.type(`${word}-typed`);
    await page.keyboard.press('Enter');
    await expect.poll(() => paneText(page, 'echoer'), { timeout: 10_000 }).toMatch(new RegExp(`${word}-typed\\s*\\n\\s*${word}-typed`));
  }
  await expect.poll(() => paneText(page, 'flood')).toContain('flood-line');
});

test('keyboard navigation and maximise', async ({ page }) => {
  await page.goto(running().ui);
  await expect(page.locator('[data-testid="pane"]')).toHaveCount(3);
  await page.locator('[data-testid="pane"]').first().locator('.pane-terminal').click();
  // Alt belongs to the shell (readline's Alt+B/F, Alt+digit): the app does not take it.
  await page.keyboard.press('Alt+ArrowRight');
  await expect(page.locator('[data-testid="pane"].focused')).not.toHaveAttribute('data-name', 'shell');
  await page.keyboard.press('Control+Shift+ArrowRight');
  await expect(page.locator('[data-testid="pane"].focused')).toHaveAttribute('data-name', 'shell');
  const renderers = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="pane"]')].map((el) => el.querySelector('.xterm')?.getAttribute('data-renderer')),
    );
  await expect.poll(renderers).toEqual(expect.arrayContaining([expect.stringMatching(/webgl|dom/)]));
  console.log(`pane renderers with all panes visible: ${(await renderers()).join(', ')}`);
  await page.keyboard.press('Control+Shift+Enter');
  await expect(page.locator('.cell.hidden')).toHaveCount(2);
  // Hidden panes are detached: no terminal, so no WebGL context held (browsers cap live contexts).
  await expect(page.locator('.cell.hidden [data-testid="pane"][data-attached="false"]')).toHaveCount(2);
  expect((await renderers()).filter((r) => r === 'webgl').length).toBeLessThanOrEqual(1);
  await page.keyboard.press('Control+Shift+Enter');
  await expect(page.locator('.cell.hidden')).toHaveCount(0);
  await page.keyboard.press('Control+Shift+Digit3');
  await expect(page.locator('[data-testid="pane"].focused')).toHaveAttribute('data-name', 'echoer');
});
