/**
 * A worktree's app on demand, through the real core and its real MCP endpoint (createCore) on a
 * real git repository with real HTTP servers: an agent in worktree `a` starts `web` by name and
 * gets a's web — with a's own `api` started first for `${url:api}` — while the main checkout's
 * entries stay as they are; its names and lists resolve in its own worktree; once its agents
 * have been idle for `worktrees.idleStop` (on an injected clock) a's servers stop and read
 * stopped · idle, and start again on demand.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CoreHandle } from '../../src/main/core/composition';
import { VirtualClock, waitForEvent } from '../../src/main/core/base';
import { makeTestRepo, type TestRepo } from '../../src/main/core/worktrees/testing/gitRepo';
import type { ControlEvent } from '../../src/shared/api';
import type { ProcessInfo } from '../../src/shared/model';
import { waitForOutput } from '../support/wait';
import { httpText, startRepoCore } from '../support/repoCore';
import { callError, callOk, connectClient } from '../mcp/mcpHarness';
import { stateLabel } from '../../src/renderer/src/panes/stateLabel';

const IDLE_STOP_MS = 10 * 60_000;
/** A server answering every request with its second argument, on the port of its first. */
const SERVER =
  "const [port, text] = process.argv.slice(1); require('http').createServer((q, s) => s.end(text)).listen(+port, '127.0.0.1');";
/** A stand-in agent the generic rules read as idle at its prompt; it prints its MCP token first. */
const AGENT = [
  'bash',
  '--noprofile',
  '--norc',
  '-c',
  'echo "TOKEN=$SWITCHBOARD_MCP_TOKEN"; printf "> "; while IFS= read -r l; do printf "> "; done',
];

let repo: TestRepo;
let handle: CoreHandle | undefined;
const clients: Client[] = [];
const clock = new VirtualClock();

beforeEach(() => {
  repo = makeTestRepo({ 'README.md': 'hello\n', '.gitignore': 'switchboard.json\n' });
  const config = {
    processes: {
      api: { command: 'node', args: ['-e', SERVER, '${port}', 'api in ${worktree}'], autoStart: false },
      web: { command: 'node', args: ['-e', SERVER, '${port}', 'web in ${worktree}, api at ${url:api}'], autoStart: false },
    },
    worktrees: { idleStop: IDLE_STOP_MS },
  };
  writeFileSync(join(repo.root, 'switchboard.json'), JSON.stringify(config));
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await handle?.dispose();
  handle = undefined;
  repo.cleanup();
});

/** An agent in `worktree`, idle at its prompt, and an MCP client with its own token. */
async function agentIn(worktree: string): Promise<{ agent: ProcessInfo; mcp: Client }> {
  const { core, mcp } = handle!;
  const agent = await core.spawnAgent({ preset: 'generic', name: `agent-${worktree}`, argv: AGENT, worktree });
  const line = await waitForOutput(core.entry(agent.id), /TOKEN=\S+/, 15_000, 0);
  const token = /TOKEN=(\S+)/.exec(line)![1];
  await waitForEvent<ControlEvent>(
    core.onEvent,
    (e) => e.type === 'processChanged' && e.process.id === agent.id && e.process.agent?.primary === 'idle',
    20_000,
  ).catch(() => undefined); // already idle before we listened: the describe below says so
  expect(core.describe(agent.id).agent?.primary).toBe('idle');
  const client = await connectClient(mcp.url, token, `agent-in-${worktree}`);
  clients.push(client);
  return { agent, mcp: client };
}

type Listed = { id: string; name: string; state: string; config_name?: string; worktree: string; ready?: { port?: number } };

