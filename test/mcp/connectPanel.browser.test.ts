/**
 * The renderer's MCP parts in a real browser (Debian's Chromium through Playwright), served the
 * way `serve` serves it: the "Connect an agent" panel shows the endpoint and the exact
 * `claude mcp add` line, and request_human_attention shows an in-page card (the Notification API
 * fallback) whose click focuses the pane. Needs the built renderer (`npm run build`, which
 * `npm test` runs first); without it the test says so and is skipped.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS, CHROMIUM_PATH } from '../support/chromium';
import { startWebServer, type RunningWebServer } from '../../src/main/core/bridge';
import { RecentProjects } from '../../src/main/core/projects';
import { FolderRoots, Workspace } from '../../src/main/core/workspace';
import { connectCommands } from '../../src/shared/mcp';
import { callOk, connectClient, startSwitchboard, type Switchboard } from './mcpHarness';

const RENDERER_DIR = resolve(__dirname, '../../out/renderer');
const isRunnable = existsSync(resolve(RENDERER_DIR, 'index.html')) && existsSync(CHROMIUM_PATH);
if (!isRunnable)
  console.warn(`connectPanel.browser.test: skipped (needs ${RENDERER_DIR}/index.html from npm run build, and ${CHROMIUM_PATH})`);

let sb: Switchboard;
let web: RunningWebServer;
let browser: Browser;
let page: Page;

describe.skipIf(!isRunnable)('renderer MCP parts in Chromium (serve)', () => {
  beforeAll(async () => {
    sb = await startSwitchboard();
    // The workspace only shows the project this test built; the test disposes it itself.
    const workspace = new Workspace({
      createProject: () => Promise.resolve(sb.handle),
      recent: new RecentProjects(sb.dataDir),
      roots: new FolderRoots([sb.projectDir]),
    });
    await workspace.open(sb.projectDir);
    web = await startWebServer({ workspace, staticDir: RENDERER_DIR, uiSecret: 'connect-panel-ui-secret' });
    browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
    page = await browser.newPage();
    await page.goto(web.uiUrl);
    await page.locator('[data-testid="app"][data-connected="true"]').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await sb?.close();
  });

  it('"Connect an agent" offers lines that keep the token out of every command\'s arguments and config file (token masked until shown)', async () => {
    await page.getByText('Connect an agent').click();
    await expect.poll(() => page.getByTestId('connect-url').textContent()).toBe(sb.url);
    const lines = page.locator('[data-testid^="connect-"] ~ pre, pre[data-testid^="connect-"]');
    expect(await lines.first().getAttribute('data-testid')).toBe('connect-claude');
    const masked = await page.getByTestId('connect-claude').textContent();
    expect(masked).toBe(
      `export SWITCHBOARD_MCP_TOKEN=••••••••\nclaude mcp add --transport http switchboard ${sb.url} --header 'Authorization: Bearer \${SWITCHBOARD_MCP_TOKEN}'`,
    );
    await page.getByText('show token').click();
    const expected = connectCommands(sb.url, sb.token);
    expect(await page.getByTestId('connect-claude').textContent()).toBe(expected.claude);
    expect(await page.getByTestId('connect-codex').textContent()).toBe(expected.codex);
    // The token only in the shell's own variable (export is a builtin): never in the command run, nor in opencode.json.
    for (const line of [expected.claude, expected.codex]) {
      const [setting, command] = line.split('\n');
      expect(setting).toBe(`export SWITCHBOARD_MCP_TOKEN=${sb.token}`);
      expect(command).not.toContain(sb.token);
    }
    const opencode = (await page.getByTestId('connect-opencode').textContent()) ?? '';
    expect(opencode).not.toContain(sb.token);
    expect(JSON.parse(opencode)).toMatchObject({
      mcp: { switchboard: { url: sb.url, headers: { Authorization: 'Bearer {env:SWITCHBOARD_MCP_TOKEN}' } } },
    });
  });

  it('request_human_attention shows an in-page card; clicking it focuses the pane', async () => {
    const client = await connectClient(sb.url, sb.token);
    const other = await callOk<{ id: string }>(client, 'spawn_process', { kind: 'command', shell: 'sleep 60', name: 'first' });
    const target = await callOk<{ id: string }>(client, 'spawn_process', { kind: 'command', shell: 'sleep 60', name: 'needs-review' });
    await page.locator(`[data-testid="sidebar-entry"][data-id="${other.id}"]`).click();
    await callOk(client, 'request_human_attention', { process_id: target.id, reason: 'Please approve the schema change' });
    const card = page.locator('[data-testid="attention-card"]');
    await card.waitFor();
    expect(await card.textContent()).toBe('needs-review needs youPlease approve the schema change');
    await card.click();
    await page.locator(`[data-testid="sidebar-entry"][data-id="${target.id}"].focused`).waitFor();
    expect(await card.count()).toBe(0);
    await client.close();
  });
});
