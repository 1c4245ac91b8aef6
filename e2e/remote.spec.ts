/**
 * A remote host in Chromium, through `serve --remote` against a real OpenSSH (test/support/sshHost.ts:
 * sshd in a network namespace, the system ssh): the welcome view lists the host with its project,
 * the project's entry shows in the grid tagged with its host, typing reaches the process on the
 * host and its output shows; its dev server's link opens the host's server through a local
 * forward; "Add host" opens another folder there; Disconnect and Forget leave the
 * host's server running. Skips, saying why, where the machine cannot make a namespace.
 */
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSshTestHost, sshHostUnavailable, type SshTestHost } from '../test/support/sshHost';
import { pane, paneText, startServe, type ServeHandle } from './support/serve';
import { screenshotPath } from './support/screenshots';

const unavailable = sshHostUnavailable();
/** The first connect installs the server on the host (a tar of the build and its dependencies). */
/** The server's readiness, then a host-agent run over SSH (a node start on the host), then the forward. */
const FORWARD_TIMEOUT_MS = 45_000;
const FIRST_CONNECT_TIMEOUT_MS = 120_000;

let host: SshTestHost | undefined;
let serve: ServeHandle | undefined;
test.afterAll(async () => {
  await serve?.stop();
  host?.dispose();
});

/** A folder in the host user's home, owned by that user. */
function hostFolder(sshHost: SshTestHost, name: string, config?: object): void {
  const dir = join(sshHost.home, name);
  mkdirSync(dir, { recursive: true });
  if (config) writeFileSync(join(dir, 'switchboard.json'), JSON.stringify(config));
  writeFileSync(join(dir, 'hello-from-the-host.txt'), 'hello\n');
  spawnSync('chown', ['-R', `${sshHost.user}:`, dir]);
}

test('serve --remote: the host project in the grid tagged with its host, typing into its pane, its output shown; Add host opens another folder; Disconnect and Forget', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== undefined, `no SSH test host here: ${unavailable}`);
  test.setTimeout(240_000);
  host = await startSshTestHost();
  const webPort = 20_000 + Math.floor(Math.random() * 20_000);
  hostFolder(host, 'grid', {
    processes: {
      echoer: { command: 'cat', autoStart: true },
      web: { command: 'python3', args: ['-m', 'http.server', String(webPort), '--bind', '127.0.0.1'], port: webPort, autoStart: true },
    },
  });
  hostFolder(host, 'notes');
  serve = await startServe([], {
    args: ['--remote', `${host.alias}:grid`, '--ssh-config', host.configFile],
    announceTimeoutMs: FIRST_CONNECT_TIMEOUT_MS,
  });

  await page.goto(serve.ui);
  await expect(page.getByTestId('app')).toHaveAttribute('data-connected', 'true');
  // Nothing local is open: the welcome view lists the host, connected, with its project.
  const row = page.locator(`[data-testid="remote-host"][data-host="${host.alias}"]`);
  await expect(row).toHaveAttribute('data-status', 'connected');
  await row.getByTestId('host-project').filter({ hasText: 'grid' }).click();

  const tab = page.locator('[data-testid="project-tab"][data-project="grid"]');
  await expect(tab.getByTestId('project-host')).toHaveText(host.alias);
  const echoer = pane(page, 'echoer');
  await expect(echoer.getByTestId('pane-host')).toHaveText(host.alias);
  await echoer.locator('.pane-terminal').click();
  await page.keyboard.type('typed in chromium');
  await page.keyboard.press('Enter');
  // The PTY's echo and cat's own copy: the keystrokes reached cat on the host and came back.
  await expect.poll(() => paneText(page, 'echoer')).toMatch(/typed in chromium\s*\n\s*typed in chromium/);
  // The host's dev server: the link in its pane header is this machine's forward of the host's port; it opens the host's folder.
  const link = pane(page, 'web').getByTestId('port-link');
  await expect(link).toHaveAttribute('title', `${host.alias}'s port ${webPort}, forwarded to this machine`, {
    timeout: FORWARD_TIMEOUT_MS,
  });
  await expect(link).toHaveAttribute('href', /^http:\/\/127\.0\.0\.1:\d+\/$/);
  const [opened] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await expect(opened.locator('body')).toContainText('hello-from-the-host.txt');
  await opened.close();
  const shot = screenshotPath(testInfo, 'remote-grid.png');
  await page.screenshot({ path: shot });
  await testInfo.attach('remote-grid', { path: shot, contentType: 'image/png' });

  // "Add host" with a folder on the connected host: it opens there and becomes the project shown.
  await page.getByTestId('project-add').click();
  await page.getByTestId('host-input').fill(host.alias);
  await page.getByTestId('host-folder').fill('~/notes');
  await page.getByTestId('host-connect').click();
  const notes = page.locator('[data-testid="project-tab"][data-project="notes"]');
  await expect(notes).toHaveClass(/active/);
  await expect(notes.getByTestId('project-host')).toHaveText(host.alias);
  // A folder without switchboard.json asks to be trusted before git runs there; not now.
  await page.getByTestId('trust-dismiss').click();
  // A host that cannot be reached: one line under the form, the rest untouched.
  await page.getByTestId('project-add').click();
  await page.getByTestId('host-input').fill('nosuchhost.invalid');
  await page.getByTestId('host-folder').fill('');
  await page.getByTestId('host-connect').click();
  await expect(page.getByTestId('host-error')).toHaveText(/^Unknown host nosuchhost\.invalid/);
  const welcome = screenshotPath(testInfo, 'remote-hosts-welcome.png');
  await page.screenshot({ path: welcome });
  await testInfo.attach('remote-hosts-welcome', { path: welcome, contentType: 'image/png' });
  await expect(page.locator('[data-testid="project-tab"]')).toHaveCount(2);

  // Disconnect: the host's projects leave the switcher and it stays listed, remembered; its server keeps running there.
  const serverPid = (JSON.parse(readFileSync(join(host.home, '.switchboard-server', 'server.json'), 'utf8')) as { pid: number }).pid;
  await row.getByTestId('host-disconnect').click();
  await expect(row).toHaveAttribute('data-status', 'remembered');
  await expect(page.locator('[data-testid="project-tab"]')).toHaveCount(0);
  // Forget asks first, then the host leaves the list; nothing on the host stops.
  await row.getByTestId('host-forget').click();
  await row.getByTestId('host-forget-confirm').click();
  await expect(row).toHaveCount(0);
  expect(host.pids()).toContain(serverPid);
});
