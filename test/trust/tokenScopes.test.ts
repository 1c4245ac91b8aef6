/**
 * Least privilege for MCP tokens, through the real endpoint with the real SDK client and real
 * PTYs: who gets a token at all, what a token may do by default (its own entry and what it
 * spawned), scopes from switchboard.json and from the UI, refusals that name the missing scope,
 * and a fresh token at every run of an entry.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callError, callOk, connectClient, startSwitchboard, type Switchboard } from '../mcp/mcpHarness';
import { rawRequest } from '../mcp/httpClient';
import { waitForOutput } from '../support/wait';
import type { ProcessInfo } from '../../src/shared/model';

let sb: Switchboard;
let app: Client;
const clients: Client[] = [];

const CONFIG = {
  processes: {
    web: { command: 'bash', args: ['-c', 'echo "web TOKEN=[$SWITCHBOARD_MCP_TOKEN]"; exec cat'] },
    helper: { command: 'bash', args: ['-c', 'echo "helper TOKEN=[$SWITCHBOARD_MCP_TOKEN]"; exec cat'], mcp: { scopes: [] } },
  },
  agents: {
    reader: { preset: 'generic', command: 'cat', autoStart: true, mcp: { scopes: ['entries:read-all'] } },
  },
};

beforeAll(async () => {
  sb = await startSwitchboard({ config: CONFIG });
  app = await connectClient(sb.url, sb.token);
});

afterAll(async () => {
  for (const client of [...clients, app]) await client.close();
  await sb.close();
});

function byName(name: string): ProcessInfo {
  return sb.handle.core.listProcesses().find((p) => p.name === name)!;
}

async function clientOf(id: string): Promise<Client> {
  const client = await connectClient(sb.url, sb.handle.mcp.service.identity.tokenFor(id), id);
  clients.push(client);
  return client;
}

async function spawnAgent(name: string): Promise<ProcessInfo> {
  return sb.handle.core.spawnAgent({ preset: 'generic', argv: ['cat'], name });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('who gets a token', () => {
  it('commands and terminals get none unless their config asks; a config "mcp" entry and agents do', async () => {
    const web = byName('web');
    const helper = byName('helper');
    await waitForOutput(sb.handle.core.entry(web.id), /web TOKEN=\[\]/);
    const helperLine = await waitForOutput(sb.handle.core.entry(helper.id), /helper TOKEN=\[[\w-]{43}\]/);
    const helperToken = /TOKEN=\[([\w-]{43})\]/.exec(helperLine)![1];
    const asHelper = await connectClient(sb.url, helperToken);
    clients.push(asHelper);
    expect(await callOk(asHelper, 'whoami')).toMatchObject({ process_id: helper.id, role: 'process', scopes: [] });

    const terminal = await sb.handle.core.spawnProcess({
      kind: 'terminal',
      argv: ['bash', '-c', 'echo "term TOKEN=[$SWITCHBOARD_MCP_TOKEN] URL=[$SWITCHBOARD_MCP_URL]"; exec cat'],
    });
    await waitForOutput(sb.handle.core.entry(terminal.id), /term TOKEN=\[\] URL=\[\]/);

    const agent = await sb.handle.core.spawnAgent({
      preset: 'generic',
      argv: ['bash', '-c', 'echo "agent TOKEN=[$SWITCHBOARD_MCP_TOKEN]"; exec cat'],
      name: 'tokened',
    });
    await waitForOutput(sb.handle.core.entry(agent.id), /agent TOKEN=\[[\w-]{43}\]/);
  });
});

describe('default rights of an agent token', () => {
  it('sees every entry and its status, but reading, typing into or controlling another entry names the missing scope', async () => {
    const agent = await spawnAgent('plain-agent');
    const web = byName('web');
    const me = await clientOf(agent.id);
    const who = await callOk<{ scopes: string[]; rights: string }>(me, 'whoami');
    expect(who.scopes).toEqual([]);
    expect(who.rights).toContain('entries:read-all');
    expect((await callOk<{ processes: Array<{ id: string }> }>(me, 'list_processes')).processes.map((p) => p.id)).toContain(web.id);
    const webPid = sb.handle.core.describe(web.id).pid;
    expect(await callOk(me, 'get_process_status', { process_id: web.id })).toMatchObject({ id: web.id, pid: webPid });

    const read = await callError(me, 'get_process_output', { process_id: web.id });
    expect(read.text).toMatch(
      /^Missing scope "entries:read-all": reading the output of "web" \(p_[0-9a-f]+\), which you did not spawn, needs it/,
    );
    expect(read.structured).toMatchObject({ error: { code: 'forbidden', missing_scope: 'entries:read-all' } });
    expect((await callError(me, 'search_output', { process_id: web.id, pattern: 'web' })).text).toContain('"entries:read-all"');
    expect((await callError(me, 'send_input', { process_id: web.id, kind: 'text', text: 'x' })).text).toContain(
      'Missing scope "entries:input-all": typing into "web"',
    );
    expect((await callError(me, 'stop_process', { process_id: web.id })).text).toContain(
      'Missing scope "entries:control-all": stopping "web"',
    );
    expect((await callError(me, 'close_process', { process_id: web.id })).text).toContain('"entries:control-all"');
    expect((await callError(me, 'timer_set', { seconds: 60, body: 'x', owner_process_id: web.id })).text).toContain('"entries:input-all"');
    const bypass = await callError(me, 'start_task', { prompt: 'x', permission_mode: 'bypassPermissions' });
    expect(bypass.text).toContain('Missing scope "tasks:bypass-permissions"');
    expect(sb.handle.core.describe(web.id)).toMatchObject({ pid: webPid, runId: 1 });
  });

  it('reads, drives and controls itself and whatever it spawned, at any depth', async () => {
    const lead = await spawnAgent('lead-agent');
    const asLead = await clientOf(lead.id);
    const child = await callOk<{ id: string }>(asLead, 'spawn_process', {
      kind: 'command',
      argv: ['bash', '-c', 'echo child-up; exec cat'],
      name: 'child',
    });
    await waitForOutput(sb.handle.core.entry(child.id), /child-up/);
    expect((await callOk<{ text: string }>(asLead, 'get_process_output', { process_id: child.id, mode: 'stream' })).text).toContain(
      'child-up',
    );
    await callOk(asLead, 'send_input', { process_id: child.id, kind: 'text', text: 'echoed-back', submit: true });
    await waitForOutput(sb.handle.core.entry(child.id), /echoed-back/);
    expect((await callOk<{ text: string }>(asLead, 'get_process_output', { process_id: lead.id, mode: 'stream' })).text).toBeDefined();

    const sub = await callOk<{ id: string }>(asLead, 'spawn_agent', { agent: 'generic', argv: ['cat'], name: 'sub-agent' });
    expect(sb.handle.core.describe(sub.id).access).toEqual({ scopes: [], spawnedBy: lead.id });
    const asSub = await clientOf(sub.id);
    const grandchild = await callOk<{ id: string }>(asSub, 'spawn_process', { kind: 'command', argv: ['cat'], name: 'grandchild' });
    await callOk(asLead, 'stop_process', { process_id: grandchild.id });
    // …but not the other way round: the sub-agent does not own its spawner.
    expect((await callError(asSub, 'stop_process', { process_id: lead.id })).text).toContain('"entries:control-all"');
    await callOk(asLead, 'close_process', { process_id: child.id });
  });
});

describe('granted scopes', () => {
  it('scopes from switchboard.json: the reader agent may read any output, and nothing more', async () => {
    const reader = byName('reader');
    const web = byName('web');
    const asReader = await clientOf(reader.id);
    expect(await callOk(asReader, 'whoami')).toMatchObject({ process_id: reader.id, scopes: ['entries:read-all'] });
    expect((await callOk<{ text: string }>(asReader, 'get_process_output', { process_id: web.id, mode: 'stream' })).text).toContain(
      'web TOKEN=[]',
    );
    expect((await callError(asReader, 'restart_process', { process_id: web.id })).text).toContain(
      'Missing scope "entries:control-all": restarting "web"',
    );
  });

  it('a person grants a scope in the UI (grantScopes): the next call is allowed', async () => {
    const agent = await spawnAgent('promoted');
    const helper = byName('helper');
    const me = await clientOf(agent.id);
    expect((await callError(me, 'rename_process', { process_id: helper.id, name: 'helper' })).text).toContain('"entries:control-all"');
    expect(sb.handle.core.grantScopes(agent.id, ['entries:control-all'])).toEqual({ id: agent.id, scopes: ['entries:control-all'] });
    await callOk(me, 'rename_process', { process_id: helper.id, name: 'helper' });
    expect(await callOk(me, 'whoami')).toMatchObject({ scopes: ['entries:control-all'] });
  });

  it('the app token keeps every right', async () => {
    const web = byName('web');
    expect(await callOk(app, 'whoami')).toMatchObject({
      role: 'external',
      scopes: ['entries:read-all', 'entries:input-all', 'entries:control-all', 'tasks:bypass-permissions', 'worktrees:manage-all'],
    });
    expect((await callOk<{ text: string }>(app, 'get_process_output', { process_id: web.id, mode: 'stream' })).text).toContain(
      'web TOKEN=[]',
    );
  });
});

describe('token rotation', () => {
  it("each run of an entry gets a new token; the previous run's token is refused with 401", async () => {
    const agent = await sb.handle.core.spawnAgent({
      preset: 'generic',
      // bash stays the entry's process (no exec after the echo): /proc/<pid>/environ read while an exec
      // is under way can be empty.
      argv: ['bash', '-c', 'echo "run TOKEN=[$SWITCHBOARD_MCP_TOKEN]"; read -r _'],
      name: 'rotating',
    });
    const entry = sb.handle.core.entry(agent.id);
    const first = /TOKEN=\[([\w-]{43})\]/.exec(await waitForOutput(entry, /run TOKEN=\[[\w-]{43}\]/))![1];
    expect((await rawRequest(sb.url, { headers: { Authorization: `Bearer ${first}` }, body: initialize })).status).toBe(200);

    await sb.handle.core.restartProcess(agent.id);
    const second = /TOKEN=\[([\w-]{43})\]/.exec(await waitForOutput(entry, /run TOKEN=\[[\w-]{43}\]/, 10_000, entry.runOffset))![1];
    expect(second).not.toBe(first);
    expect(readFileSync(`/proc/${entry.pid}/environ`, 'utf8').split('\0')).toContain(`SWITCHBOARD_MCP_TOKEN=${second}`);
    const old = await rawRequest(sb.url, { headers: { Authorization: `Bearer ${first}` }, body: initialize });
    expect(old.status).toBe(401);
    expect((await rawRequest(sb.url, { headers: { Authorization: `Bearer ${second}` }, body: initialize })).status).toBe(200);
  });
});
