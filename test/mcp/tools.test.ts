/**
 * Every MCP tool over real HTTP with the SDK's own Client, against a real core (real PTYs), with
 * its error cases. Waits are on events (wait_for_pattern, output events), never sleeps.
 */
import { resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { waitForEvent } from '../../src/main/core/base';
import type { ControlEvent } from '../../src/shared/api';
import { CORE_TOOLS } from '../../src/main/core/mcp';
import { TURN_GATE } from '../../src/main/core/sessions';
import { callError, callOk, connectClient, startSwitchboard, type Switchboard } from './mcpHarness';

const RECORDER = resolve(__dirname, 'fixtures/inputRecorder.cjs');
/** A live command entry: readiness refines running into starting → ready → running. */
const LIVE = /^(starting|ready|running)$/;

let sb: Switchboard;
let client: Client;

beforeAll(async () => {
  sb = await startSwitchboard({
    config: {
      processes: {
        pinger: { command: 'sh', args: ['-c', 'echo pinger-$PING_VALUE; sleep 60'], env: { PING_VALUE: 'configured' }, autoStart: false },
      },
    },
  });
  client = await connectClient(sb.url, sb.token);
});

afterAll(async () => {
  await client?.close();
  await sb?.close();
});

interface Proc {
  id: string;
  name: string;
  kind: string;
  state: string;
  message: string;
  cwd: string;
}

async function spawn(args: Record<string, unknown>): Promise<Proc> {
  return callOk<Proc>(client, 'spawn_process', { kind: 'command', ...args });
}

/** Waits (through the tool under test) until the process printed `pattern` in its current run. */
async function waitFor(id: string, pattern: string, timeout_seconds = 20): Promise<Record<string, unknown>> {
  const result = await callOk(client, 'wait_for_pattern', { process_id: id, pattern, from: 'start', timeout_seconds });
  if (!result.matched) throw new Error(`waiting for ${pattern}: ${JSON.stringify(result)}`);
  return result;
}

async function recorder(bracketed = false): Promise<Proc> {
  const p = await spawn({
    argv: ['node', RECORDER, ...(bracketed ? ['--bracketed'] : [])],
    name: bracketed ? 'recorder-bracketed' : 'recorder',
  });
  await waitFor(p.id, '^READY$');
  return p;
}

describe('catalog', () => {
  it('lists every tool with a description and a JSON Schema', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(CORE_TOOLS.map((t) => t.name));
    for (const name of [
      'whoami',
      'help',
      'get_project_status',
      'list_processes',
      'get_process_status',
      'spawn_process',
      'spawn_agent',
      'start_process',
      'stop_process',
      'close_process',
      'restart_process',
      'check_process_ready',
      'rename_process',
      'select_process',
      'get_process_output',
      'get_process_raw_output',
      'search_output',
      'wait_for_pattern',
      'get_process_ports',
      'send_input',
      'send_message',
      'request_human_attention',
      'list_waiting',
      'answer_prompt',
      'resolve_blocked',
      'set_continue_at_reset',
      'scratchpad_list',
      'scratchpad_read',
      'scratchpad_write',
      'scratchpad_append',
      'scratchpad_delete',
    ]) {
      expect(names).toContain(name);
    }
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(30);
      expect(tool.inputSchema.type).toBe('object');
    }
    const wait = tools.find((t) => t.name === 'wait_for_pattern')!;
    expect(Object.keys(wait.inputSchema.properties ?? {})).toEqual(['process_id', 'pattern', 'timeout_seconds', 'from']);
    expect(wait.inputSchema.required).toEqual(['process_id', 'pattern']);
  });

  it('an unknown tool is a JSON-RPC error; bad or unknown arguments are tool errors that name the problem', async () => {
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(-32602);
    expect((unknown as McpError).message).toMatch(/Unknown tool "no_such_tool"/);
    expect((await callError(client, 'get_process_status', {})).text).toMatch(/process_id/);
    expect((await callError(client, 'list_processes', { kind: 'daemon' })).text).toMatch(/kind/);
    expect((await callError(client, 'wait_for_pattern', { process_id: 'p_000000', pattern: 'x', timeout: 5 })).text).toMatch(/timeout/);
  });
});

