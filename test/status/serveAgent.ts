/**
 * Driving a real agent CLI through `serve` and its MCP endpoint, as the live tests do: start and
 * stop `serve`, poll an agent's status like a client would, and ask the agent (through a scripted
 * model turn) to call `whoami` over its preset's MCP wiring.
 */
import type { ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import type { startMockChatCompletions } from '../fixtures/openaiChat/mockChatCompletions';
import { callOk, type connectClient } from '../mcp/mcpHarness';

type Client = Awaited<ReturnType<typeof connectClient>>;
type ChatMock = Awaited<ReturnType<typeof startMockChatCompletions>>;

/** The agent status fields get_process_status reports. */
export interface PolledAgentStatus {
  primary?: string;
  reason?: string;
}

const POLL_MS = 250;

export async function stopServe(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  proc.kill('SIGTERM');
  await exited;
}

/** get_process_status until `accept` (default: idle) holds (MCP has no status push; polled like a client would). */
export async function waitForAgentStatus(
  client: Client,
  id: string,
  timeoutMs: number,
  accept: (agent: PolledAgentStatus) => boolean = (agent) => agent.primary === 'idle',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await callOk<{ agent?: PolledAgentStatus }>(client, 'get_process_status', { process_id: id });
    if (status.agent && accept(status.agent)) return;
    if (Date.now() > deadline) throw new Error(`agent ${id} never reached the awaited status: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

interface WhoamiRounds {
  /** The name the CLI gives Switchboard's whoami tool. */
  tool: string;
  /** A tool result that says the tool was not there yet (MCP still connecting). */
  notThereYet: RegExp;
  rounds: number;
  timeoutMs: number;
  /** The agent is back at its prompt (between rounds). */
  idle: (agent: PolledAgentStatus) => boolean;
}

/**
 * Sends a message whose scripted answer calls whoami; a round whose call found no such tool (the
 * CLI connects its MCP servers in the background) is followed by another, like a model would ask
 * again. Every round waits on events (the tool result, the end of the follow-up stream, the agent
 * idle again), never on a timer.
 */
export async function whoamiThroughAgent(client: Client, mock: ChatMock, id: string, o: WhoamiRounds): Promise<{ content: string }> {
  for (let round = 0; round < o.rounds; round++) {
    mock.enqueue([{ toolCall: { name: o.tool, arguments: {} } }], [{ text: 'Done.' }]);
    const mark = mock.mark();
    await callOk(client, 'send_message', { target_process_id: id, message: `Who are you in this project? (${round})` });
    const request = await mock.waitFor('request', (e) => e.kind === 'main', { timeoutMs: o.timeoutMs, after: mark });
    expect(request.userText).toContain('Who are you in this project?');
    const call = await mock.waitFor('tool_call', (e) => e.name === o.tool, { timeoutMs: o.timeoutMs, after: mark });
    const result = await mock.waitFor('tool_result', (e) => e.toolCallId === call.id, { timeoutMs: o.timeoutMs });
    if (!o.notThereYet.test(result.content)) return result;
    await mock.waitFor('stream_end', (e) => e.seq > result.seq && e.kind === 'main', { timeoutMs: o.timeoutMs });
    await waitForAgentStatus(client, id, o.timeoutMs, o.idle);
  }
  throw new Error(`the agent never found ${o.tool} in ${o.rounds} rounds`);
}
