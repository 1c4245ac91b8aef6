/**
 * The attention inbox with two real Claude Code agents (mock Messages API each) waiting for
 * permission at once: approving one from the inbox runs its tool (its mock sees the tool_result)
 * while the other keeps waiting, untouched: its mock sees nothing new and its prompt on screen is
 * the same prompt (same fingerprint). Its screenshot is docs/screenshots/inbox.png (`UPDATE_SCREENSHOTS=1`).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pane, paneText, startServe, type ServeHandle } from './support/serve';
import { screenshotPath } from './support/screenshots';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from '@playwright/test';
import type { ProjectUsage } from '../src/shared/usage';
import { startMockAnthropic, type MockAnthropic } from '../test/fixtures/anthropic/mockAnthropic';
import { CLAUDE_BIN, createClaudeHarness, type ClaudeHarness } from '../test/fixtures/anthropic/claudeHarness';

/** Two Claude Code start-ups on a loaded 2-core machine. */
const TEST_TIMEOUT_MS = 240_000;
const WAITING_TIMEOUT_MS = 120_000;

interface Agent {
  name: string;
  command: string;
  mock: MockAnthropic;
  harness: ClaudeHarness;
}

let serve: ServeHandle | undefined;
const agents: Agent[] = [];

test.afterEach(async () => {
  await serve?.stop();
  for (const a of agents.splice(0)) {
    await a.mock.close();
    await a.harness.cleanup();
  }
});

/** Distinctive token counts for the two turns (priced by claude-opus-5-5's row: $4 / $20 / $0.20 / $5 per million). */
const TURN_USAGE = [
  { input_tokens: 21_000, output_tokens: 400, cache_read_input_tokens: 150_000, cache_creation_input_tokens: 9_000 },
  { input_tokens: 3_000, output_tokens: 120, cache_read_input_tokens: 170_000, cache_creation_input_tokens: 2_000 },
];

async function claudeAgent(name: string, command: string): Promise<Agent> {
  const mock = await startMockAnthropic({
    turns: [
      { steps: [{ toolUse: { name: 'Bash', input: { command, description: `Post for ${name}` } } }], usage: TURN_USAGE[0] },
      { steps: [{ text: 'Posted.' }], usage: TURN_USAGE[1] },
    ],
  });
  const harness = await createClaudeHarness({ baseUrl: mock.url });
  const agent = { name, command, mock, harness };
  agents.push(agent);
  return agent;
}

/** The approved tool ran: Claude Code sent its result (curl's own failure to connect is fine), not the rejection it reports after a No. */
async function expectToolRan(a: Agent): Promise<void> {
  const toolUse = await a.mock.waitFor('tool_use');
  const result = await a.mock.waitFor('tool_result', (e) => e.toolUseId === toolUse.id, { timeoutMs: 60_000 });
  expect(result.content).not.toMatch(/doesn.t want to proceed|rejected/i);
}

/** No keys reached `a` since `mark`: its model heard nothing and no tool of it ran. */
function expectModelHeardNothingSince(a: Agent, mark: number): void {
  const isMain = (e: object) => (e as { kind?: string }).kind === 'main';
  expect(a.mock.events.filter((e) => e.seq >= mark && isMain(e))).toEqual([]);
  expect(a.mock.events.some((e) => e.type === 'tool_result')).toBe(false);
}

function claudeEntry(a: Agent) {
  return {
    preset: 'claude',
    command: CLAUDE_BIN,
    // Manual mode, so a risky call asks "Do you want to proceed?" (auto mode, 2.1.332's default,
    // asks its server-side check, which the mock does not pass); on the command line it comes
    // without the start-up offer that `permissions.defaultMode` brings.
    args: ['--permission-mode', 'default', `Upload the file for ${a.name}`],
    cwd: a.harness.cwd,
    env: a.harness.env,
    autoStart: true,
  };
}