describe('identity and overview', () => {
  it('whoami: external with the app token, the agent entry with its own SWITCHBOARD_MCP_TOKEN', async () => {
    expect(await callOk(client, 'whoami')).toMatchObject({ process_id: null, role: 'external', project: { dir: sb.projectDir } });
    // Agents get a token at every run (commands and terminals only when their config asks).
    const p = await sb.handle.core.spawnAgent({
      preset: 'generic',
      argv: ['sh', '-c', 'echo "TOKEN=$SWITCHBOARD_MCP_TOKEN URL=$SWITCHBOARD_MCP_URL"; sleep 60'],
      name: 'identity-probe',
    });
    const line = (await waitFor(p.id, '^TOKEN=\\S+ URL=\\S+$')).line as string;
    const [, token, url] = /^TOKEN=(\S+) URL=(\S+)$/.exec(line)!;
    expect(url).toBe(sb.url);
    expect(token).not.toBe(sb.token);
    const asProcess = await connectClient(url, token, 'probe-client');
    try {
      const me = await callOk<{ process_id: string; name: string; role: string; tools: string[] }>(asProcess, 'whoami');
      expect(me).toMatchObject({ process_id: p.id, name: 'identity-probe', kind: 'agent', role: 'agent', scopes: [] });
      expect(me.tools).toContain('send_message');
    } finally {
      await asProcess.close();
    }
    await callOk(client, 'close_process', { process_id: p.id });
    // The closed entry's token is revoked: its leftovers cannot call in its name.
    await expect(connectClient(url, token)).rejects.toThrow(/Unauthorized/);
  });

  it('help: an overview, a tool with its parameters, a topic, and a pointer for unknown topics', async () => {
    expect((await callOk<{ text: string }>(client, 'help')).text).toMatch(/get_project_status[\s\S]*wait_for_pattern/);
    const tool = (await callOk<{ text: string }>(client, 'help', { topic: 'wait_for_pattern' })).text;
    expect(tool).toMatch(/timeout_seconds\?: Seconds to wait/);
    expect(tool).toMatch(/process_id: Process entry id/);
    expect((await callOk<{ text: string }>(client, 'help', { topic: 'offsets' })).text).toMatch(/since_offset/);
    expect((await callOk<{ text: string }>(client, 'help', { topic: 'bogus' })).text).toMatch(/No help topic "bogus"/);
  });

  it('get_project_status: project, caller, processes with states, timers, scratchpads', async () => {
    const p = await spawn({ shell: 'sleep 60', name: 'overview-sleeper' });
    await callOk(client, 'scratchpad_write', { name: 'overview-note', content: 'hi' });
    const status = await callOk<{
      project: { dir: string };
      caller: { role: string };
      processes: Proc[];
      timers: unknown[];
      scratchpads: Array<{ name: string }>;
    }>(client, 'get_project_status');
    expect(status.project.dir).toBe(sb.projectDir);
    expect(status.caller.role).toBe('external');
    expect(status.processes.find((x) => x.id === p.id)).toMatchObject({
      name: 'overview-sleeper',
      kind: 'command',
      state: expect.stringMatching(LIVE),
    });
    expect(status.processes.find((x) => x.name === 'pinger')).toMatchObject({ state: 'stopped' });
    expect(status.timers).toEqual([]);
    expect(status.scratchpads.map((s) => s.name)).toContain('overview-note');
    await callOk(client, 'close_process', { process_id: p.id });
  });
});

