import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pane, paneText, startServe, type ServeHandle } from './support/serve';

/**
 * Project trust in the browser UI through the real `serve` (no --trust): the prompt lists what
 * would run before anything runs, the user trusts per entry, an untrusted entry's Start reviews
 * it first, and a live edit of a command asks again about that entry alone.
 */
let serve: ServeHandle;
let project: string;

function writeConfig(config: unknown): void {
  writeFileSync(join(project, 'switchboard.json'), JSON.stringify(config, null, 2));
}

const WEB = { command: 'bash', args: ['-c', 'echo "web is up"; exec cat'], env: { PORT: '4010' } };
const JOBS = { command: 'echo "jobs ran" && exec cat' };

test.beforeEach(async () => {
  project = mkdtempSync(join(tmpdir(), 'sb-e2e-trust-'));
  writeConfig({ processes: { web: WEB, jobs: JOBS } });
  serve = await startServe(project, { trust: false });
});
test.afterEach(async () => {
  await serve.stop();
  rmSync(project, { recursive: true, force: true });
});

test('asks before anything runs, trusts per entry, reviews an untrusted Start, and asks again about a changed command', async ({
  page,
}, testInfo) => {
  await page.goto(serve.ui);
  const prompt = page.getByTestId('trust-prompt');
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole('heading')).toHaveText(/Do you trust the commands of sb-e2e-trust-/);
  const requests = prompt.getByTestId('trust-request');
  await expect(requests).toHaveCount(2);
  await expect(requests.nth(0).getByTestId('trust-command')).toHaveText(`bash -c 'echo "web is up"; exec cat'`);
  await expect(requests.nth(0)).toContainText('PORT=4010');
  await expect(requests.nth(1).getByTestId('trust-command')).toHaveText(`/bin/sh -c 'echo "jobs ran" && exec cat'`);
  await page.screenshot({ path: testInfo.outputPath('trust-prompt.png') });
  // Nothing ran while the prompt was up.
  await expect(page.getByTestId('untrusted')).toHaveCount(4); // a badge in the sidebar and in the pane header of each
  expect(await paneText(page, 'web')).not.toContain('web is up');

  // Trust web only.
  await requests.nth(1).getByRole('checkbox').uncheck();
  await prompt.getByTestId('trust-accept').click();
  await expect(prompt).toBeHidden();
  await expect.poll(() => paneText(page, 'web')).toContain('web is up');
  await expect(page.getByTestId('trust-banner')).toHaveText(/1 entry waits for your trust/);
  expect(await paneText(page, 'jobs')).not.toContain('jobs ran');

  // Start on the untrusted entry shows its command first; trusting there starts it.
  await pane(page, 'jobs').getByTestId('start').click();
  await expect(prompt.getByTestId('trust-request')).toHaveCount(1);
  await expect(prompt.getByTestId('trust-accept')).toHaveText('Trust and start');
  await prompt.getByTestId('trust-accept').click();
  await expect.poll(() => paneText(page, 'jobs')).toContain('jobs ran');
  await expect(page.getByTestId('untrusted')).toHaveCount(0);

  // A live edit of web's command asks about web alone; the trusted run keeps running.
  writeConfig({ processes: { web: { ...WEB, args: ['-c', 'echo "web changed"; exec cat'] }, jobs: JOBS } });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole('heading')).toHaveText('switchboard.json changed');
  await expect(prompt.getByTestId('trust-request')).toHaveCount(1);
  await expect(prompt.getByTestId('trust-request')).toContainText('changed');
  await expect(prompt.getByTestId('trust-command').first()).toHaveText(`bash -c 'echo "web changed"; exec cat'`);
  await prompt.locator('.trust-previous summary').click();
  await expect(prompt.locator('.trust-previous')).toContainText(`bash -c 'echo "web is up"; exec cat'`);
  await expect(prompt).toContainText('Still running what you trusted before');
  await page.screenshot({ path: testInfo.outputPath('trust-prompt-changed.png') });
  await prompt.getByTestId('trust-dismiss').click();
  await expect(pane(page, 'web').getByTestId('untrusted')).toHaveText('change not trusted');
  expect(await paneText(page, 'web')).not.toContain('web changed');
  await page.getByTestId('trust-banner').click();
  await prompt.getByTestId('trust-accept').click();
  await expect.poll(() => paneText(page, 'web')).toContain('web changed');
});

test('a person grants an agent a scope from its pane; the core reports it', async ({ page }, testInfo) => {
  await serve.stop();
  writeConfig({ agents: { lead: { preset: 'generic', command: 'cat', autoStart: true } } });
  serve = await startServe(project);
  await page.goto(serve.ui);
  const button = pane(page, 'lead').getByTestId('scope-button');
  await expect(button).toHaveText('scopes 0');
  await button.click();
  const menu = pane(page, 'lead').getByTestId('scope-panel');
  // The box follows the core's state: it turns checked once the grant came back.
  await menu.locator('input[data-scope="entries:read-all"]').click();
  await expect(button).toHaveText('scopes 1');
  await expect(menu.locator('input[data-scope="entries:read-all"]')).toBeChecked();
  await expect(menu.locator('input[data-scope="entries:read-all"]')).toBeDisabled();
  await expect(menu.locator('input[data-scope="entries:control-all"]')).not.toBeChecked();
  await page.screenshot({ path: testInfo.outputPath('scope-menu.png') });
  // The grant is the core's: the app token sees it on the entry.
  const client = new Client({ name: 'e2e', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(serve.url!), { requestInit: { headers: { Authorization: `Bearer ${serve.token}` } } }),
  );
  try {
    const { processes } = (await client.callTool({ name: 'list_processes', arguments: {} })).structuredContent as {
      processes: Array<{ id: string; name: string }>;
    };
    const lead = processes.find((p) => p.name === 'lead')!;
    const status = (await client.callTool({ name: 'get_process_status', arguments: { process_id: lead.id } })).structuredContent as {
      access?: unknown;
    };
    expect(status.access).toEqual({ scopes: ['entries:read-all'] });
  } finally {
    await client.close();
  }
});
