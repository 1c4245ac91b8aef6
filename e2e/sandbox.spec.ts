/**
 * Sandboxed entries in the browser UI through the real `serve` and real bubblewrap: the trust
 * prompt lists each entry's sandbox, the pane header says "sandboxed" and on hover what it may
 * reach, a refused connection raises the header's count, the inbox's "Allow host for this agent"
 * lets the next request through, and the worktree dialog's checkbox makes a sandboxed agent.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeTestRepo, type TestRepo } from '../src/main/core/worktrees/testing/gitRepo';
import { pane, paneText, startServe, type ServeHandle } from './support/serve';
import { screenshotPath } from './support/screenshots';

const hasBwrap = (() => {
  try {
    execFileSync('bwrap', ['--version'], { stdio: 'ignore' });
    execFileSync('socat', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

test.describe.configure({ mode: 'serial' });
test.skip(!hasBwrap, 'bubblewrap and socat are needed (apt-get install bubblewrap socat)');

let repo: TestRepo;
let serve: ServeHandle;
let allowedServer: Server;
let refusedServer: Server;
const portOf = (server: Server) => (server.address() as AddressInfo).port;

function answering(text: string): Promise<Server> {
  const server = createServer((_req, res) => res.end(`${text}\n`));
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).exclude('.xterm').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

async function typeInto(page: Page, name: string, line: string): Promise<void> {
  await pane(page, name).locator('.pane-terminal').click();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

test.beforeAll(async () => {
  allowedServer = await answering('allowed server answered');
  refusedServer = await answering('refused server answered');
  repo = makeTestRepo({ 'README.md': 'hello\n', '.gitignore': 'switchboard.json\n' });
  repo.write(
    'switchboard.json',
    JSON.stringify({
      processes: {
        probe: {
          command: 'bash',
          args: ['--norc', '--noprofile', '-i'],
          env: { PS1: 'probe$ ' },
          sandbox: { network: { allow: [`127.0.0.1:${portOf(allowedServer)}`] } },
        },
      },
    }),
  );
  serve = await startServe(repo.root, { trust: false });
});

test.afterAll(async () => {
  await serve?.stop();
  repo?.cleanup();
  allowedServer?.close();
  refusedServer?.close();
});

test('the trust prompt lists the sandbox; the pane says what it may reach, counts refusals, and the inbox allows a host', async ({
  page,
}, testInfo) => {
  const allowed = `127.0.0.1:${portOf(allowedServer)}`;
  const refused = `127.0.0.1:${portOf(refusedServer)}`;
  await page.goto(serve.ui);
  const prompt = page.getByTestId('trust-prompt');
  await expect(prompt).toBeVisible();
  const request = prompt.getByTestId('trust-request').filter({ hasText: 'bash' });
  await expect(request.getByTestId('trust-sandbox')).toHaveText(`sandboxed (network: ${allowed})`);
  expect(await seriousViolations(page), 'trust prompt').toEqual([]);
  await page.screenshot({ path: screenshotPath(testInfo, 'sandbox-trust.png') });
  await prompt.getByTestId('trust-accept').click();
  await expect(prompt).toBeHidden();

  const probe = pane(page, 'probe');
  await expect.poll(() => paneText(page, 'probe')).toContain('probe$ ');
  const badge = probe.getByTestId('sandboxed');
  await expect(badge).toHaveText('sandboxed');
  await expect(badge).toHaveAttribute(
    'title',
    new RegExp(`^Sandboxed\\. May reach: Switchboard \\(MCP, hooks\\), ${allowed}\\. May write: `),
  );
  await expect(badge).toHaveAttribute('title', new RegExp(`May write: [^.]*${repo.root}`));
  await expect(probe.getByTestId('sandbox-refused')).toHaveCount(0);

  // Inside for real: pid 1 of its namespace is bwrap's, the home folder is empty.
  await typeInto(page, 'probe', 'echo "pid1=$(cat /proc/1/comm) home=$(ls -A ~ | wc -l)"');
  await expect.poll(() => paneText(page, 'probe')).toContain('pid1=bwrap home=0');

  await typeInto(page, 'probe', `curl -sS http://${allowed}/`);
  await expect.poll(() => paneText(page, 'probe')).toContain('allowed server answered');
  await typeInto(page, 'probe', `curl -sS http://${refused}/`);
  await expect.poll(() => paneText(page, 'probe')).toContain(`${refused} is not on this entry's network allowlist`);
  await expect(probe.getByTestId('sandbox-refused')).toHaveText('⊘ 1');
  await typeInto(page, 'probe', `curl -sS https://${refused}/ 2>&1 | tail -1; echo tunnel-tried`);
  await expect.poll(() => paneText(page, 'probe')).toContain('tunnel-tried');
  const refusedCount = probe.getByTestId('sandbox-refused');
  await expect(refusedCount).toHaveText('⊘ 2');
  await expect(refusedCount).toHaveAttribute('title', new RegExp(`${refused} at .*\\n${refused} at `));
  expect(await seriousViolations(page), 'grid with a sandboxed pane').toEqual([]);
  await badge.hover();
  await page.screenshot({ path: screenshotPath(testInfo, 'sandbox-pane.png') });

  // The count opens the inbox, where the person decides.
  await refusedCount.click();
  const rows = page.getByTestId('inbox-refusals').locator('li');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(`probe tried ${refused}`);
  const allow = rows.getByTestId('inbox-allow-host');
  await expect(allow).toHaveText(`Allow ${refused} for this agent`);
  expect(await seriousViolations(page), 'inbox with a refusal').toEqual([]);
  await page.screenshot({ path: screenshotPath(testInfo, 'sandbox-inbox.png') });
  await allow.click();
  await expect(page.getByTestId('inbox-refusals')).toHaveCount(0);
  await expect(badge).toHaveAttribute('title', new RegExp(`May reach: Switchboard \\(MCP, hooks\\), ${allowed}, ${refused}\\.`));
  await page.getByTestId('inbox-close').click();

  await typeInto(page, 'probe', `curl -sS http://${refused}/`);
  await expect.poll(() => paneText(page, 'probe')).toContain('refused server answered');
  await typeInto(page, 'probe', `curl -sS http://${refused}/; echo second-done`);
  await expect.poll(() => paneText(page, 'probe')).toContain('second-done');
  await expect(refusedCount).toHaveText('⊘ 2');
});

test('the worktree dialog’s checkbox starts a sandboxed agent', async ({ page }, testInfo) => {
  await page.goto(serve.ui);
  await page.getByTestId('sidebar').getByTestId('open-new-worktree').click();
  const dialog = page.getByTestId('new-worktree');
  await dialog.getByTestId('new-worktree-name').fill('boxed');
  await dialog.getByTestId('new-worktree-preset').selectOption('generic');
  await dialog.getByTestId('new-worktree-command').fill(`echo "pid1=$(cat /proc/1/comm) home=$(ls -A ~ | wc -l)"; exec cat`);
  const checkbox = dialog.getByTestId('new-worktree-sandbox');
  await expect(checkbox).not.toBeChecked();
  await checkbox.check();
  expect(await seriousViolations(page), 'worktree dialog').toEqual([]);
  await page.screenshot({ path: screenshotPath(testInfo, 'sandbox-new-worktree.png') });
  await dialog.getByTestId('new-worktree-submit').click();
  await expect(dialog).toBeHidden();

  const agent = page.getByTestId('pane').and(page.locator('[data-name="generic"]'));
  await expect(agent.getByTestId('pane-worktree')).toHaveText('⎇ boxed');
  await expect(agent.getByTestId('sandboxed')).toHaveText('sandboxed');
  await expect(agent.getByTestId('sandboxed')).toHaveAttribute('title', /May write: [^.]*boxed/);
  await expect.poll(() => paneText(page, 'generic')).toContain('pid1=bwrap home=0');
});
