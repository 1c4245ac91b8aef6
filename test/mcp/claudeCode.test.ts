/**
 * A real agent as the client: the real Claude Code (2.1.197) spawned BY Switchboard as an agent
 * entry through the claude preset, offline against the mock Messages API. Its model asks for
 * mcp__switchboard__list_processes, then mcp__switchboard__whoami; the calls must reach
 * Switchboard attributed to that entry, with no set-up beyond spawning it. Waits are on events
 * (the mock's timeline, tool-call records), never sleeps.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_BIN, createClaudeHarness, type ClaudeHarness, type ClaudeHarnessOptions } from '../fixtures/anthropic/claudeHarness';
import {
  startMockAnthropic,
  unifiedRateLimitHeaders,
  type MockAnthropic,
  type MockAnthropicOptions,
} from '../fixtures/anthropic/mockAnthropic';
import { waitForScreen } from '../support/wait';
import { waitForEvent } from '../../src/main/core/base';
import type { ToolCallRecord } from '../../src/main/core/mcp';
import { callOk, connectClient, startSwitchboard, type Switchboard } from './mcpHarness';
import type { ProcessUsage, ProjectUsage, TokenCounts, UsageRecord } from '../../src/shared/usage';
import { MODEL_TABLE } from '../../src/main/core/usage';
import { budgetOf } from '../../src/main/core/budget';
import { APP_ACTOR } from '../../src/main/core/timers';
import type { ControlEvent } from '../../src/shared/api';

/** Claude Code starts, connects its MCP servers and runs two tool turns: generous on a shared 2-core box. */
const AGENT_FLOW_TIMEOUT_MS = 90_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The mock, an offline Claude Code home and a Switchboard on it, all closed after the test. */
async function startClaudeWorld(
  options: MockAnthropicOptions = {},
  harnessOptions: Omit<ClaudeHarnessOptions, 'baseUrl'> = {},
): Promise<{ mock: MockAnthropic; harness: ClaudeHarness; sb: Switchboard }> {
  const mock = await startMockAnthropic(options);
  cleanups.push(() => mock.close());
  const harness = await createClaudeHarness({ ...harnessOptions, baseUrl: mock.url });
  cleanups.push(() => harness.cleanup());
  const sb = await startSwitchboard({ projectDir: harness.cwd });
  cleanups.push(() => sb.close());
  return { mock, harness, sb };
}

/**
 * Spawned like any agent: the claude preset (argv only points at the installed binary), the
 * harness's offline environment, and the instructions typed once Claude Code is idle.
 */
async function spawnClaude(sb: Switchboard, harness: ClaudeHarness, name: string, instructions: string) {
  const agent = await sb.handle.core.spawnAgent({
    preset: 'claude',
    argv: [CLAUDE_BIN],
    name,
    cwd: harness.cwd,
    env: harness.env,
    instructions,
  });
  const entry = sb.handle.core.entry(agent.id);
  return { agent, entry, screen: () => entry.screen.getVisibleLines().join('\n') };
}

/** Idle as its status tracker says (hooks and screen). The transcript may still lag (see waitForUsageOf). */
async function waitForAgentIdle(sb: Switchboard, id: string): Promise<void> {
  const tracker = sb.handle.core.statusTrackerOf(id);
  if (tracker.status.primary === 'idle') return;
  await waitForEvent(tracker.onDidChangeStatus, (s) => s.primary === 'idle', AGENT_FLOW_TIMEOUT_MS);
}

/**
 * Until the entry's usage record satisfies `done`. Claude Code queues its transcript writes and
 * drains the queue every 100 ms, so a turn's last response can reach the file after its Stop hook;
 * the file's watch reads it then and the entry's change carries it.
 */
async function waitForUsageOf(sb: Switchboard, id: string, done: (u: UsageRecord) => boolean): Promise<void> {
  const core = sb.handle.core;
  const current = () => core.describe(id).usage;
  if (current() && done(current()!)) return;
  await waitForEvent(
    core.onEvent,
    (e) => e.type === 'processChanged' && e.process.id === id && !!e.process.usage && done(e.process.usage),
    AGENT_FLOW_TIMEOUT_MS,
  );
}

/** The price table's cost of `tokens` (USD, micro-dollar precision): Claude Code's own figure agrees with it for its model. */
function priceOf(model: string, t: TokenCounts): number {
  const p = MODEL_TABLE[model].price;
  return (
    Math.round(
      t.input_tokens * p.input + t.output_tokens * p.output + t.cache_read_tokens * p.cacheRead + t.cache_write_tokens * p.cacheWrite,
    ) / 1e6
  );
}