test('two Claude Code agents wait for permission: approving one from the inbox never types into the other', async ({ page }, testInfo) => {
  test.setTimeout(TEST_TIMEOUT_MS);
  const alpha = await claudeAgent('alpha', 'curl -X POST http://127.0.0.1:9/alpha-upload');
  const beta = await claudeAgent('beta', 'curl -X POST http://127.0.0.1:9/beta-upload');
  const project = mkdtempSync(join(tmpdir(), 'sb-e2e-inbox-'));
  writeFileSync(join(project, 'switchboard.json'), JSON.stringify({ agents: { alpha: claudeEntry(alpha), beta: claudeEntry(beta) } }));
  serve = await startServe(project);
  await page.goto(serve.ui);

  for (const a of [alpha, beta]) {
    await expect(pane(page, a.name).getByTestId('state')).toContainText('waiting · permission', { timeout: WAITING_TIMEOUT_MS });
  }
  await expect(page.getByTestId('open-inbox')).toContainText('2 waiting');

  await page.keyboard.press('Control+Shift+KeyE');
  const inbox = page.getByRole('dialog', { name: 'Attention inbox' });
  const items = inbox.getByTestId('inbox-item');
  await expect(items).toHaveCount(2);
  const item = (a: Agent) => inbox.locator(`[data-testid="inbox-item"][data-name="${a.name}"]`);
  for (const a of [alpha, beta]) {
    await expect(item(a).getByTestId('inbox-question')).toContainText(a.command);
    await expect(item(a).getByTestId('inbox-question')).toContainText('Do you want to proceed?');
    await expect(item(a).getByTestId('inbox-question')).not.toContainText('Claude Code v');
    await expect(item(a).getByRole('button', { name: `Yes (approve) — ${a.name}` })).toBeVisible();
  }
  await page.screenshot({ path: screenshotPath(testInfo, 'inbox.png') });
  const axe = await new AxeBuilder({ page }).include('[data-testid="inbox"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  const betaFingerprint = await item(beta).getAttribute('data-fingerprint');
  expect(betaFingerprint).toMatch(/^[0-9a-f]{16}$/);
  const betaMark = beta.mock.mark();

  await item(alpha).getByRole('button', { name: `Yes (approve) — alpha` }).click();
  await expectToolRan(alpha);
  await expect(pane(page, 'alpha').getByTestId('state')).not.toContainText('waiting', { timeout: 30_000 });
  await expect(items).toHaveCount(1);
  await expect(item(beta)).toHaveAttribute('data-fingerprint', betaFingerprint!);

  // Alpha's spend, read from its transcript, in its pane header: both turns, estimated from the price table.
  await alpha.mock.waitFor('stream_end', (e) => e.kind === 'main' && e.turn === 1);
  const alphaUsage = pane(page, 'alpha').getByTestId('usage-figure');
  await expect(alphaUsage).toHaveText('~$0.23', { timeout: 30_000 });
  await expect(alphaUsage).toHaveAttribute('title', /input 24,000 · output 520 · cache read 320,000 · cache write 11,000 tokens/);
  await expect(alphaUsage).toHaveAttribute('title', /cost \$0\.23 \(estimated from the price table\)/);
  // Beta answered once: its first response only.
  await expect(pane(page, 'beta').getByTestId('usage-figure')).toHaveText('~$0.17');
  await page.screenshot({ path: screenshotPath(testInfo, 'usage-figure.png') });

  // Beta got no keys: still waiting on the same prompt, and its model heard nothing since.
  await expect(pane(page, 'beta').getByTestId('state')).toContainText('waiting · permission');
  expectModelHeardNothingSince(beta, betaMark);

  // Deny beta from the inbox: Escape, the tool never runs.
  await item(beta).getByRole('button', { name: 'No (deny) — beta' }).click();
  await expect(pane(page, 'beta').getByTestId('state')).not.toContainText('waiting', { timeout: 30_000 });
  await expect(inbox.getByText('No agent is waiting.')).toBeVisible();
  expect(beta.mock.events.some((e) => e.type === 'tool_result' && !e.isError)).toBe(false);

  await expectBudgetAskedInTheInbox(page, testInfo);
  await expectUsageViewMatchesGetUsage(page, serve, testInfo);
});

/**
 * A cap below what alpha spent, set from its pane: alpha is at its budget, the inbox asks the
 * person, who goes on once and then raises the cap from the row; the row goes. Leaves the inbox open.
 */
async function expectBudgetAskedInTheInbox(page: Page, testInfo: Parameters<typeof screenshotPath>[0]) {
  await page.getByTestId('inbox-close').click();
  const alphaPane = pane(page, 'alpha');
  await alphaPane.getByTestId('budget').click();
  await alphaPane.getByTestId('budget-cap').fill('0.1');
  await alphaPane.getByTestId('budget-set').click();
  await expect(alphaPane.getByTestId('budget-reached')).toContainText('budget reached');
  await expect(pane(page, 'beta').getByTestId('budget-reached')).toHaveCount(0);

  await page.getByTestId('open-inbox').click();
  const rows = page.getByTestId('inbox-budget');
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row).toHaveAttribute('data-name', 'alpha');
  await expect(row).toContainText('alpha: budget reached ($0.23 / $0.10 day)');
  await row.getByRole('button', { name: 'Go on once — alpha' }).click();
  await expect(row.getByTestId('inbox-budget-go-once')).toBeDisabled();
  await expect(row.getByTestId('inbox-budget-go-once')).toHaveText('Going on once');
  await page.screenshot({ path: screenshotPath(testInfo, 'inbox-budget.png') });

  // A phone that a notification brought here can answer too: the row is in "Needs you".
  await page.getByTestId('inbox-close').click();
  await page.setViewportSize({ width: 390, height: 844 });
  const phoneRow = page.getByTestId('phone-needs-you').getByTestId('inbox-budget');
  await expect(phoneRow).toHaveAttribute('data-name', 'alpha');
  await expect(phoneRow.getByRole('button', { name: 'Screen' })).toBeVisible();
  await page.screenshot({ path: screenshotPath(testInfo, 'inbox-budget-phone.png') });
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.getByTestId('open-inbox').click();

  await row.getByTestId('inbox-budget-raise').click();
  await row.getByTestId('budget-cap').fill('1');
  await row.getByTestId('budget-set').click();
  await expect(rows).toHaveCount(0);
  await expect(alphaPane.getByTestId('budget-reached')).toHaveCount(0);
}

