/**
 * The phone view at 390 × 844 (iPhone 13 profile in Chromium) through plain loopback `serve`: a
 * real Claude Code (mock Messages API) at a permission prompt is listed first with its answers;
 * Approve runs the tool; the entry's screen takes no keys while its reply box delivers a turn; the
 * web manifest, icons and service worker are served and the worker registers; axe is clean.
 * Its screenshots are docs/screenshots/phone*.png (`UPDATE_SCREENSHOTS=1`).
 */
import AxeBuilder from '@axe-core/playwright';
import { devices, expect, test, type Page } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, type ServeHandle } from './support/serve';
import { screenshotPath } from './support/screenshots';
import { startMockAnthropic, type MockAnthropic } from '../test/fixtures/anthropic/mockAnthropic';
import { CLAUDE_BIN, createClaudeHarness, type ClaudeHarness } from '../test/fixtures/anthropic/claudeHarness';

/** One Claude Code start-up on a loaded 2-core machine. */
const TEST_TIMEOUT_MS = 240_000;
const WAITING_TIMEOUT_MS = 120_000;
/** The smallest touch target (WCAG 2.5.5, Apple's and Android's guidelines). */
const MIN_TOUCH_PX = 44;

// The iPhone 13's page size, screen and touch; the browser stays the suite's Chromium.
const { defaultBrowserType: _webkit, ...iPhone } = devices['iPhone 13'];
test.use({ ...iPhone, viewport: { width: 390, height: 844 } });

let serve: ServeHandle | undefined;
let mock: MockAnthropic | undefined;
let harness: ClaudeHarness | undefined;
test.afterEach(async () => {
  await serve?.stop();
  await mock?.close();
  await harness?.cleanup();
});

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).exclude('.xterm').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
}

/** Every visible control of the phone view smaller than a fingertip, as "label: w×h". */
function tooSmallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const controls = [...document.querySelectorAll<HTMLElement>('.phone button, .phone input, .phone select')];
    return controls
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.width < min || box.height < min))
      .map(({ el, box }) => `${el.getAttribute('aria-label') ?? el.textContent}: ${Math.round(box.width)}×${Math.round(box.height)}`);
  }, MIN_TOUCH_PX);
}