describe('a worktree’s app on demand', () => {
  it('start_process by name from an agent in a worktree starts its own web after its own api; names and lists resolve there; idle stop and start again', async () => {
    handle = await startRepoCore(repo, { clock });
    const { core } = handle;
    await core.worktrees.createWorktree({ name: 'a' });
    await core.worktrees.createWorktree({ name: 'b' });
    const { agent, mcp } = await agentIn('a');
    const external = await connectClient(handle.mcp.url, handle.mcp.token);
    clients.push(external);

    // Not running in a yet: a status call says how to start it; start_process does.
    expect((await callError(mcp, 'get_process_status', { process_id: 'web' })).text).toMatch(
      /"web" is not running in a yet: start_process \{"process_id": "web"\}/,
    );
    const web = await callOk<ProcessInfo>(mcp, 'start_process', { process_id: 'web' });
    expect(web).toMatchObject({ name: 'web', worktree: 'a', configName: 'web' });
    const ready = await callOk<{ success: boolean; state: string; port?: number }>(mcp, 'restart_process', {
      process_id: 'web',
      ready_timeout: 30_000,
    });
    const ports = core.ports.assigned('a');
    expect(ready).toMatchObject({ success: true, state: 'ready', port: ports.web });
    expect(await callOk(mcp, 'check_process_ready', { process_id: 'web' })).toMatchObject({ ready: true, port: ports.web });
    expect(await callOk(mcp, 'get_process_status', { process_id: 'api' })).toMatchObject({ worktree: 'a', state: 'ready' });
    expect(new Set([ports.web, ports.api]).size).toBe(2);
    expect(await httpText(`http://127.0.0.1:${ports.web}/`)).toBe(`web in a, api at http://localhost:${ports.api}`);
    expect(await httpText(`http://127.0.0.1:${ports.api}/`)).toBe('api in a');

    // The main checkout's entries are untouched, and the app token's names resolve there.
    const mainWeb = core.listProcesses().find((p) => p.configName === 'web' && !p.worktree)!;
    expect(mainWeb.state).toBe('stopped');
    expect(await callOk(external, 'check_process_ready', { process_id: 'web' })).toMatchObject({ ready: false, state: 'stopped' });
    // The UI's command (and the control API's startInWorktree): b's api on b's own port.
    const apiB = await core.worktrees.startInstance({ worktree: 'b', name: 'api' });
    expect(apiB).toMatchObject({ worktree: 'b', configName: 'api' });
    expect(core.ports.assigned('b').api).not.toBe(ports.api);

    // Lists: own worktree first; "*" in creation order; one worktree alone.
    const own = (await callOk<{ processes: Listed[] }>(mcp, 'list_processes')).processes;
    const inA = core
      .listProcesses()
      .filter((p) => p.worktree === 'a')
      .map((p) => p.id);
    expect(
      own
        .slice(0, inA.length)
        .map((p) => p.id)
        .sort(),
    ).toEqual([...inA].sort());
    expect(own).toHaveLength(core.listProcesses().length);
    const all = (await callOk<{ processes: Listed[] }>(mcp, 'list_processes', { worktree: '*' })).processes;
    expect(all.map((p) => p.id)).toEqual(core.listProcesses().map((p) => p.id));
    // Each entry names its worktree: two `web`s are told apart without another call.
    expect(all.map((p) => p.worktree)).toEqual(core.listProcesses().map((p) => p.worktree ?? 'main'));
    expect(new Set(all.map((p) => p.worktree))).toEqual(new Set(['main', 'a', 'b']));
    const main = (await callOk<{ processes: Listed[] }>(mcp, 'list_processes', { worktree: 'main' })).processes;
    expect(main.map((p) => p.config_name).sort()).toEqual(['api', 'web']);
    const status = await callOk<{ processes: Listed[] }>(mcp, 'get_project_status');
    expect(status.processes[0].id).toBe(inA[0]);

    // Idle stop: the countdown runs on the injected clock from the last start while a's agent is idle.
    clock.advanceBy(IDLE_STOP_MS - 1);
    expect(core.describe(web.id).state).toBe('ready');
    const webId = core.describe(web.id).id;
    const apiId = core.listProcesses().find((p) => p.worktree === 'a' && p.configName === 'api')!.id;
    const stopped = [webId, apiId].map((id) =>
      waitForEvent<ControlEvent>(
        core.onEvent,
        (e) => e.type === 'processChanged' && e.process.id === id && e.process.idleStopped === true,
        15_000,
      ),
    );
    clock.advanceBy(1);
    await Promise.all(stopped);
    for (const id of [webId, apiId])
      expect(core.describe(id)).toMatchObject({
        state: 'stopped',
        idleStopped: true,
        message: expect.stringMatching(/^Stopped · idle/) as string,
      });
    // The row and pane badge the UI draws from it: resting, not failed.
    expect(stateLabel(core.describe(webId))).toMatchObject({ text: 'stopped · idle', tone: 'stopped' });
    // Another worktree's server and the agent itself keep running.
    expect(core.describe(apiB.id).pid).toBeDefined();
    expect(core.describe(agent.id).pid).toBeDefined();

    // On demand again: start_process web starts a's api first (dependsOn), then web.
    const webReady = waitForEvent<ControlEvent>(
      core.onEvent,
      (e) => e.type === 'processChanged' && e.process.id === webId && e.process.state === 'ready',
      30_000,
    );
    const restarted = await callOk<ProcessInfo>(mcp, 'start_process', { process_id: 'web' });
    expect(restarted).toMatchObject({ id: webId, state: 'waiting', message: 'waiting for api (ready)' });
    expect(core.describe(apiId).pid).toBeDefined();
    await webReady;
    expect(core.checkReady(webId)).toMatchObject({ ready: true, port: ports.web });
    expect(core.describe(webId).idleStopped).toBeUndefined();
    expect(core.describe(apiId)).toMatchObject({ state: 'ready' });
    expect(await httpText(`http://127.0.0.1:${ports.web}/`)).toBe(`web in a, api at http://localhost:${ports.api}`);
  });
  it('a stopped instance whose port something else took meanwhile moves to a free port on its next start, and what refers to it follows', async () => {
    handle = await startRepoCore(repo);
    const { core } = handle;
    await core.worktrees.createWorktree({ name: 'a' });
    const api = await core.worktrees.startInstance({ worktree: 'a', name: 'api' });
    const before = core.ports.assigned('a');
    await core.stopProcess(api.id);
    // An unrelated server takes api's port while it is stopped (another project's worktree, say).
    const squatter = createServer((_, res) => res.end('someone else')).listen(before.api, '127.0.0.1');
    await once(squatter, 'listening');
    try {
      const webReady = waitForEvent<ControlEvent>(
        core.onEvent,
        (e) => e.type === 'processChanged' && e.process.configName === 'web' && e.process.worktree === 'a' && e.process.state === 'ready',
        30_000,
      );
      const states: string[] = [];
      const sub = core.onEvent((e) => {
        if (e.type === 'processChanged' && e.process.id === api.id) states.push(e.process.state);
      });
      await core.worktrees.startInstance({ worktree: 'a', name: 'web' });
      const web = ((await webReady) as Extract<ControlEvent, { type: 'processChanged' }>).process;
      sub.dispose();
      const after = core.ports.assigned('a');
      expect(after.api).not.toBe(before.api);
      expect(states).not.toContain('error');
      expect(core.describe(api.id)).toMatchObject({ state: 'ready', readiness: { port: after.api } });
      expect(await httpText(`http://127.0.0.1:${after.api}/`)).toBe('api in a');
      // web was planned with api's old URL; it starts with the new one.
      expect(await httpText(`http://127.0.0.1:${web.readiness?.port}/`)).toBe(`web in a, api at http://localhost:${after.api}`);
      expect(await httpText(`http://127.0.0.1:${before.api}/`)).toBe('someone else');
    } finally {
      squatter.close();
    }
  });
  it("start_process with the name of a switchboard.json agent says to use spawn_agent, which starts that agent's own command and env in the worktree", async () => {
    const config = JSON.parse(readFileSync(join(repo.root, 'switchboard.json'), 'utf8')) as Record<string, unknown>;
    const lead = {
      command: 'sh',
      args: ['-c', 'echo "lead flag=$LEAD_FLAG in=$SWITCHBOARD_WORKTREE cwd=$PWD"; exec cat'],
      env: { LEAD_FLAG: 'from-config' },
      cwd: repo.root, // the main checkout: the same folder in the worktree
      mcp: { scopes: ['entries:read-all'] },
    };
    writeFileSync(join(repo.root, 'switchboard.json'), JSON.stringify({ ...config, agents: { lead } }));
    handle = await startRepoCore(repo);
    await handle.core.worktrees.createWorktree({ name: 'a' });
    const client = await connectClient(handle.mcp.url, handle.mcp.token);
    clients.push(client);
    expect((await callError(client, 'start_process', { process_id: 'lead', worktree: 'a' })).text).toContain(
      `"lead" is an agent from switchboard.json's "agents", not a process: spawn_agent {"agent": "lead", "worktree": "a"} starts one in a`,
    );
    const agent = await callOk<ProcessInfo>(client, 'spawn_agent', { agent: 'lead', worktree: 'a' });
    const line = await waitForOutput(handle.core.entry(agent.id), /lead flag=\S* in=\S* cwd=\S+/, 10_000, 0);
    expect(line).toContain(`lead flag=from-config in=a cwd=${handle.core.worktrees.projectDirIn('a')}`);
    // The configured entry's extra scopes are not copied to another instance.
    expect(handle.core.scopesOf(agent.id)).not.toContain('entries:read-all');
  });
  it('after a restart an agent spawned in a worktree is told the URLs its servers had, before anything starts there', async () => {
    handle = await startRepoCore(repo);
    await handle.core.worktrees.createWorktree({ name: 'a' });
    const api = await handle.core.worktrees.startInstance({ worktree: 'a', name: 'api' });
    const port = handle.core.ports.assigned('a').api;
    await handle.core.stopProcess(api.id);
    await handle.dispose();
    handle = await startRepoCore(repo);
    const { core } = handle;
    const agent = await core.spawnAgent({
      preset: 'generic',
      argv: ['sh', '-c', 'echo "in=$SWITCHBOARD_WORKTREE api=$SWITCHBOARD_URL_API web=$SWITCHBOARD_URL_WEB"; exec cat'],
      worktree: 'a',
    });
    const line = await waitForOutput(core.entry(agent.id), /in=a api=\S* web=\S*/, 10_000, 0);
    expect(line).toContain(`in=a api=http://localhost:${port} web=http://localhost:${core.ports.assigned('a').web}`);
  });
});