/** The project's totals as an agent reads them over MCP (get_usage, no id). */
async function getUsage(handle: ServeHandle): Promise<ProjectUsage> {
  const client = new Client({ name: 'e2e', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(handle.url!), { requestInit: { headers: { Authorization: `Bearer ${handle.token}` } } }),
  );
  try {
    return (await client.callTool({ name: 'get_usage', arguments: {} })).structuredContent as ProjectUsage;
  } finally {
    await client.close();
  }
}

const count = (n: number) => n.toLocaleString('en');

/** The usage view's per-agent and per-day figures are get_usage's own, and the view is axe-clean at desktop and phone widths. */
async function expectUsageViewMatchesGetUsage(page: Page, handle: ServeHandle, testInfo: Parameters<typeof screenshotPath>[0]) {
  await page.getByTestId('inbox-close').click();
  await page.getByTestId('open-usage').click();
  const view = page.getByRole('dialog', { name: 'Usage' });
  const usage = await getUsage(handle);
  expect(usage.agents.map((a) => a.name).sort()).toEqual(['alpha', 'beta']);
  expect(usage.days.length).toBeGreaterThan(0);
  await view.getByTestId('usage-refresh').click();
  for (const agent of usage.agents) {
    const row = view.locator(`[data-testid="usage-agent-row"][data-process-id="${agent.process_id}"]`);
    await expect(row.getByRole('rowheader')).toHaveText(new RegExp(`^${agent.name}`));
    await expect(row.getByTestId('usage-input')).toHaveText(count(agent.input_tokens));
    await expect(row.getByTestId('usage-output')).toHaveText(count(agent.output_tokens));
    await expect(row.getByTestId('usage-cache-read')).toHaveText(count(agent.cache_read_tokens));
    await expect(row.getByTestId('usage-cache-write')).toHaveText(count(agent.cache_write_tokens));
    // Both priced from the table: the cost is marked as an estimate.
    expect(agent.cost_source).toBe('estimated');
    await expect(row.getByTestId('usage-cost')).toHaveText(`~$${agent.cost_usd!.toFixed(2)} est.`);
  }
  const total = view.getByTestId('usage-agents-total');
  await expect(total.getByTestId('usage-input')).toHaveText(count(usage.input_tokens));
  await expect(total.getByTestId('usage-cost')).toHaveText(`~$${usage.cost_usd!.toFixed(2)} est.`);
  for (const day of usage.days) {
    const row = view.locator(`[data-testid="usage-day-row"][data-day="${day.day}"][data-worktree="${day.worktree}"]`);
    await expect(row.getByTestId('usage-input')).toHaveText(count(day.input_tokens));
    await expect(row.getByTestId('usage-output')).toHaveText(count(day.output_tokens));
    await expect(row.getByTestId('usage-cache-read')).toHaveText(count(day.cache_read_tokens));
    await expect(row.getByTestId('usage-cache-write')).toHaveText(count(day.cache_write_tokens));
    await expect(row.getByTestId('usage-cost')).toHaveText(`$${day.cost_usd.toFixed(2)}`);
  }
  // What the agents spent today is what the history booked today (both agents ran in this test only).
  const today = usage.days.filter((d) => d.day === usage.days.at(-1)!.day);
  expect(today.reduce((sum, d) => sum + d.input_tokens, 0)).toBe(usage.input_tokens);
  await page.screenshot({ path: screenshotPath(testInfo, 'usage-view.png') });
  const axe = await new AxeBuilder({ page }).include('[data-testid="usage-view"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('phone-view')).toBeVisible();
  await expect(view.locator('[data-testid="usage-agent-row"]')).toHaveCount(2);
  await page.screenshot({ path: screenshotPath(testInfo, 'usage-view-phone.png') });
  const phoneAxe = await new AxeBuilder({ page }).include('[data-testid="usage-view"]').analyze();
  expect(phoneAxe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // The narrowest sidebar: the figure shows whole or ends in an ellipsis, and its tooltip keeps every figure.
  await page.setViewportSize({ width: 1400, height: 900 });
  await view.getByTestId('usage-close').click();
  const resizer = page.getByRole('separator');
  await resizer.focus();
  for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowLeft');
  await expect(resizer).toHaveAttribute('aria-valuenow', '160');
  const figure = page.locator('[data-testid="sidebar-entry"]').first().getByTestId('usage-figure');
  await expect(figure).toHaveAttribute('title', /input [\d,]+ · output/);
  // Whole and inside its line, wrapped whole onto the hidden line, or cut with an ellipsis: never `~$0.`.
  const fit = await figure.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const line = el.parentElement!.getBoundingClientRect();
    const cut = el.scrollWidth > el.clientWidth;
    if (cut) return getComputedStyle(el).textOverflow === 'ellipsis' ? 'cut with an ellipsis' : 'cut';
    if (box.top >= line.bottom) return 'dropped';
    const row = el.closest('.badges')!.getBoundingClientRect();
    return box.right <= Math.min(line.right, row.right) + 0.5 ? 'whole' : 'cut';
  });
  expect(['whole', 'dropped', 'cut with an ellipsis']).toContain(fit);
  await page.screenshot({ path: screenshotPath(testInfo, 'usage-figure-narrow.png'), clip: { x: 0, y: 0, width: 420, height: 260 } });
}

