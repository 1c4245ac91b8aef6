/**
 * Several projects in one window, through `serve` in Chromium: the welcome view, opening a folder
 * from the path field (and the refusals: outside the allowed roots, also through `..` and a
 * symlink; a folder that does not exist), two projects side by side whose entries, scratchpads,
 * timers and MCP identities stay apart, switching that keeps panes live, and closing one project
 * that stops only its process trees (checked on the pids).
 */
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { paneText, startServe, type ServeHandle } from './support/serve';

const PROBE = resolve(__dirname, 'fixtures/workspace/mcpProbe.mjs');

let serve: ServeHandle | undefined;
test.afterEach(async () => {
  await serve?.stop();
  serve = undefined;
});

/** A project with a ticking server-like process and an agent entry that talks to its MCP endpoint. */
function project(root: string, name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const config = {
    processes: {
      [`${name}-clock`]: { command: 'bash', args: ['-c', `i=0; while true; do i=$((i+1)); echo "${name} tick $i"; sleep 0.3; done`] },
    },
    agents: { [`${name}-probe`]: { command: process.execPath, args: [PROBE], autoStart: true } },
  };
  writeFileSync(join(dir, 'switchboard.json'), JSON.stringify(config));
  return dir;
}

function tempRoot(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

async function connected(page: Page): Promise<void> {
  await expect(page.getByTestId('app')).toHaveAttribute('data-connected', 'true');
}

async function mcpClient(endpoint: { url: string; token: string }): Promise<Client> {
  const client = new Client({ name: 'workspace-e2e', version: '1.0.0' });
  const headers = { Authorization: `Bearer ${endpoint.token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers } }));
  return client;
}

async function tool(client: Client, name: string): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: {} });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A process and every descendant, from the process table. */
function treePids(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of table) if (parent === tree[i]) tree.push(child);
  return tree;
}

test('the welcome view opens a folder from the path field with completion', async ({ page }) => {
  const root = tempRoot('sb-welcome-');
  const dir = project(root, 'storefront');
  mkdirSync(join(root, 'billing-api'));
  serve = await startServe([], { roots: [root] });
  await page.goto(serve.ui);
  await connected(page);
  const welcome = page.getByTestId('welcome');
  await expect(welcome).toBeVisible();
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  await expect(welcome).toContainText('No recent projects yet');

  await page.getByTestId('path-input').fill(`${root}/st`);
  const completion = page.getByTestId('path-completion');
  await expect(completion).toHaveCount(1);
  await expect(completion).toHaveAttribute('data-path', dir);
  await completion.click();
  await expect(page.getByTestId('path-input')).toHaveValue(`${dir}/`);
  await page.getByTestId('path-open').click();

  await expect(page.locator('[data-testid="project-tab"][data-project="storefront"]')).toHaveClass(/active/);
  // A folder opened from the browser is not trusted yet: nothing runs before the person says so.
  const prompt = page.getByTestId('trust-prompt');
  await expect(prompt.getByRole('heading')).toHaveText(/Do you trust the commands of storefront/);
  expect(await paneText(page, 'storefront-clock')).not.toContain('storefront tick');
  await prompt.getByTestId('trust-accept').click();
  await expect.poll(() => paneText(page, 'storefront-clock')).toContain('storefront tick');
  await expect(page.getByTestId('welcome')).toHaveCount(0);

  // The switcher's "+" shows the welcome view again, now listing the open project.
  await page.getByTestId('project-add').click();
  await expect(page.locator(`[data-testid="recent-project"][data-dir="${dir}"]`)).toContainText('running: storefront-clock');
});

test('a path outside the allowed folders is refused with a clear message, also through .. and symlinks', async ({ page }) => {
  const root = tempRoot('sb-roots-');
  const outside = tempRoot('sb-outside-');
  mkdirSync(join(outside, 'secret-project'));
  symlinkSync(join(outside, 'secret-project'), join(root, 'innocent-link'));
  serve = await startServe([], { roots: [root] });
  await page.goto(serve.ui);
  await connected(page);
  const input = page.getByTestId('path-input');
  const error = page.getByTestId('path-error');

  for (const typed of [
    join(outside, 'secret-project'),
    `${root}/../${outside.split('/').pop()}/secret-project`,
    join(root, 'innocent-link'),
  ]) {
    await input.fill(typed);
    await page.getByTestId('path-open').click();
    await expect(error).toContainText('is outside the folders Switchboard may open here');
    await expect(error).toContainText(join(outside, 'secret-project'));
  }
  // Completion offers neither the link nor anything outside.
  await input.fill(`${root}/`);
  await expect(page.getByTestId('path-completion')).toHaveCount(0);
  await input.fill(`${outside}/`);
  await expect(page.getByTestId('path-completion')).toHaveCount(0);

  await input.fill(join(root, 'no-such-folder'));
  await page.getByTestId('path-open').click();
  await expect(error).toHaveText(`No such folder: ${join(root, 'no-such-folder')}`);
  await expect(page.getByTestId('project-tab')).toHaveCount(0);
});

test('two projects at once: entries, scratchpads, timers and MCP identity stay apart; switching keeps panes live; closing one stops only its trees', async ({
  page,
}) => {
  const root = tempRoot('sb-two-');
  const alpha = project(root, 'alpha');
  const beta = project(root, 'beta');
  serve = await startServe([alpha, beta]);
  await page.goto(serve.ui);
  await connected(page);
  const tabs = page.getByTestId('project-tab');
  await expect(tabs).toHaveCount(2);
  await expect(page.locator('[data-testid="project-tab"][data-project="alpha"]')).toHaveClass(/active/);

  // Each project's agent asked its own endpoint who it is.
  await expect.poll(() => paneText(page, 'alpha-probe')).toContain('WROTE scratchpad and timer for alpha');
  expect(await paneText(page, 'alpha-probe')).toContain('WHOAMI project=alpha name=alpha-probe');
  const names = () => page.locator('[data-testid="sidebar-entry"] .entry-name').allTextContents();
  expect((await names()).sort()).toEqual(['alpha-clock', 'alpha-probe']);

  const alphaTicks = await paneText(page, 'alpha-clock');
  await page.locator('[data-testid="project-tab"][data-project="beta"] .project-name').click();
  await expect.poll(() => paneText(page, 'beta-probe')).toContain('WROTE scratchpad and timer for beta');
  expect(await paneText(page, 'beta-probe')).toContain('WHOAMI project=beta name=beta-probe');
  expect((await names()).sort()).toEqual(['beta-clock', 'beta-probe']);

  // Back to alpha: its clock kept running while beta was shown, and the pane shows the newer ticks.
  const lastTick = (text: string) => Math.max(...[...text.matchAll(/alpha tick (\d+)/g)].map((m) => Number(m[1])));
  await page.locator('[data-testid="project-tab"][data-project="alpha"] .project-name').click();
  await expect.poll(async () => lastTick(await paneText(page, 'alpha-clock'))).toBeGreaterThan(lastTick(alphaTicks) + 1);

  // Scratchpads and timers live with their project (each endpoint's app token sees all of its own).
  const [alphaEndpoint, betaEndpoint] = serve.projects;
  expect(alphaEndpoint.dir).toBe(alpha);
  const alphaMcp = await mcpClient(alphaEndpoint);
  const betaMcp = await mcpClient(betaEndpoint);
  const padNames = async (c: Client) => ((await tool(c, 'scratchpad_list')).scratchpads as Array<{ name: string }>).map((p) => p.name);
  const timerLabels = async (c: Client) => ((await tool(c, 'timer_list')).timers as Array<{ label?: string }>).map((t) => t.label);
  expect(await padNames(alphaMcp)).toEqual(['notes-alpha']);
  expect(await padNames(betaMcp)).toEqual(['notes-beta']);
  expect(await timerLabels(alphaMcp)).toEqual(['timer-alpha']);
  expect(await timerLabels(betaMcp)).toEqual(['timer-beta']);

  // Ground truth for closing: the pids of every tree of both projects.
  const leaderPids = async (c: Client) =>
    ((await tool(c, 'list_processes')).processes as Array<{ pid?: number }>).flatMap((p) => (p.pid ? [p.pid] : []));
  const alphaPids = (await leaderPids(alphaMcp)).flatMap(treePids);
  // Beta's clock forks a short `sleep` every 300 ms that ends on its own: its leaders are the ground truth there.
  const betaPids = await leaderPids(betaMcp);
  expect(alphaPids.length).toBeGreaterThanOrEqual(2);
  expect(betaPids).toHaveLength(2);
  await alphaMcp.close();
  await betaMcp.close();

  await page.locator('[data-testid="project-tab"][data-project="alpha"] [data-testid="project-close"]').click();
  await expect(tabs).toHaveCount(1);
  await expect(page.locator('[data-testid="project-tab"][data-project="beta"]')).toHaveClass(/active/);
  await expect.poll(() => alphaPids.filter(isAlive)).toEqual([]);
  expect(betaPids.filter(isAlive)).toEqual(betaPids);
  await expect.poll(() => paneText(page, 'beta-clock')).toContain('beta tick');
});
