/**
 * Devices through `serve --listen` on an address of a network namespace this test makes (HTTPS, an
 * openssl certificate made now). The desktop's Devices panel (a loopback tab) pairs a phone: a
 * Chromium with the iPhone 13 profile, started INSIDE the namespace, opens the pairing link and
 * pairs by a click; its phone view leads with a real Claude Code (mock Messages API) waiting at a
 * permission prompt; Approve runs the tool. The panel lists the phone with its last use, sets
 * "may control" and revokes it, after which the phone is refused. The notification settings make a
 * round trip with their secrets masked, and "Send a test" reaches a local webhook and ntfy receiver.
 * Axe-clean at desktop and phone widths; screenshots docs/screenshots/devices*.png (`UPDATE_SCREENSHOTS=1`).
 */
import AxeBuilder from '@axe-core/playwright';
import { chromium, devices, expect, test, type Browser, type Page } from '@playwright/test';
import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, type ServeHandle } from './support/serve';
import { screenshotPath } from './support/screenshots';
import { startMockAnthropic, type MockAnthropic } from '../test/fixtures/anthropic/mockAnthropic';
import { CLAUDE_BIN, createClaudeHarness, type ClaudeHarness } from '../test/fixtures/anthropic/claudeHarness';
import { makeTestCertificate, makeVethHost, netnsAvailable, type VethHost } from '../test/support/netns';
import { freePort } from '../test/support/ports';
import { CHROMIUM_LAUNCH_OPTIONS, CHROMIUM_PATH } from '../test/support/chromium';

/** One Claude Code start-up on a loaded 2-core machine. */
const TEST_TIMEOUT_MS = 240_000;
const WAITING_TIMEOUT_MS = 120_000;
const { defaultBrowserType: _webkit, ...iPhone } = devices['iPhone 13'];

interface Hit {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local webhook / ntfy server: answers 200 and keeps what it received. */
async function receiver(): Promise<{ origin: string; hits: Hit[]; server: Server }> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).exclude('.xterm').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
}

const unavailable = !netnsAvailable();
test.describe.configure({ mode: 'serial' });
test.skip(unavailable, 'needs root to make a network namespace (TESTING.md)');

let veth: VethHost | undefined;
let serve: ServeHandle | undefined;
let mock: MockAnthropic | undefined;
let harness: ClaudeHarness | undefined;
let phoneBrowser: Browser | undefined;
const receivers: Server[] = [];
const command = 'curl -X POST http://127.0.0.1:9/devices-upload';

