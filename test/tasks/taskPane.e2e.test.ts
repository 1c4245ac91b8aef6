/**
 * The task pane live in a real browser, through the real `serve` (built output: run
 * `npx electron-vite build` first). A real Claude Code task started over MCP shows its phase and
 * tool, the stall warning while a silent Bash earns its extension, then the result with turns and
 * cost; Cancel ends a running task; a follow-up continues the session as a new task. Chromium is
 * driven through Playwright's library API; every wait is on the page or the mock, never a sleep.
 */
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from '../support/chromium';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startServe, type ServeHandle } from '../../e2e/support/serve';
import { CLAUDE_BIN, createClaudeHarness, type ClaudeHarness } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/anthropic/mockAnthropic';

/** Longest wait for one UI state (a task run takes ~3-6 s here). */
const UI_WAIT_MS = 30_000;
/** Three real Claude Code runs one after another (about 16 s on a quiet machine, 60 s and more at load 9). */
const TEST_TIMEOUT_MS = 180_000;

let mock: MockAnthropic;
let harness: ClaudeHarness;
let serve: ServeHandle;
let client: Client;
let browser: Browser;
const savedEnv = { ...process.env };

beforeEach(async () => {
  mock = await startMockAnthropic();
  harness = await createClaudeHarness({ baseUrl: mock.url, allow: ['Bash'] });
  // serve inherits this environment as the app inherits a user's shell: claude on PATH, pointed at the mock.
  for (const [key, value] of Object.entries(harness.env)) if (key !== 'PATH') process.env[key] = value;
  process.env.PATH = `${path.dirname(CLAUDE_BIN)}:${savedEnv.PATH ?? ''}`;
  serve = await startServe(harness.cwd);
  client = new Client({ name: 'task-pane-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(serve.url as string), {
      requestInit: { headers: { Authorization: `Bearer ${serve.token}` } },
    }),
  );
  browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
});

afterEach(async () => {
  await browser?.close();
  await client?.close();
  await serve?.stop();
  await mock?.close();
  await harness?.cleanup();
  process.env = { ...savedEnv };
});

async function startTask(args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name: 'start_task', arguments: { working_dir: harness.cwd, ...args } })) as CallToolResult;
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return (result.structuredContent as { task_id: string }).task_id;
}

/**
 * Waits until the element `testId` inside the pane shows `text` and returns its text, read in the
 * same page task: a state shown briefly (the stall warning lasts until the tool ends) may be gone
 * a moment later, so a second read could wait for an element that will not come back.
 */
async function see(page: Page, paneSelector: string, testId: string, text: string | RegExp): Promise<string> {
  // Strings match as Playwright's hasText does: a case-insensitive substring.
  const pattern = typeof text === 'string' ? { source: text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags: 'i' } : text;
  try {
    const shown = await page.waitForFunction(
      ({ selector, source, flags }) => {
        const wanted = new RegExp(source, flags);
        for (const element of document.querySelectorAll<HTMLElement>(selector))
          if (wanted.test(element.innerText)) return element.innerText;
        return undefined;
      },
      { selector: `${paneSelector} [data-testid="${testId}"]`, source: pattern.source, flags: pattern.flags },
      { timeout: UI_WAIT_MS },
    );
    return (await shown.jsonValue()) as string;
  } catch {
    const panel = await page
      .locator(`${paneSelector} [data-testid="task-panel"]`)
      .innerText()
      .catch(() => '(no task panel)');
    throw new Error(`${testId} never showed ${String(text)}; the panel reads:\n${panel}`);
  }
}

const byId = (id: string) => `[data-testid="pane"][data-id="${id}"]`;
const byName = (name: string) => `[data-testid="pane"][data-name="${name}"]`;

it(
  'a task pane shows phase, tool, stall warning and the result; Cancel and follow-up work',
  async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(serve.ui);
    mock.enqueue(
      [{ text: 'Working on it.' }, { toolUse: { name: 'Bash', input: { command: 'sleep 4 && echo ok', description: 'wait' } } }],
      [{ text: 'Finished: ok.' }],
    );
    const id = await startTask({ prompt: 'Wait, then report', name: 'waiter', timeouts: { idle_seconds: 1.5 } });
    const p = byId(id);

    await see(page, p, 'task-phase', 'tool executing');
    await see(page, p, 'task-tools', 'Bash sleep 4 && echo ok');
    expect(await see(page, p, 'task-stall-warning', 'Silent for')).toMatch(/own 120 s timeout/);
    await see(page, p, 'task-text', 'Working on it.');
    await see(page, p, 'task-phase', 'done');
    expect(await page.locator(`${p} [data-testid="task-stall-warning"]`).count()).toBe(0);
    expect(await see(page, p, 'task-result', 'Finished: ok.')).toMatch(/2 turns · \$\d+\.\d{4}/);
    await see(page, p, 'task-message', 'Finished in 2 turns');
    await page.locator(`${p} [data-testid="task-decisions-toggle"]`).click();
    await see(page, p, 'task-decisions', 'extended (idle)');
    // "done" comes with the result; Cancel stays until the agent's process tree is gone (a run that
    // lingers after its result can still be ended), then goes.
    await page.locator(`${p} [data-testid="task-cancel"]`).waitFor({ state: 'detached', timeout: UI_WAIT_MS });

    // Cancel a running task from its pane.
    // Not `sleep 120`: Claude Code 2.1.332 blocks a long standalone sleep.
    mock.enqueue([{ toolUse: { name: 'Bash', input: { command: 'node -e "setTimeout(() => {}, 120000)"', description: 'long' } } }]);
    const long = byId(await startTask({ prompt: 'Sleep long', name: 'sleeper' }));
    await see(page, long, 'task-phase', 'tool executing');
    await page.locator(`${long} [data-testid="task-cancel"]`).click();
    await see(page, long, 'task-phase', 'cancelled');
    await see(page, long, 'task-error', 'cancelled by request');

    // A follow-up continues the first task's session as a new task.
    const before = mock.requests.length;
    mock.enqueue([{ text: 'Follow-up answered.' }]);
    await page.locator(`${p} [data-testid="task-follow-up"] input`).fill('And now?');
    await page.locator(`${p} [data-testid="task-follow-up"] button`).click();
    const follow = byName('waiter (follow-up)');
    await see(page, follow, 'task-phase', 'done');
    await see(page, follow, 'task-result', 'Follow-up answered.');
    const resumed = mock.requests.slice(before).find((r) => r.kind === 'main');
    expect(resumed?.userText).toBe('And now?');
    expect(resumed?.body.messages?.length ?? 0).toBeGreaterThan(1); // the earlier conversation came along
  },
  TEST_TIMEOUT_MS,
);