describe('process lifecycle', () => {
  it('list_processes filters by kind; get_process_status gives reason, screen size and offsets', async () => {
    const cmd = await spawn({ shell: 'echo status-check; sleep 60', name: 'status-cmd', cols: 100, rows: 30 });
    const term = await callOk<Proc>(client, 'spawn_process', { kind: 'terminal', argv: ['sh'], name: 'a-terminal' });
    await waitFor(cmd.id, 'status-check');
    const { processes } = await callOk<{ processes: Proc[] }>(client, 'list_processes', { kind: 'terminal' });
    expect(processes.map((x) => x.id)).toEqual([term.id]);
    const status = await callOk<Record<string, any>>(client, 'get_process_status', { process_id: cmd.id });
    expect(status).toMatchObject({ id: cmd.id, state: expect.stringMatching(LIVE), cols: 100, rows: 30, screen: { cols: 100, rows: 30 } });
    expect(status.reason).toEqual(expect.any(String));
    expect(status.offsets.end).toBeGreaterThan(status.offsets.start);
    for (const id of [cmd.id, term.id]) await callOk(client, 'close_process', { process_id: id });
  });

  it('unknown ids are tool errors that say so', async () => {
    for (const tool of [
      'get_process_status',
      'start_process',
      'stop_process',
      'close_process',
      'restart_process',
      'get_process_output',
      'get_process_raw_output',
      'select_process',
    ]) {
      expect((await callError(client, tool, { process_id: 'p_000000' })).text, tool).toMatch(/^Unknown process id "p_000000"/);
    }
    expect((await callError(client, 'rename_process', { process_id: 'p_000000', name: 'x' })).text).toMatch(/^Unknown process id/);
    const structured = (await callError(client, 'get_process_status', { process_id: 'p_000000' })).structured;
    expect(structured).toMatchObject({ error: { code: 'unknown_process' } });
  });

  it('spawn_process: argv, shell, working_dir, env; both argv and shell or a missing command is an error', async () => {
    const p = await spawn({
      argv: ['sh', '-c', 'pwd; echo "V=$MY_VAR"; sleep 60'],
      working_dir: '.',
      env: { MY_VAR: 'from-env' },
      name: 'env-check',
    });
    await waitFor(p.id, '^V=from-env$');
    expect((await callOk<{ text: string }>(client, 'get_process_output', { process_id: p.id })).text).toContain(sb.projectDir);
    expect((await callError(client, 'spawn_process', { kind: 'command', argv: ['true'], shell: 'true' })).text).toMatch(
      /either argv or shell/,
    );
    expect((await callError(client, 'spawn_process', { kind: 'command' })).text).toMatch(/needs argv or shell/);
    await callOk(client, 'close_process', { process_id: p.id });
  });

  it('spawn_process: a command that does not exist is a clear error and the entry is kept in error state', async () => {
    const failure = await callError(client, 'spawn_process', { kind: 'command', argv: ['definitely-not-a-command-xyz'], name: 'broken' });
    expect(failure.text).toMatch(/definitely-not-a-command-xyz/);
    expect(failure.text).toMatch(/kept in error state/);
    const { processes } = await callOk<{ processes: Proc[] }>(client, 'list_processes');
    const broken = processes.find((x) => x.name === 'broken')!;
    expect(broken.state).toBe('error');
    await callOk(client, 'close_process', { process_id: broken.id });
  });

  it('spawn_process preset: another instance of a switchboard.json process; unknown presets name the known ones', async () => {
    const p = await spawn({ preset: 'pinger', name: 'pinger copy' });
    expect(p).toMatchObject({ name: 'pinger copy', kind: 'command', state: expect.stringMatching(LIVE) });
    await waitFor(p.id, '^pinger-configured$');
    expect((await callError(client, 'spawn_process', { kind: 'command', preset: 'nope' })).text).toMatch(
      /No process "nope" in switchboard.json; it defines pinger/,
    );
    await callOk(client, 'close_process', { process_id: p.id });
  });

  it('stop, start, restart (without and with wait_for_ready), rename, select, close', async () => {
    const p = await spawn({ shell: 'echo run-$$; sleep 60', name: 'cycler', ready: { readyPatterns: ['^run-\\d+$'], stabilityDelay: 0 } });
    await waitFor(p.id, '^run-\\d+$');
    expect(await callOk(client, 'stop_process', { process_id: p.id, signal: 'SIGINT' })).toMatchObject({ state: 'stopped' });
    expect(await callOk(client, 'start_process', { process_id: p.id })).toMatchObject({ state: expect.stringMatching(LIVE) });
    const quick = await callOk<{ success: boolean; process: Proc }>(client, 'restart_process', { process_id: p.id, wait_for_ready: false });
    expect(quick).toMatchObject({ success: true, process: { id: p.id, state: expect.stringMatching(LIVE) } });
    const waited = await callOk<{ success: boolean; state: string; message: string; duration_ms: number }>(client, 'restart_process', {
      process_id: p.id,
      ready_timeout: 10_000,
    });
    expect(waited, JSON.stringify(waited)).toMatchObject({ success: true, state: 'ready' });
    expect(waited.duration_ms).toBeGreaterThanOrEqual(0);
    expect(waited.message).toEqual(expect.any(String));
    expect(await callOk(client, 'rename_process', { process_id: p.id, name: 'renamed' })).toMatchObject({ name: 'renamed' });
    expect((await callError(client, 'rename_process', { process_id: p.id, name: '   ' })).text).toMatch(/cannot be empty/);
    const selected = waitForEvent<ControlEvent>(sb.handle.core.onEvent, (e) => e.type === 'processSelected' && e.id === p.id, 5_000);
    expect(await callOk(client, 'select_process', { process_id: p.id })).toEqual({ selected: p.id });
    await selected;
    expect(await callOk(client, 'close_process', { process_id: p.id, signal: 'SIGKILL' })).toEqual({ closed: true, process_id: p.id });
    expect(sb.handle.core.findEntry(p.id)).toBeUndefined();
  });

  it('readiness and ports: restart_process waits for ready (or fails with logs), check_process_ready, get_process_ports', async () => {
    const server =
      "require('http').createServer((q, r) => r.end('ok')).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port) })";
    const p = await spawn({ argv: ['node', '-e', server], name: 'web', ready: { readyPatterns: ['listening on'], stabilityDelay: 0 } });
    const restarted = (await client.callTool({
      name: 'restart_process',
      arguments: { process_id: p.id, ready_timeout: 20_000 },
    })) as CallToolResult;
    const result = restarted.structuredContent as { success: boolean; state: string; message: string; duration_ms: number };
    expect(result, JSON.stringify(result)).toMatchObject({ success: true, state: 'ready', message: expect.stringMatching(/ready/i) });
    const port = Number(((await waitFor(p.id, 'listening on http://127.0.0.1:(\\d+)')).groups as string[])[1]);
    expect(await callOk(client, 'check_process_ready', { process_id: p.id })).toMatchObject({
      ready: true,
      state: expect.stringMatching(/ready|running/),
    });
    const ports = await callOk<{ sightings: Array<{ url: string; port: number }>; listening: number[] }>(client, 'get_process_ports', {
      process_id: p.id,
    });
    expect(ports.sightings.map((x) => x.port)).toContain(port);
    const term = await callOk<Proc>(client, 'spawn_process', { kind: 'terminal', argv: ['sh'] });
    expect((await callError(client, 'check_process_ready', { process_id: term.id })).text).toMatch(/not a command entry/);
    const notReady = await spawn({ shell: 'echo booting; sleep 60', name: 'never-ready', ready: { readyPatterns: ['will never match'] } });
    // Long enough for the shell to print its line on a loaded machine: the logs must hold the current run's output.
    const failed = await callOk(client, 'restart_process', { process_id: notReady.id, ready_timeout: 3_000 });
    expect(failed).toMatchObject({ success: false, message: expect.any(String), logs: expect.arrayContaining(['booting']) });
    for (const id of [p.id, term.id, notReady.id]) await callOk(client, 'close_process', { process_id: id });
  });

  it('spawn_agent: a preset agent (argv keeps the preset) whose instructions are typed once it is idle', async () => {
    const agent = await callOk<Proc & { agent: { preset: string } }>(client, 'spawn_agent', {
      agent: 'generic',
      argv: ['node', RECORDER],
      name: 'generic-agent',
      agent_instructions: 'do the thing',
    });
    expect(agent).toMatchObject({ kind: 'agent', name: 'generic-agent' });
    expect(agent.agent).toBeDefined();
    await waitFor(agent.id, '^GOT "do the thing"$', 30);
    await waitFor(agent.id, '^GOT "\\\\r"$', 10);
    // Honest presets: whether detection was proven against the real CLI, and how sure the status is.
    const status = await callOk<{ agent: Record<string, unknown> }>(client, 'get_process_status', { process_id: agent.id });
    expect(status.agent).toMatchObject({ preset: 'generic', verified: 'unverified', confidence: 'high' });
    const listed = await callOk<{ processes: Array<Proc & { agent?: Record<string, unknown> }> }>(client, 'list_processes', {
      kind: 'agent',
    });
    expect(listed.processes.find((x) => x.id === agent.id)?.agent).toMatchObject({ verified: 'unverified', confidence: 'high' });
    const missing = await callError(client, 'spawn_agent', { agent: 'definitely-not-an-agent-cli' });
    expect(missing.text).toMatch(/definitely-not-an-agent-cli/);
    const { processes } = await callOk<{ processes: Proc[] }>(client, 'list_processes', { kind: 'agent' });
    for (const proc of processes) await callOk(client, 'close_process', { process_id: proc.id });
  });
});