test.beforeAll(async () => {
  if (unavailable) return;
  test.setTimeout(TEST_TIMEOUT_MS);
  veth = makeVethHost();
  const certDir = mkdtempSync(join(tmpdir(), 'sb-e2e-cert-'));
  const cert = makeTestCertificate(certDir, veth.hostAddress);
  mock = await startMockAnthropic({
    turns: [[{ toolUse: { name: 'Bash', input: { command, description: 'Post the file' } } }], [{ text: 'Posted.' }]],
  });
  harness = await createClaudeHarness({ baseUrl: mock.url });
  const project = mkdtempSync(join(tmpdir(), 'sb-e2e-devices-'));
  writeFileSync(
    join(project, 'switchboard.json'),
    JSON.stringify({
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
  const port = await freePort();
  serve = await startServe(project, {
    args: ['--listen', `${veth.hostAddress}:${port}`, '--tls-cert', cert.cert, '--tls-key', cert.key],
  });
  // The phone's browser runs inside the namespace: its requests cross the veth pair like another device's.
  const wrapper = join(certDir, 'chromium-in-netns');
  writeFileSync(wrapper, `#!/bin/sh\nexec ip netns exec ${veth.name} ${CHROMIUM_PATH} "$@"\n`);
  chmodSync(wrapper, 0o755);
  phoneBrowser = await chromium.launch({ ...CHROMIUM_LAUNCH_OPTIONS, executablePath: wrapper });
});

test.afterAll(async () => {
  await phoneBrowser?.close();
  await serve?.stop();
  await mock?.close();
  await harness?.cleanup();
  for (const server of receivers) server.close();
  veth?.dispose();
});

test('the Devices panel pairs a phone beyond loopback; the phone approves the waiting agent; revoked, it is refused', async ({
  page,
}, testInfo) => {
  test.setTimeout(TEST_TIMEOUT_MS);
  await page.goto(serve!.ui);
  await page.getByTestId('open-devices').click();
  const panel = page.getByTestId('devices-panel');
  await expect(panel.getByText('No device is paired.')).toBeVisible();
  await panel.getByTestId('pair-start').click();
  const link = panel.getByTestId('pairing-link');
  const pairingUrl = (await link.textContent())!;
  const code = (await panel.getByTestId('pairing-code').textContent())!;
  expect(pairingUrl).toBe(`https://${veth!.hostAddress}:${new URL(pairingUrl).port}/pair#code=${code}`);
  await expect(panel.getByRole('img', { name: 'QR code of the pairing link' })).toBeVisible();
  await page.screenshot({ path: screenshotPath(testInfo, 'devices-pairing.png') });
  expect(await seriousViolations(page), 'devices panel with a pairing code').toEqual([]);

  // The phone: opens the link, keeps the suggested name, pairs by a click.
  const phoneContext = await phoneBrowser!.newContext({ ...iPhone, viewport: { width: 390, height: 844 }, ignoreHTTPSErrors: true });
  const phone = await phoneContext.newPage();
  await phone.goto(pairingUrl);
  await expect(phone.getByTestId('pair-name')).toHaveValue('iPhone');
  await phone.getByTestId('pair-submit').click();
  const needsYou = phone.getByTestId('phone-needs-you');
  const approve = needsYou.getByRole('button', { name: 'Yes (approve) — alpha' });
  await expect(approve).toBeVisible({ timeout: WAITING_TIMEOUT_MS });
  await expect(needsYou.getByTestId('inbox-question')).toContainText(command);
  // What needs you leads the phone view.
  const needsBox = (await needsYou.boundingBox())!;
  const entriesBox = (await phone.getByTestId('phone-entries').boundingBox())!;
  expect(needsBox.y).toBeLessThan(entriesBox.y);
  await expect(phone.getByTestId('open-devices')).toHaveCount(0); // the device commands are the desktop's
  await approve.click();
  const toolUse = await mock!.waitFor('tool_use');
  const result = await mock!.waitFor('tool_result', (e) => e.toolUseId === toolUse.id, { timeoutMs: 60_000 });
  expect(result.content).not.toMatch(/doesn.t want to proceed|rejected/i);

  // The desktop lists it with its last use (the list refreshes while the panel is open).
  const row = panel.getByTestId('device-row');
  await expect(row).toHaveAttribute('data-name', 'iPhone');
  await expect(row.getByTestId('device-last-use')).toHaveText('last used just now');
  const mayControl = row.getByTestId('device-may-control');
  await expect(mayControl).not.toBeChecked();
  await mayControl.check();
  await page.getByTestId('devices-close').click();
  await page.getByTestId('open-devices').click();
  await expect(panel.getByTestId('device-may-control')).toBeChecked();
  await page.screenshot({ path: screenshotPath(testInfo, 'devices.png') });
  expect(await seriousViolations(page), 'devices panel with a device').toEqual([]);

  await panel.getByRole('button', { name: 'Revoke iPhone' }).click();
  await expect(panel.getByText('No device is paired.')).toBeVisible();
  const afterRevoke = await phone.evaluate(async () => (await fetch('/session')).status);
  expect(afterRevoke).toBe(401);
  await phoneContext.close();
});

test('notification settings make a round trip with secrets masked; a test reaches the webhook and ntfy', async ({ page }, testInfo) => {
  const webhook = await receiver();
  const ntfy = await receiver();
  receivers.push(webhook.server, ntfy.server);
  const hookUrl = `${webhook.origin}/hooks/T0001/s3cr3t-path-9f2a`;
  const ntfyToken = 'tk_very_secret_token_7788';
  await page.goto(serve!.ui);
  await page.getByTestId('open-devices').click();
  const form = page.getByTestId('notify-form');
  await form.getByTestId('notify-webhooks').fill(hookUrl);
  await form.getByTestId('notify-ntfy-url').fill(`${ntfy.origin}/agents`);
  await form.getByTestId('notify-ntfy-token').fill(ntfyToken);
  await form.getByTestId('notify-quiet').check();
  await form.getByTestId('notify-quiet-from').fill('23:30');
  await form.getByTestId('notify-quiet-to').fill('06:15');
  await form.getByTestId('notify-away').check();
  await form.getByTestId('notify-away-minutes').fill('7');
  await form.getByTestId('notify-save').click();
  await expect(form.getByTestId('notify-notice')).toHaveText('Saved.');
  await expect(form.getByTestId('notify-webhooks')).toHaveValue(`${webhook.origin}/••••9f2a`);
  expect(statSync(join(serve!.dataDir, 'notifications.json')).mode & 0o777).toBe(0o600);

  // A fresh page reads them back: every value, the secrets masked.
  await page.reload();
  await page.getByTestId('open-devices').click();
  await expect(form.getByTestId('notify-webhooks')).toHaveValue(`${webhook.origin}/••••9f2a`);
  await expect(form.getByTestId('notify-ntfy-url')).toHaveValue(`${ntfy.origin}/agents`);
  await expect(form.getByTestId('notify-ntfy-token')).toHaveValue('••••7788');
  await expect(form.getByTestId('notify-quiet')).toBeChecked();
  await expect(form.getByTestId('notify-quiet-from')).toHaveValue('23:30');
  await expect(form.getByTestId('notify-quiet-to')).toHaveValue('06:15');
  await expect(form.getByTestId('notify-away-minutes')).toHaveValue('7');
  expect(await page.content()).not.toContain('s3cr3t');

  // Saved again untouched, the stored secrets stay; the test goes out with them.
  await form.getByTestId('notify-save').click();
  await expect(form.getByTestId('notify-notice')).toHaveText('Saved.');
  await form.getByTestId('notify-test').click();
  const results = form.getByTestId('notify-result');
  await expect(results).toHaveText(['web push: sent', `webhook ${webhook.origin}: sent`, `ntfy ${new URL(ntfy.origin).host}/agents: sent`]);
  expect(webhook.hits.map((h) => `${h.method} ${h.url}`)).toEqual(['POST /hooks/T0001/s3cr3t-path-9f2a']);
  expect(JSON.parse(webhook.hits[0].body)).toMatchObject({ event: 'attention', entry: { name: 'Test notification' } });
  expect(ntfy.hits).toHaveLength(1);
  expect(ntfy.hits[0].headers.authorization).toBe(`Bearer ${ntfyToken}`);

  // A bad URL is refused where it was typed, and nothing stored changes.
  await form.getByTestId('notify-webhooks').fill('http://example.com/hook');
  await form.getByTestId('notify-save').click();
  await expect(form.getByTestId('notify-notice')).toHaveText('Webhooks: use an https:// URL (plain http only to 127.0.0.1 / localhost)');
  await page.screenshot({ path: screenshotPath(testInfo, 'devices-notifications.png') });
  expect(await seriousViolations(page), 'notification settings').toEqual([]);

  // At phone width (a loopback tab), the panel opens from the phone view and fills the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.getByTestId('open-devices').click();
  await expect(form.getByTestId('notify-webhooks')).toHaveValue(`${webhook.origin}/••••9f2a`);
  await page.screenshot({ path: screenshotPath(testInfo, 'devices-phone.png'), fullPage: true });
  expect(await seriousViolations(page), 'devices panel at phone width').toEqual([]);
});