test('the inbox lists the waiting agents of every open project; a row opens its project and pane; answers reach only their project', async ({
  page,
}, testInfo) => {
  test.setTimeout(TEST_TIMEOUT_MS);
  const alpha = await claudeAgent('alpha', 'curl -X POST http://127.0.0.1:9/alpha-upload');
  const beta = await claudeAgent('beta', 'curl -X POST http://127.0.0.1:9/beta-upload');
  const root = mkdtempSync(join(tmpdir(), 'sb-e2e-inbox-projects-'));
  const projectOf = (a: Agent) => `shop-${a.name}`;
  for (const a of [alpha, beta]) {
    mkdirSync(join(root, projectOf(a)));
    writeFileSync(join(root, projectOf(a), 'switchboard.json'), JSON.stringify({ agents: { [a.name]: claudeEntry(a) } }));
  }
  serve = await startServe([alpha, beta].map((a) => join(root, projectOf(a))));
  await page.goto(serve.ui);
  const tab = (a: Agent) => page.locator(`[data-testid="project-tab"][data-project="${projectOf(a)}"]`);
  await expect(tab(alpha)).toHaveClass(/active/);
  await expect(pane(page, 'alpha').getByTestId('state')).toContainText('waiting · permission', { timeout: WAITING_TIMEOUT_MS });

  await page.keyboard.press('Control+Shift+KeyE');
  const inbox = page.getByRole('dialog', { name: 'Attention inbox' });
  const item = (a: Agent) => inbox.locator(`[data-testid="inbox-item"][data-name="${a.name}"]`);
  // Beta's project is not the one shown: its agent is listed all the same, naming its project.
  await expect(item(beta)).toBeVisible({ timeout: WAITING_TIMEOUT_MS });
  await expect(inbox.getByTestId('inbox-item')).toHaveCount(2);
  for (const a of [alpha, beta]) {
    await expect(item(a).getByTestId('inbox-project')).toHaveText(`in ${projectOf(a)}`);
    await expect(item(a).getByTestId('inbox-question')).toContainText(a.command);
    // The dialog itself (2.1.332 shows "Waiting for permission…" under the call first).
    await expect(item(a).getByTestId('inbox-question')).toContainText('Do you want to proceed?');
  }
  await page.screenshot({ path: screenshotPath(testInfo, 'inbox-projects.png') });

  // A click on beta's row shows beta's project with beta's pane focused.
  await item(beta).getByTestId('inbox-question').click();
  await expect(inbox).toBeHidden();
  await expect(tab(beta)).toHaveClass(/active/);
  await expect(pane(page, 'beta')).toHaveClass(/focused/);
  await expect(pane(page, 'alpha')).toHaveCount(0);

  // Approve alpha, whose project is now the one not shown: its tool runs; beta hears nothing.
  await page.keyboard.press('Control+Shift+KeyE');
  const betaFingerprint = await item(beta).getAttribute('data-fingerprint');
  expect(betaFingerprint).toMatch(/^[0-9a-f]{16}$/);
  const betaMark = beta.mock.mark();
  await item(alpha).getByRole('button', { name: 'Yes (approve) — alpha' }).click();
  await expectToolRan(alpha);
  await expect(item(alpha)).toHaveCount(0, { timeout: 30_000 });
  await expect(item(beta)).toHaveAttribute('data-fingerprint', betaFingerprint!);
  await expect(pane(page, 'beta').getByTestId('state')).toContainText('waiting · permission');
  expectModelHeardNothingSince(beta, betaMark);

  await item(beta).getByRole('button', { name: 'No (deny) — beta' }).click();
  await expect(inbox.getByText('No agent is waiting.')).toBeVisible({ timeout: 30_000 });
  await expect(tab(beta)).toHaveClass(/active/);
});