describe('reading output', () => {
  it('grid mode: the rendered screen with blank lines trimmed, newest lines kept under max_bytes', async () => {
    const p = await spawn({
      shell: "printf '\\n\\n\\033[31mred\\033[0m line\\n\\n\\n\\nsecond\\n'; printf 'over\\rOVER\\n'; echo grid-done; sleep 60",
      name: 'grid',
    });
    await waitFor(p.id, 'grid-done');
    const grid = await callOk<{ text: string; truncated: boolean; next_offset: number; cols: number }>(client, 'get_process_output', {
      process_id: p.id,
      mode: 'grid',
    });
    expect(grid.text).toBe('red line\n\nsecond\nOVER\ngrid-done');
    expect(grid.cols).toBe(120);
    expect(grid.next_offset).toBeGreaterThan(0);
    const small = await callOk<{ text: string; truncated: boolean }>(client, 'get_process_output', { process_id: p.id, max_bytes: 16 });
    expect(small).toMatchObject({ text: 'OVER\ngrid-done', truncated: true });
    await callOk(client, 'close_process', { process_id: p.id });
  });

  it('stream mode: ANSI-stripped text by offset; next_offset continues without repeats; max_bytes caps', async () => {
    const p = await spawn({ argv: ['node', RECORDER], name: 'streamer' });
    await waitFor(p.id, '^READY$');
    const first = await callOk<{ text: string; start_offset: number; next_offset: number; has_more: boolean }>(
      client,
      'get_process_output',
      { process_id: p.id, mode: 'stream', since_offset: 0 },
    );
    expect(first.text).toBe('READY\n');
    expect(first).toMatchObject({ start_offset: 0, has_more: false });
    await callOk(client, 'send_input', { process_id: p.id, kind: 'text', text: 'abc' });
    await callOk(client, 'wait_for_pattern', { process_id: p.id, pattern: 'GOT "abc"', from: 'start' });
    const second = await callOk<{ text: string; start_offset: number; next_offset: number }>(client, 'get_process_output', {
      process_id: p.id,
      mode: 'stream',
      since_offset: first.next_offset,
    });
    expect(second.text).toBe('GOT "abc"\n');
    expect(second.start_offset).toBe(first.next_offset);
    const capped = await callOk<{ text: string; next_offset: number; has_more: boolean }>(client, 'get_process_output', {
      process_id: p.id,
      mode: 'stream',
      since_offset: 0,
      max_bytes: 3,
    });
    expect(capped).toMatchObject({ text: 'REA', next_offset: 3, has_more: true });
    const tail = await callOk<{ text: string; next_offset: number; end_offset: number }>(client, 'get_process_output', {
      process_id: p.id,
      mode: 'stream',
      max_bytes: 14,
    });
    expect(tail.text).toMatch(/^\n?GOT "abc"\n$/);
    expect(tail.next_offset).toBe(tail.end_offset);
    await callOk(client, 'close_process', { process_id: p.id });
  });

  it('raw output keeps escape sequences, never splits a character, and falls back to base64', async () => {
    const p = await spawn({ shell: "printf '\\033[1mb€\\n'; printf '\\377\\376\\n'; echo raw-done; sleep 60", name: 'raw' });
    await waitFor(p.id, 'raw-done');
    const all = await callOk<{ encoding: string; data: string }>(client, 'get_process_raw_output', {
      process_id: p.id,
      since_offset: 0,
      max_bytes: 10,
    });
    expect(all.encoding).toBe('utf8');
    expect(all.data.startsWith('\x1b[1mb€')).toBe(true);
    // "\x1b[1mb" is 5 bytes and "€" 3: a 6-byte read must stop before the euro sign, not inside it.
    const cut = await callOk<{ data: string; next_offset: number }>(client, 'get_process_raw_output', {
      process_id: p.id,
      since_offset: 0,
      max_bytes: 6,
    });
    expect(cut).toMatchObject({ data: '\x1b[1mb', next_offset: 5 });
    const rest = await callOk<{ data: string; start_offset: number }>(client, 'get_process_raw_output', {
      process_id: p.id,
      since_offset: cut.next_offset,
      max_bytes: 3,
    });
    expect(rest).toMatchObject({ data: '€', start_offset: 5 });
    const binary = await callOk<{ encoding: string; data: string }>(client, 'get_process_raw_output', {
      process_id: p.id,
      since_offset: 10,
      max_bytes: 2,
    });
    expect(binary.encoding).toBe('base64');
    expect(Buffer.from(binary.data, 'base64')).toEqual(Buffer.from([0xff, 0xfe]));
    await callOk(client, 'close_process', { process_id: p.id });
  });

  it('search_output: matching lines with offsets, newest kept under limit, flags; a bad regex is named', async () => {
    const p = await spawn({
      shell: 'for i in 1 2 3 4 5; do echo "item $i"; done; echo "ITEM upper"; echo search-done; sleep 60',
      name: 'search',
    });
    await waitFor(p.id, 'search-done');
    const found = await callOk<{ matches: Array<{ offset: number; line: string }>; total_matches: number; truncated: boolean }>(
      client,
      'search_output',
      { process_id: p.id, pattern: 'item \\d', limit: 2 },
    );
    expect(found.matches.map((m) => m.line)).toEqual(['item 4', 'item 5']);
    expect(found).toMatchObject({ total_matches: 5, truncated: true });
    const raw = sb.handle.core.entry(p.id).ring.read(found.matches[0].offset, 6).data.toString();
    expect(raw).toBe('item 4');
    const insensitive = await callOk<{ total_matches: number }>(client, 'search_output', { process_id: p.id, pattern: '/^item/i' });
    expect(insensitive.total_matches).toBe(6);
    const bad = await callError(client, 'search_output', { process_id: p.id, pattern: '(unclosed' });
    expect(bad.text).toMatch(/Invalid pattern.*"\(unclosed"/);
    expect(bad.structured).toMatchObject({ error: { code: 'bad_pattern', pattern: '(unclosed' } });
    await callOk(client, 'close_process', { process_id: p.id });
  });

  it('wait_for_pattern: new output only by default, a timeout with the last lines, an exit ends the wait', async () => {
    const p = await recorder();
    const pending = callOk<Record<string, unknown>>(client, 'wait_for_pattern', {
      process_id: p.id,
      pattern: 'GOT "(\\w+)"',
      timeout_seconds: 20,
    });
    // The wait subscribed before this call is answered: requests on one session are handled in order.
    await callOk(client, 'send_input', { process_id: p.id, kind: 'text', text: 'later' });
    expect(await pending).toMatchObject({ matched: true, reason: 'matched', line: 'GOT "later"', groups: ['GOT "later"', 'later'] });
    const timedOut = await callOk(client, 'wait_for_pattern', { process_id: p.id, pattern: 'never-printed', timeout_seconds: 0.2 });
    expect(timedOut).toMatchObject({ matched: false, reason: 'timeout', last_lines: ['READY', 'GOT "later"'] });
    const exiting = await spawn({ shell: 'echo bye; exit 3', name: 'exiter' });
    const ended = await callOk(client, 'wait_for_pattern', {
      process_id: exiting.id,
      pattern: 'never',
      from: 'start',
      timeout_seconds: 20,
    });
    expect(['exited', 'not_running']).toContain(ended.reason);
    expect(ended.matched).toBe(false);
    expect(ended.last_lines).toEqual(['bye']);
    expect((await callError(client, 'wait_for_pattern', { process_id: p.id, pattern: '[' })).text).toMatch(/Invalid pattern.*"\["/);
    for (const id of [p.id, exiting.id]) await callOk(client, 'close_process', { process_id: id });
  });
});

