/**
 * A real agent as the client: the real Claude Code (2.1.197) spawned BY Switchboard as an agent
 * entry through the claude preset, offline against the mock Messages API. Its model asks for
 * mcp__switchboard__list_processes, then mcp__switchboard__whoami; the calls must reach
 * Switchboard attributed to that entry, with no set-up beyond spawning it. Waits are on events
 * (the mock's timeline, tool-call records), never sleeps.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_BIN, createClaudeHarness, type ClaudeHarness } from '../fixtures/anthropic/claudeHarness';
import { startMockAnthropic, type MockAnthropic, type MockAnthropicOptions } from '../fixtures/anthropic/mockAnthropic';
import { waitForEvent } from '../../src/main/core/base';
import type { ToolCallRecord } from '../../src/main/core/mcp';
import { startSwitchboard, type Switchboard } from './mcpHarness';

/** Claude Code starts, connects its MCP servers and runs two tool turns: generous on a shared 2-core box. */
const AGENT_FLOW_TIMEOUT_MS = 90_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The mock, an offline Claude Code home and a Switchboard on it, all closed after the test. */
async function startClaudeWorld(
  options: MockAnthropicOptions = {},
): Promise<{ mock: MockAnthropic; harness: ClaudeHarness; sb: Switchboard }> {
  const mock = await startMockAnthropic(options);
  cleanups.push(() => mock.close());
  const harness = await createClaudeHarness({ baseUrl: mock.url });
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

/** Waits for the model's call of `tool` and the result Claude Code sends back; a timeout shows the agent's screen. */
async function toolRoundTrip(mock: MockAnthropic, tool: string, screen: () => string) {
  const waitOptions = { timeoutMs: AGENT_FLOW_TIMEOUT_MS, context: screen };
  const use = await mock.waitFor('tool_use', (e) => e.name === tool, waitOptions);
  return mock.waitFor('tool_result', (e) => e.toolUseId === use.id, waitOptions);
}

describe('the real Claude Code as an MCP client', () => {
  it('calls list_processes then whoami, attributed to its own agent entry, with no set-up', async () => {
    const { mock, harness, sb } = await startClaudeWorld({
      turns: [
        [{ text: 'Let me look at the processes.' }, { toolUse: { name: 'mcp__switchboard__list_processes', input: {} } }],
        [{ toolUse: { name: 'mcp__switchboard__whoami', input: {} } }],
        [{ text: 'I am connected to Switchboard.' }],
      ],
    });

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

    await mock.waitFor('stream_end', (e) => e.turn === 2, { timeoutMs: AGENT_FLOW_TIMEOUT_MS, context: screen });
    // Claude Code's HTTP hooks reached the agent's status tracker with the same token.
    expect(sb.handle.core.describe(agent.id).agent?.lastHookAt, JSON.stringify(sb.handle.core.describe(agent.id).agent)).toBeGreaterThan(0);
  }, 150_000);
  it('is refused, with the missing scope named, when it reads the output of an entry it did not spawn', async () => {
    const { mock, harness, sb } = await startClaudeWorld();
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

    const { agent, screen } = await spawnClaude(sb, harness, 'claude-without-scope', 'What does the dev server print?');
    const result = await toolRoundTrip(mock, 'mcp__switchboard__get_process_output', screen);
    expect(result.isError).toBe(true);
    expect(result.content).toContain(
      `Missing scope "entries:read-all": reading the output of "web" (${web.id}), which you did not spawn, needs it`,
    );
    expect(result.content).not.toContain('secret-dev-server-output');
    const record = await refused;
    expect(record).toMatchObject({ caller: { kind: 'process', processId: agent.id }, isError: true });
  }, 150_000);
});