test('a question is answered in words from the inbox: Claude Code gets the typed text as its answer', async ({ page }, testInfo) => {
  test.setTimeout(TEST_TIMEOUT_MS);
  const question = 'Which database should the service use?';
  const mock = await startMockAnthropic({
    turns: [
      [
        {
          toolUse: {
            name: 'AskUserQuestion',
            input: {
              questions: [
                {
                  question,
                  header: 'Database',
                  multiSelect: false,
                  options: [
                    { label: 'PostgreSQL', description: 'Relational' },
                    { label: 'SQLite', description: 'A file' },
                  ],
                },
              ],
            },
          },
        },
      ],
      [{ text: 'Noted.' }],
    ],
  });
  const harness = await createClaudeHarness({ baseUrl: mock.url });
  const asker: Agent = { name: 'asker', command: '', mock, harness };
  agents.push(asker);
  const project = mkdtempSync(join(tmpdir(), 'sb-e2e-inbox-question-'));
  writeFileSync(
    join(project, 'switchboard.json'),
    JSON.stringify({ agents: { asker: { ...claudeEntry(asker), args: ['Pick a database for the service'] } } }),
  );
  serve = await startServe(project);
  await page.goto(serve.ui);
  await expect(pane(page, 'asker').getByTestId('state')).toContainText('waiting · question', { timeout: WAITING_TIMEOUT_MS });

  await page.keyboard.press('Control+Shift+KeyE');
  const inbox = page.getByRole('dialog', { name: 'Attention inbox' });
  const item = inbox.locator('[data-testid="inbox-item"][data-name="asker"]');
  await expect(item).toContainText('asks a question');
  const asked = item.getByTestId('inbox-question');
  await expect(asked).toContainText(question);
  await expect(asked).toContainText('1. PostgreSQL');
  await expect(asked).toContainText('2. SQLite');
  // The prompt alone: not the welcome banner, not the user's turn above it, not the key hints.
  const screen = await paneText(page, 'asker');
  for (const elsewhere of ['Claude Code v', 'Pick a database for the service', 'Enter to select']) {
    expect(screen).toContain(elsewhere);
    await expect(asked).not.toContainText(elsewhere);
  }
  const send = item.getByRole('button', { name: 'Send answer — asker' });
  await expect(send).toBeDisabled();
  await item.getByRole('textbox', { name: 'Answer for asker' }).fill('Use MySQL, the team knows it');
  await page.screenshot({ path: screenshotPath(testInfo, 'inbox-question.png') });
  await send.click();

  const toolUse = await mock.waitFor('tool_use');
  const result = await mock.waitFor('tool_result', (e) => e.toolUseId === toolUse.id, { timeoutMs: 60_000 });
  expect(result.content).toContain(`"${question}"="Use MySQL, the team knows it"`);
  await expect(inbox.getByText('No agent is waiting.')).toBeVisible({ timeout: 30_000 });
  await expect(inbox.getByTestId('inbox-notice')).toContainText('asker: answered "Use MySQL, the team knows it"');
});