describe('input', () => {
  it('send_input text, keys and submit: exact bytes, Enter as a separate write', async () => {
    const p = await recorder();
    await callOk(client, 'send_input', { process_id: p.id, kind: 'text', text: 'hello', submit: true });
    await waitFor(p.id, '^GOT "\\\\r"$');
    const keys = ['Up', 'C-c', 'Escape', 'Tab', 'Backspace', 'M-x'];
    for (const key of keys) await callOk(client, 'send_input', { process_id: p.id, kind: 'key', key });
    await waitFor(p.id, 'u001bx"$');
    const { data } = await callOk<{ data: string }>(client, 'get_process_raw_output', { process_id: p.id, since_offset: 0 });
    const reads = data
      .split('\r\n')
      .filter((l) => l.startsWith('GOT '))
      .map((l) => JSON.parse(l.slice(4)) as string);
    // Enter came in a read of its own; keys sent back to back may share a read, never lose bytes.
    expect(reads.slice(0, 2)).toEqual(['hello', '\r']);
    expect(reads.slice(2).join('')).toBe('\x1b[A\x03\x1b\t\x7f\x1bx');
    expect((await callError(client, 'send_input', { process_id: p.id, kind: 'key', key: 'Hyper' })).text).toMatch(/Unknown key "Hyper"/);
    expect((await callError(client, 'send_input', { process_id: p.id, kind: 'text' })).text).toMatch(/needs text/);
    await callOk(client, 'close_process', { process_id: p.id });
  });

  it('send_input paste: bracketed when the program enabled it, plain otherwise; wait_ms returns the screen', async () => {
    const plain = await recorder(false);
    const bracketed = await recorder(true);
    const withScreen = await callOk<{ screen: { text: string } }>(client, 'send_input', {
      process_id: bracketed.id,
      kind: 'paste',
      text: 'line1\nline2',
      wait_ms: 50,
    });
    expect(withScreen.screen.text).toContain('READY');
    await callOk(client, 'send_input', { process_id: plain.id, kind: 'paste', text: 'line1\nline2' });
    await waitFor(bracketed.id, 'GOT "\\\\u001b\\[200~line1\\\\nline2\\\\u001b\\[201~"');
    await waitFor(plain.id, '^GOT "line1\\\\nline2"$');
    for (const id of [plain.id, bracketed.id]) await callOk(client, 'close_process', { process_id: id });
  });

  it('send_input to a stopped process is a clear error', async () => {
    const p = await spawn({ shell: 'exit 0', name: 'gone' });
    await callOk(client, 'wait_for_pattern', { process_id: p.id, pattern: 'x', timeout_seconds: 5 });
    expect((await callError(client, 'send_input', { process_id: p.id, kind: 'text', text: 'x' })).text).toMatch(/is not running/);
    await callOk(client, 'close_process', { process_id: p.id });
  });

  it('send_message: a tagged user turn to an agent (Enter separate); wrong kind and self are errors', async () => {
    const agent = await sb.handle.core.createAndStart({
      name: 'helper-agent',
      kind: 'agent',
      argv: ['node', RECORDER],
      cwd: sb.projectDir,
    });
    await waitFor(agent.id, '^READY$');
    const sent = await callOk<{ text: string }>(client, 'send_message', { target_process_id: agent.id, message: 'please review' });
    expect(sent.text).toBe('[from switchboard-test (outside Switchboard)] please review');
    await waitFor(agent.id, '^GOT "\\\\r"$');
    const { text } = await callOk<{ text: string }>(client, 'get_process_output', {
      process_id: agent.id,
      mode: 'stream',
      since_offset: 0,
    });
    expect(text).toContain('GOT "[from switchboard-test (outside Switchboard)] please review"\nGOT "\\r"');

    // From another agent, with its own token (and the scope to type into agents it did not spawn): the tag names that entry.
    const sender = await sb.handle.core.spawnAgent({
      preset: 'generic',
      argv: ['sh', '-c', 'echo "TOKEN=$SWITCHBOARD_MCP_TOKEN"; sleep 60'],
      name: 'planner',
    });
    const token = /^TOKEN=(\S+)$/.exec((await waitFor(sender.id, '^TOKEN=\\S+$')).line as string)![1];
    const asSender = await connectClient(sb.url, token);
    try {
      expect((await callError(asSender, 'send_message', { target_process_id: agent.id, message: 'hi' })).text).toMatch(
        /^Missing scope "entries:input-all"/,
      );
      sb.handle.core.grantScopes(sender.id, ['entries:input-all']);
      const tagged = await callOk<{ text: string }>(asSender, 'send_message', { target_process_id: agent.id, message: 'hi' });
      expect(tagged.text).toBe(`[from planner (${sender.id})] hi`);
      const command = await spawn({ shell: 'sleep 60', name: 'not-an-agent' });
      expect((await callError(asSender, 'send_message', { target_process_id: command.id, message: 'x' })).text).toMatch(
        /is a command, not an agent/,
      );
      await callOk(client, 'close_process', { process_id: command.id });

      // The target at its budget: what another agent would make it do is held; the app's own call is a person's.
      const gate = sb.handle.core.services.find(TURN_GATE)!;
      const hold = { reason: 'budget' as const, message: `"helper-agent" is at its budget` };
      const admit = vi.spyOn(gate, 'admit').mockImplementation((id) => (id === agent.id ? hold : undefined));
      try {
        for (const [tool, args] of [
          ['send_input', { process_id: agent.id, kind: 'text', text: 'more', submit: true }],
          ['send_message', { target_process_id: agent.id, message: 'more' }],
          ['resolve_blocked', { process_id: agent.id, action: 'retry_now' }],
        ] as const)
          expect((await callError(asSender, tool, args)).text, tool).toContain('"helper-agent" is at its budget');
        expect(admit.mock.calls.map(([, what]) => what)).toEqual([
          `input from planner (${sender.id})`,
          `a message from planner (${sender.id})`,
          `a retry from planner (${sender.id})`,
        ]);
        await callOk(client, 'send_input', { process_id: agent.id, kind: 'text', text: 'from a person' });
        expect(admit).toHaveBeenCalledTimes(3);
      } finally {
        admit.mockRestore();
      }
    } finally {
      await asSender.close();
    }
    const agentToken = sb.handle.mcp.service.identity.tokenFor(agent.id);
    const asAgent = await connectClient(sb.url, agentToken);
    try {
      expect((await callError(asAgent, 'send_message', { target_process_id: agent.id, message: 'x' })).text).toMatch(/to yourself/);
      expect(await callOk(asAgent, 'whoami')).toMatchObject({ process_id: agent.id, role: 'agent' });
    } finally {
      await asAgent.close();
    }
    for (const id of [agent.id, sender.id]) await callOk(client, 'close_process', { process_id: id });
  });

  it('request_human_attention: flags the pane and fires the notification event; defaults to the caller', async () => {
    const p = await spawn({ shell: 'sleep 60', name: 'needs-human' });
    const event = waitForEvent<ControlEvent>(sb.handle.core.onEvent, (e) => e.type === 'attentionRequested' && e.id === p.id, 5_000);
    const flagged = await callOk(client, 'request_human_attention', { process_id: p.id, reason: 'Approve the migration' });
    expect(flagged).toMatchObject({
      flagged: true,
      process_id: p.id,
      attention: { reason: 'Approve the migration', requestedBy: 'external' },
    });
    expect(await event).toMatchObject({ reason: 'Approve the migration', title: 'needs-human' });
    expect(sb.handle.core.describe(p.id).attention?.reason).toBe('Approve the migration');
    expect(sb.handle.core.needsAttentionCount()).toBeGreaterThanOrEqual(1);
    expect((await callError(client, 'request_human_attention', { reason: 'who?' })).text).toMatch(/pass process_id/);
    const own = await connectClient(sb.url, sb.handle.mcp.service.identity.tokenFor(p.id));
    try {
      expect(await callOk(own, 'request_human_attention', { reason: 'mine' })).toMatchObject({
        process_id: p.id,
        attention: { requestedBy: p.id },
      });
    } finally {
      await own.close();
    }
    await callOk(client, 'close_process', { process_id: p.id });
  });
});