test('the waiting agent comes first with Approve; its screen is read-only and the reply box reaches it; installable', async ({
  page,
}, testInfo) => {
  test.setTimeout(TEST_TIMEOUT_MS);
  const command = 'curl -X POST http://127.0.0.1:9/phone-upload';
  mock = await startMockAnthropic({
    turns: [[{ toolUse: { name: 'Bash', input: { command, description: 'Post the file' } } }], [{ text: 'Posted.' }], [{ text: 'Noted.' }]],
  });
  harness = await createClaudeHarness({ baseUrl: mock.url });
  const project = mkdtempSync(join(tmpdir(), 'sb-e2e-phone-'));
  writeFileSync(
    join(project, 'switchboard.json'),
    JSON.stringify({
      processes: { clock: { command: 'bash', args: ['-c', 'while true; do echo tick; sleep 1; done'] } },
      agents: {
        alpha: {
          preset: 'claude',
          command: CLAUDE_BIN,
          args: ['--permission-mode', 'default', 'Upload the file'],
          cwd: harness.cwd,
          env: harness.env,
          autoStart: true,
        },
      },
    }),
  );
  serve = await startServe(project);
  await page.goto(serve.ui);

  const phone = page.getByTestId('phone-view');
  await expect(phone).toBeVisible();
  await expect(page.getByTestId('pane')).toHaveCount(0); // the grid is not drawn at phone width
  const needsYou = phone.getByTestId('phone-needs-you');
  const approve = needsYou.getByRole('button', { name: 'Yes (approve) — alpha' });
  await expect(approve).toBeVisible({ timeout: WAITING_TIMEOUT_MS });
  await expect(needsYou.getByTestId('inbox-question')).toContainText(command);
  // What needs you leads: above the entries, and the agent is in the entries' "Needs you" group too.
  const needsBox = (await needsYou.boundingBox())!;
  const entriesBox = (await phone.getByTestId('phone-entries').boundingBox())!;
  expect(needsBox.y).toBeLessThan(entriesBox.y);
  await expect(phone.getByTestId('phone-group-attention').getByTestId('phone-entry')).toHaveAttribute('data-name', 'alpha');
  expect(await tooSmallTargets(page)).toEqual([]);
  await page.screenshot({ path: screenshotPath(testInfo, 'phone.png') });
  expect(await seriousViolations(page), 'phone view').toEqual([]);

  // Installable: manifest and icons served, the service worker registered and active at the root.
  const installable = await page.evaluate(async () => {
    const manifestResponse = await fetch('/manifest.webmanifest');
    const manifest = (await manifestResponse.json()) as { icons: { src: string; sizes: string; purpose: string }[]; display: string };
    const icons = await Promise.all(
      manifest.icons.map(async (i) => {
        const r = await fetch(i.src);
        return `${i.sizes} ${i.purpose} ${r.status} ${r.headers.get('content-type')}`;
      }),
    );
    const registration = await navigator.serviceWorker.ready;
    return { type: manifestResponse.headers.get('content-type'), display: manifest.display, icons, worker: registration.active?.scriptURL };
  });
  expect(installable).toEqual({
    type: 'application/manifest+json',
    display: 'standalone',
    icons: ['192x192 any 200 image/png', '512x512 any 200 image/png', '512x512 maskable 200 image/png'],
    worker: new URL('/sw.js', serve.ui).href,
  });

  await approve.click();
  const toolUse = await mock.waitFor('tool_use');
  const result = await mock.waitFor('tool_result', (e) => e.toolUseId === toolUse.id, { timeoutMs: 60_000 });
  expect(result.content).not.toMatch(/doesn.t want to proceed|rejected/i);
  await expect(needsYou.getByText('No agent is waiting.')).toBeVisible({ timeout: 30_000 });

  // The screen: what Claude drew, and keys typed on it go nowhere.
  await phone.locator('[data-testid="phone-entry"][data-name="alpha"]').click();
  const screen = page.getByTestId('phone-screen');
  await expect(screen.locator('.xterm-rows')).toContainText('Posted.', { timeout: 30_000 });
  await expect(screen.getByTestId('state')).toContainText('idle', { timeout: 30_000 });
  await screen.locator('.xterm').click();
  await page.keyboard.type('zzz');
  await screen.getByTestId('phone-reply-text').fill('Also add a changelog line');
  await screen.getByTestId('phone-reply-send').click();
  const reply = await mock.waitFor('request', (e) => e.kind === 'main' && (e.userText ?? '').includes('changelog'), { timeoutMs: 60_000 });
  expect(reply.userText).toBe('Also add a changelog line');
  await expect(screen.getByTestId('phone-reply-notice')).toHaveText('Sent to alpha.');
  await expect(screen.locator('.xterm-rows')).toContainText('Noted.', { timeout: 30_000 });
  expect(await tooSmallTargets(page)).toEqual([]);
  await page.screenshot({ path: screenshotPath(testInfo, 'phone-screen.png') });
  expect(await seriousViolations(page), 'phone screen').toEqual([]);
});

test('the pairing page takes the code from the fragment, drops it from the address, and shows a refusal plainly', async ({ page }) => {
  const project = mkdtempSync(join(tmpdir(), 'sb-e2e-pair-'));
  writeFileSync(join(project, 'switchboard.json'), JSON.stringify({ processes: {} }));
  serve = await startServe(project);
  await page.goto(new URL('/pair#code=not-a-real-code', serve.ui).href);
  const form = page.getByTestId('pair-device');
  await expect(form.getByRole('heading', { name: 'Pair this device with Switchboard' })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('');
  await expect(form.getByTestId('pair-name')).toHaveValue('iPhone');
  expect(await tooSmallTargets(page)).toEqual([]);
  expect(await seriousViolations(page), 'pairing page').toEqual([]);
  await form.getByTestId('pair-submit').click();
  await expect(form.getByTestId('pair-problem')).not.toBeEmpty();
  await expect(form).toBeVisible(); // still here: a refused code loads nothing
});