/** Waits for the model's call of `tool` and the result Claude Code sends back; a timeout shows the agent's screen. */
async function toolRoundTrip(mock: MockAnthropic, tool: string, screen: () => string) {
  const waitOptions = { timeoutMs: AGENT_FLOW_TIMEOUT_MS, context: screen };
  const use = await mock.waitFor('tool_use', (e) => e.name === tool, waitOptions);
  return mock.waitFor('tool_result', (e) => e.toolUseId === use.id, waitOptions);
}

describe('the real Claude Code as an MCP client', () => {
  it("calls list_processes, whoami and get_usage, attributed to its own agent entry, with no set-up; its usage is the mock's sums and its plan's windows", async () => {
    // The plan's windows as every answer's unified rate-limit headers give them (whole seconds, as sent).
    const fiveHourReset = (Math.floor(Date.now() / 1000) + 3 * 3600) * 1000;
    const weekReset = (Math.floor(Date.now() / 1000) + 4 * 86_400) * 1000;
    const headers = unifiedRateLimitHeaders({
      fiveHour: { utilization: 0.42, resetsAt: fiveHourReset },
      sevenDay: { utilization: 0.85, resetsAt: weekReset },
    });
    const { mock, harness, sb } = await startClaudeWorld(
      {
        // Distinctive token counts per turn: get_usage must add exactly these up.
        turns: [
          {
            steps: [{ text: 'Let me look at the processes.' }, { toolUse: { name: 'mcp__switchboard__list_processes', input: {} } }],
            headers,
            usage: { input_tokens: 1201, output_tokens: 301, cache_read_input_tokens: 5003, cache_creation_input_tokens: 707 },
          },
          {
            steps: [{ toolUse: { name: 'mcp__switchboard__whoami', input: {} } }],
            headers,
            usage: { input_tokens: 1402, output_tokens: 302, cache_read_input_tokens: 6004, cache_creation_input_tokens: 808 },
          },
          {
            steps: [{ toolUse: { name: 'mcp__switchboard__get_usage', input: {} } }],
            headers,
            usage: { input_tokens: 1603, output_tokens: 303, cache_read_input_tokens: 7005, cache_creation_input_tokens: 909 },
          },
          {
            steps: [{ text: 'I am connected to Switchboard.' }],
            headers,
            usage: { input_tokens: 1804, output_tokens: 304, cache_read_input_tokens: 8006, cache_creation_input_tokens: 1010 },
          },
        ],
      },
      // Claude Code reads those headers only for a plan's sign-in: a gateway token's here.
      { auth: 'gateway' },
    );
    const attention: string[] = [];
    const attentionSub = sb.handle.core.onEvent((e: ControlEvent) => e.type === 'attentionRequested' && attention.push(e.reason));
    cleanups.push(async () => attentionSub.dispose());

    const calls: ToolCallRecord[] = [];
    const sub = sb.handle.mcp.service.onDidCallTool((record) => calls.push(record));
    cleanups.push(async () => sub.dispose());
    const whoamiCalled = waitForEvent(sb.handle.mcp.service.onDidCallTool, (r) => r.tool === 'whoami', AGENT_FLOW_TIMEOUT_MS);

    const { agent, entry, screen } = await spawnClaude(sb, harness, 'claude-under-test', 'Which processes are running, and who are you?');
    const listResult = await toolRoundTrip(mock, 'mcp__switchboard__list_processes', screen);
    // The preset wired the endpoint into Claude Code's own MCP config for this run; the token is
    // not on the command line (other local users can read /proc/<pid>/cmdline). Read only once
    // Claude Code has talked to the mock: during its exec chain (env, node) the file reads empty.
    const cmdline = readFileSync(`/proc/${entry.pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline).toContain('--mcp-config');
    expect(cmdline.join(' ')).toContain(sb.url);
    expect(cmdline.join(' ')).not.toContain(sb.handle.mcp.service.identity.tokenFor(agent.id));
    expect(listResult.isError).toBe(false);
    expect(listResult.content).toContain(agent.id);
    expect(listResult.content).toContain('claude-under-test');

    const whoResult = await toolRoundTrip(mock, 'mcp__switchboard__whoami', screen);
    expect(whoResult.isError).toBe(false);
    const me = JSON.parse(whoResult.content) as { process_id: string; role: string; name: string };
    expect(me).toMatchObject({ process_id: agent.id, role: 'agent', name: 'claude-under-test' });

    // On Switchboard's side: both calls arrived with the agent's own token.
    await whoamiCalled;
    const fromAgent = calls.filter((c) => c.caller.kind === 'process' && c.caller.processId === agent.id).map((c) => c.tool);
    expect(fromAgent).toEqual(expect.arrayContaining(['list_processes', 'whoami']));
    expect(calls.filter((c) => c.caller.kind !== 'process')).toEqual([]);
    expect(calls.every((c) => !c.isError)).toBe(true);

    // The agent may read its own usage (the project's totals list it).
    const usageResult = await toolRoundTrip(mock, 'mcp__switchboard__get_usage', screen);
    expect(usageResult.isError, usageResult.content).toBe(false);
    expect((JSON.parse(usageResult.content) as ProjectUsage).agents.map((a) => a.process_id)).toEqual([agent.id]);

    await mock.waitFor('stream_end', (e) => e.turn === 3, { timeoutMs: AGENT_FLOW_TIMEOUT_MS, context: screen });
    // Claude Code's HTTP hooks reached the agent's status tracker with the same token.
    expect(sb.handle.core.describe(agent.id).agent?.lastHookAt, JSON.stringify(sb.handle.core.describe(agent.id).agent)).toBeGreaterThan(0);

    // Once the turn is over, the agent's usage is exactly what the mock reported for its main requests.
    await waitForAgentIdle(sb, agent.id);
    await waitForUsageOf(sb, agent.id, (u) => u.context_used === 1804 + 304 + 8006 + 1010 && u.windows.length === 2);
    const client = await connectClient(sb.url, sb.token);
    cleanups.push(() => client.close());
    const usage = await callOk<ProcessUsage>(client, 'get_usage', { process_id: agent.id });
    const ends = mock.events.filter((e) => e.type === 'stream_end' && e.kind === 'main');
    const sum = (field: 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens') =>
      ends.reduce((n, e) => n + (e.type === 'stream_end' ? e[field] : 0), 0);
    expect(ends).toHaveLength(4);
    expect(usage).toMatchObject({
      process_id: agent.id,
      input_tokens: sum('inputTokens'),
      output_tokens: sum('outputTokens'),
      cache_read_tokens: sum('cacheReadTokens'),
      cache_write_tokens: sum('cacheWriteTokens'),
      context_used: 1804 + 304 + 8006 + 1010,
      source: 'claude transcript',
    });
    expect(usage.input_tokens).toBe(1201 + 1402 + 1603 + 1804);
    // The cost: Claude Code's own figure when its transcript has a current one, else the price table's.
    expect(usage.cost_source === 'cli' || usage.cost_source === 'estimated').toBe(true);
    expect(usage.cost_usd).toBe(priceOf(usage.model!, usage));
    const totals = await callOk<ProjectUsage>(client, 'get_usage');
    expect(totals).toMatchObject({ input_tokens: usage.input_tokens, cost_usd: usage.cost_usd, agents: [{ process_id: agent.id }] });

    // The plan's windows came through Claude Code's status line, as the mock's headers had them.
    const weekly = { name: 'weekly', used_percent: 85, resets_at: new Date(weekReset).toISOString() };
    expect(usage.windows).toEqual([{ name: '5h', used_percent: 42, resets_at: new Date(fiveHourReset).toISOString() }, weekly]);
    expect(totals.windows).toEqual(usage.windows.map((w) => ({ ...w, name: `claude-under-test: ${w.name}` })));
    // The weekly window past 80 % is an inbox row and a person was told once, though every turn repeated it.
    expect(sb.handle.core.describe(agent.id).usageWarnings).toEqual([
      { window: 'weekly', used_percent: 85, resets_at: weekly.resets_at, raised_at: expect.any(Number) },
    ]);
    expect(attention.filter((r) => r.includes('usage window'))).toEqual([
      `claude-under-test: weekly usage window at 85 %; it resets at ${weekly.resets_at}`,
    ]);
    // Claude Code shows the receiver's line under its prompt.
    await waitForScreen(entry, (lines) => lines.some((l) => l.includes('5h 42 % · weekly 85 %')), AGENT_FLOW_TIMEOUT_MS);
  }, 150_000);
  it('is refused, with the missing scope named, when it reads the output of an entry it did not spawn; its user keeps their status line', async () => {
    // The user's own status line, which Switchboard's (--settings) would otherwise replace.
    const { mock, harness, sb } = await startClaudeWorld(
      {},
      { settings: { statusLine: { type: 'command', command: `printf 'mine, from %s bytes' "$(wc -c | tr -d ' ')"` } } },
    );
    const web = await sb.handle.core.spawnProcess({
      kind: 'command',
      argv: ['sh', '-c', 'echo secret-dev-server-output; sleep 600'],
      name: 'web',
    });
    mock.enqueue(
      [
        { text: 'Let me read the dev server.' },
        { toolUse: { name: 'mcp__switchboard__get_process_output', input: { process_id: web.id } } },
      ],
      [{ text: 'I may not read it.' }],
    );
    const refused = waitForEvent(sb.handle.mcp.service.onDidCallTool, (r) => r.tool === 'get_process_output', AGENT_FLOW_TIMEOUT_MS);

    const { agent, entry, screen } = await spawnClaude(sb, harness, 'claude-without-scope', 'What does the dev server print?');
    const result = await toolRoundTrip(mock, 'mcp__switchboard__get_process_output', screen);
    expect(result.isError).toBe(true);
    expect(result.content).toContain(
      `Missing scope "entries:read-all": reading the output of "web" (${web.id}), which you did not spawn, needs it`,
    );
    expect(result.content).not.toContain('secret-dev-server-output');
    const record = await refused;
    expect(record).toMatchObject({ caller: { kind: 'process', processId: agent.id }, isError: true });
    // Their command ran on Claude Code's status-line input (a JSON object, far over 100 bytes) and its line
    // is shown: Switchboard's own status line, the only other one, would print the model's name instead.
    await waitForScreen(entry, (rows) => rows.some((l) => /mine, from \d{3,} bytes/u.test(l)), AGENT_FLOW_TIMEOUT_MS);
  }, 150_000);

  it(
    'at its budget, a timer delivery is held with reason "budget", a person is told once, and "go on once" lets exactly one turn through',
    async () => {
      const { mock, harness, sb } = await startClaudeWorld({
        turns: [
          {
            steps: [{ text: 'First answer.' }],
            usage: { input_tokens: 6001, output_tokens: 401, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
          },
          {
            steps: [{ text: 'Second answer.' }],
            usage: { input_tokens: 2002, output_tokens: 202, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
          },
        ],
      });
      const { core } = sb.handle;
      const attention: string[] = [];
      const sub = core.onEvent((e: ControlEvent) => e.type === 'attentionRequested' && attention.push(e.reason));
      cleanups.push(async () => sub.dispose());
      const { agent, screen } = await spawnClaude(sb, harness, 'claude-on-a-budget', 'Say something.');
      budgetOf(core).setBudget({ id: agent.id, budget: { tokens: 5000, period: 'run' } });
      const mainTurns = () => mock.events.filter((e) => e.type === 'stream_end' && e.kind === 'main').length;

      // The first turn spends past the cap: the agent is at its budget once its usage is read.
      await mock.waitFor('stream_end', (e) => e.turn === 0, { timeoutMs: AGENT_FLOW_TIMEOUT_MS, context: screen });
      await waitForAgentIdle(sb, agent.id);
      if (!core.describe(agent.id).budget?.reached) {
        await waitForEvent(
          core.onEvent,
          (e) => e.type === 'processChanged' && e.process.id === agent.id && e.process.budget?.reached === true,
          AGENT_FLOW_TIMEOUT_MS,
        );
      }
      expect(core.describe(agent.id).budget).toMatchObject({ cap: 5000, unit: 'tokens', period: 'run', spent: 6402, reached: true });

      // A timer comes due and is held, not delivered.
      const heldTimer = () => core.timers.list(APP_ACTOR, agent.id).timers.find((t) => t.held?.reason === 'budget');
      const held = waitForEvent(core.timers.onDidChangeTimers, () => heldTimer() !== undefined, AGENT_FLOW_TIMEOUT_MS);
      core.timers.setDelay(APP_ACTOR, { seconds: 1, body: 'Go on with the plan.', ownerId: agent.id });
      await held;
      expect(core.describe(agent.id).budget?.held).toBe(1);
      expect(mainTurns()).toBe(1);
      expect(attention.filter((r) => r.includes('budget is reached'))).toEqual([
        'claude-on-a-budget: its budget is reached (6,402 of 5,000 tokens per run); Switchboard sends it nothing more until you go on once or raise the cap',
      ]);

      // Go on once: the held timer goes in, the mock sees exactly one more turn, and the next timer is held again.
      budgetOf(core).goOnce({ id: agent.id });
      await mock.waitFor('stream_end', (e) => e.turn === 1, { timeoutMs: AGENT_FLOW_TIMEOUT_MS, context: screen });
      await waitForAgentIdle(sb, agent.id);
      const heldAgain = waitForEvent(core.timers.onDidChangeTimers, () => heldTimer() !== undefined, AGENT_FLOW_TIMEOUT_MS);
      core.timers.setDelay(APP_ACTOR, { seconds: 1, body: 'And once more.', ownerId: agent.id });
      await heldAgain;
      expect(mainTurns()).toBe(2);
      expect(attention.filter((r) => r.includes('budget is reached'))).toHaveLength(1);
    },
    3 * AGENT_FLOW_TIMEOUT_MS,
  );
});