describe('scratchpads', () => {
  it('write, read, append, list, delete with revisions; stale writes fail with the current revision', async () => {
    expect(await callOk(client, 'scratchpad_write', { name: 'plan', content: 'v1', expected_revision: 0 })).toMatchObject({
      name: 'plan',
      revision: 1,
      updated_by: 'external',
    });
    expect(await callOk(client, 'scratchpad_append', { name: 'plan', content: '+more' })).toMatchObject({ revision: 2 });
    expect(await callOk(client, 'scratchpad_read', { name: 'plan' })).toMatchObject({ content: 'v1+more', revision: 2 });
    const stale = await callError(client, 'scratchpad_write', { name: 'plan', content: 'clobber', expected_revision: 1 });
    expect(stale.text).toMatch(/is at revision 2, not 1/);
    expect(stale.structured).toMatchObject({ error: { code: 'stale_revision', current_revision: 2, expected_revision: 1 } });
    expect(await callOk(client, 'scratchpad_read', { name: 'plan' })).toMatchObject({ content: 'v1+more' });
    const { scratchpads } = await callOk<{ scratchpads: Array<{ name: string }> }>(client, 'scratchpad_list');
    expect(scratchpads.map((s) => s.name)).toContain('plan');
    expect(await callOk(client, 'scratchpad_delete', { name: 'plan', expected_revision: 2 })).toEqual({
      name: 'plan',
      deleted: true,
      revision: 3,
    });
    expect((await callError(client, 'scratchpad_read', { name: 'plan' })).text).toMatch(/No scratchpad named "plan"/);
    expect((await callError(client, 'scratchpad_write', { name: '../etc/passwd', content: 'x' })).text).toMatch(/scratchpad names/);
  });

  it('persists in the data directory, one store per project', async () => {
    await callOk(client, 'scratchpad_write', { name: 'persisted', content: 'kept' });
    const { ScratchpadStore } = await import('../../src/main/core/scratchpads');
    expect(await ScratchpadStore.forProject(sb.dataDir, sb.projectDir).read('persisted')).toMatchObject({ content: 'kept' });
    writeFileSync(resolve(sb.projectDir, 'untouched.txt'), ''); // the project tree gets no scratchpad files
  });
});
