import { expect, test } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { makeTestRepo, type TestRepo } from '../src/main/core/worktrees/testing/gitRepo';
import { startServe, type ServeHandle } from './support/serve';
import { screenshotPath } from './support/screenshots';

/**
 * Each worktree's app in the browser UI of the real `serve`, on a real git repository: two
 * worktrees each run their own real web server and show its URL; once the agent in one of them is
 * idle for `worktrees.idleStop`, that worktree's server reads "stopped · idle" (not an error) with
 * a Start button, and the click starts it again (the core's startProcess, as MCP start_process)
 * until it is ready on the same port.
 */
const IDLE_STOP_MS = 5_000;
/** A real HTTP server on the instance's own port: each worktree's `web` gets another. */
const WEB = { command: 'python3', args: ['-m', 'http.server', '${port}', '--bind', '127.0.0.1'] };
/** A stand-in agent the generic rules read as idle at its prompt. */
const AGENT = ['bash', '--noprofile', '--norc', '-c', 'printf "> "; while IFS= read -r l; do printf "> "; done'];

let repo: TestRepo;
let serve: ServeHandle;
let mcp: Client;

test.beforeEach(async () => {
  repo = makeTestRepo({ 'README.md': 'hello\n', '.gitignore': 'switchboard.json\n' });
  const config = { processes: { web: WEB }, worktrees: { start: ['web'], idleStop: IDLE_STOP_MS } };
  repo.write('switchboard.json', JSON.stringify(config));
  serve = await startServe(repo.root);
  mcp = new Client({ name: 'worktree-apps-e2e', version: '1.0.0' });
  const headers = { Authorization: `Bearer ${serve.token}` };
  await mcp.connect(new StreamableHTTPClientTransport(new URL(serve.url!), { requestInit: { headers } }));
});
test.afterEach(async () => {
  await mcp.close();
  await serve.stop();
  repo.cleanup();
});

async function tool<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await mcp.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

/** A failed wait names what the core saw: each entry's state, readiness and last output lines. */
async function explainOnFailure(wait: () => Promise<void>): Promise<void> {
  try {
    await wait();
  } catch (err) {
    const { processes } = await tool<{ processes: Array<{ id: string }> }>('list_processes');
    const seen = await Promise.all(
      processes.map(async ({ id }) => ({
        status: await tool('get_process_status', { process_id: id }),
        output: await tool('get_process_output', { process_id: id, max_bytes: 2000 }),
      })),
    );
    throw new Error(`${(err as Error).message}\nwhat the core saw: ${JSON.stringify(seen, null, 1)}`, { cause: err });
  }
}

test('two worktrees show their own URLs; an idle-stopped server reads stopped · idle and a Start click brings it back', async ({
  page,
}, testInfo) => {
  await tool('create_worktree', { name: 'feature-a' });
  await tool('create_worktree', { name: 'feature-b' });
  await page.goto(serve.ui);
  const sidebar = page.getByTestId('sidebar');
  const group = (id: string) => sidebar.locator(`[data-testid="worktree-group"][data-worktree="${id}"]`);
  const urlA = group('feature-a').getByTestId('worktree-url');
  const urlB = group('feature-b').getByTestId('worktree-url');
  await explainOnFailure(() => expect(urlA).toHaveText(/^web localhost:\d+$/, { timeout: 30_000 }));
  await explainOnFailure(() => expect(urlB).toHaveText(/^web localhost:\d+$/, { timeout: 30_000 }));
  const addressA = await urlA.textContent();
  expect(addressA).not.toBe(await urlB.textContent());
  await page.screenshot({ path: screenshotPath(testInfo, 'worktree-apps-urls.png') });

  // An agent in feature-a, idle at its prompt: after idleStop, feature-a's web stops as idle.
  await tool('spawn_agent', { agent: 'generic', name: 'agent-a', worktree: 'feature-a', argv: AGENT });
  const { processes } = await tool<{ processes: Array<{ id: string; config_name?: string }> }>('list_processes', {
    worktree: 'feature-a',
  });
  const webA = processes.find((p) => p.config_name === 'web')!;
  const row = sidebar.locator(`[data-testid="sidebar-entry"][data-id="${webA.id}"]`);
  await expect(row.getByTestId('state')).toHaveText('○ stopped · idle', { timeout: 30_000 });
  await expect(row.getByTestId('state')).not.toHaveClass(/tone-error/);
  await expect(row.getByTestId('state')).toHaveAttribute('title', /^Stopped · idle: its worktree's agents were idle/);
  await expect(urlA).toHaveCount(0);
  // feature-b has no agent: its server keeps running.
  await expect(urlB).toHaveText(/^web localhost:\d+$/);
  const pane = page.locator(`[data-testid="pane"][data-id="${webA.id}"]`);
  await expect(pane.getByTestId('state')).toHaveText('○ stopped · idle');
  await page.screenshot({ path: screenshotPath(testInfo, 'worktree-apps-idle-stopped.png') });

  // Every state the row shows from the click on: the agent is still idle, so idle stop comes
  // round again IDLE_STOP_MS after this start, and the test must not have to catch `ready` live.
  await row.getByTestId('state').evaluate((badge) => {
    const seen: string[] = [];
    (window as unknown as { idleRowStates: string[] }).idleRowStates = seen;
    new MutationObserver(() => seen.push(badge.textContent ?? '')).observe(badge, { childList: true, characterData: true, subtree: true });
  });
  await row.getByTestId('idle-start').click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { idleRowStates: string[] }).idleRowStates), { timeout: 30_000 })
    .toContain('● ready');
  const states = await page.evaluate(() => (window as unknown as { idleRowStates: string[] }).idleRowStates);
  expect(states.slice(0, states.indexOf('● ready')).every((s) => !s.includes('error'))).toBe(true);
  await page.screenshot({ path: screenshotPath(testInfo, 'worktree-apps-started-again.png') });
  // Started again by the core: a new run, on the port feature-a's web had before.
  const status = await tool<{ runId: number; readiness?: { port?: number } }>('get_process_status', { process_id: webA.id });
  expect(status.runId).toBe(2);
  expect(addressA).toBe(`web localhost:${status.readiness?.port}`);
});