test('a Claude Code at its usage limit: the inbox says why with the reset, "Continue at reset" arms a visible timer, and the row then says so', async ({
  page,
}, testInfo) => {
  test.setTimeout(TEST_TIMEOUT_MS);
  // A whole minute half an hour ahead: the CLI prints the reset to the minute.
  const resetsAt = Math.ceil((Date.now() + 30 * 60_000) / 60_000) * 60_000;
  const headers = {
    'anthropic-ratelimit-unified-status': 'rejected',
    'anthropic-ratelimit-unified-representative-claim': 'five_hour',
    'anthropic-ratelimit-unified-reset': String(resetsAt / 1000),
  };
  const limited = { httpError: 429, message: 'rate limited', headers };
  const mock = await startMockAnthropic({ turns: [[limited, limited, { text: 'Back at work.' }]] });
  const harness = await createClaudeHarness({ baseUrl: mock.url, env: { CLAUDE_CODE_MAX_RETRIES: '1' } });
  const limitedAgent: Agent = { name: 'limited', command: '', mock, harness };
  agents.push(limitedAgent);
  const project = mkdtempSync(join(tmpdir(), 'sb-e2e-inbox-limit-'));
  writeFileSync(
    join(project, 'switchboard.json'),
    JSON.stringify({ agents: { limited: { ...claudeEntry(limitedAgent), args: ['Say hello'] } } }),
  );
  serve = await startServe(project);
  await page.goto(serve.ui);
  await expect(pane(page, 'limited').getByTestId('state')).toContainText('waiting · limit', { timeout: WAITING_TIMEOUT_MS });

  await page.keyboard.press('Control+Shift+KeyE');
  const inbox = page.getByRole('dialog', { name: 'Attention inbox' });
  const item = inbox.locator('[data-testid="inbox-item"][data-name="limited"]');
  const resetWords = new Date(resetsAt).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false });
  await expect(item).toContainText('blocked: limit');
  await expect(item.getByTestId('inbox-question')).toHaveText(`claude: usage limit, resets ${resetWords}`);
  await expect(item.getByTestId('inbox-cli-said')).toHaveText('API Error: Request rejected (429) · rate limited');
  const continueButton = item.getByRole('button', { name: 'Continue at reset — limited' });
  await continueButton.click();
  await expect(inbox.getByTestId('inbox-notice')).toContainText(/limited: continues after the reset \(timer t_\w+\)/u);
  // Armed: the row says when it continues instead of offering the action again; the pane header shows the timer.
  await expect(continueButton).toHaveCount(0);
  const note = item.getByTestId('inbox-continues');
  await expect(note).toHaveText(/^Continues by itself: in (29|30):\d\d \(timer t_\w+\)$/u);
  await expect(note).toHaveAttribute('title', `continue at reset (usage limit, resets ${resetWords})`);
  await page.screenshot({ path: screenshotPath(testInfo, 'inbox-blocked.png') });
  await expect(pane(page, 'limited').getByTestId('timer-indicator')).toHaveAttribute('data-state', 'pending');
  // Cancelled in the pane header: the row offers the action again.
  await inbox.getByTestId('inbox-close').click();
  await pane(page, 'limited').getByTestId('timer-cancel').click();
  await expect(pane(page, 'limited').getByTestId('timer-indicator')).toHaveCount(0);
  await page.keyboard.press('Control+Shift+KeyE');
  await expect(item.getByRole('button', { name: 'Continue at reset — limited' })).toBeVisible();
  await expect(item.getByTestId('inbox-continues')).toHaveCount(0);
  // Nothing was typed into the agent: its model heard only the refused turn.
  expect(mock.events.filter((e) => e.type === 'http_error')).toHaveLength(2);
});
