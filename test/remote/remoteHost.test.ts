/**
 * Remote hosts against a real OpenSSH: a network namespace with Debian's sshd as the host
 * (test/support/sshHost.ts), the system `ssh` as the client, our server installed there from the
 * build. Skips, saying why, where namespaces cannot be made.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, realpathSync, writeFileSync, copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteHost, serverBundle, type RemoteHostState } from '../../src/main/core/remote';
import { waitForEvent } from '../../src/main/core/base';
import { callOk, connectClient } from '../mcp/mcpHarness';
import { startSshTestHost, sshHostUnavailable, type SshTestHost } from '../support/sshHost';

const ROOT = resolve(__dirname, '../..');
const unavailable = sshHostUnavailable();
if (unavailable) console.warn(`Skipping the remote-host tests: ${unavailable}`);

let host: SshTestHost;
const remotes: RemoteHost[] = [];
beforeAll(async () => {
  if (!unavailable) host = await startSshTestHost();
}, 60_000);
afterAll(() => {
  for (const remote of remotes) remote.dispose();
  host?.dispose();
});

function remoteFor(dirs: string[], configFile = host.configFile, destination = host.alias): RemoteHost {
  const remote = new RemoteHost({ spec: { destination, dirs }, configFile, bundle: () => serverBundle(ROOT), trust: true });
  remotes.push(remote);
  return remote;
}

/** A folder in the host user's home, owned by that user. */
function hostProject(name: string, config: object, files: Record<string, string> = {}): string {
  const dir = join(host.home, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'switchboard.json'), JSON.stringify(config));
  for (const [file, from] of Object.entries(files)) copyFileSync(from, join(dir, file));
  spawnSync('chown', ['-R', `${host.user}:`, dir]);
  chownSync(dir, host.uid, -1);
  return dir;
}

function waitForStatus(remote: RemoteHost, status: RemoteHostState['status'], timeoutMs = 60_000): Promise<RemoteHostState> {
  if (remote.state.status === status) return Promise.resolve(remote.state);
  return waitForEvent(remote.onDidChangeState, (state) => state.status === status, timeoutMs);
}

describe.skipIf(unavailable)('a remote host over real ssh', () => {
  it('installs the server on first connect, opens the folder there, and its MCP endpoint and dev server are reachable from here', async () => {
    const devPort = 20_000 + Math.floor(Math.random() * 20_000);
    const dir = hostProject(
      'shop',
      { processes: { web: { command: 'node', args: ['slow-server.mjs', String(devPort), '0'], port: devPort } } },
      { 'slow-server.mjs': join(ROOT, 'test/fixtures/servers/slow-server.mjs') },
    );
    const remote = remoteFor(['shop']);
    const state = await remote.connect();
    expect(state.message).toBeUndefined();
    expect(state).toMatchObject({ status: 'connected', server: 'installed', host: host.alias });
    expect(state.projects).toHaveLength(1);
    const [project] = state.projects;
    expect(project.dir).toBe(realpathSync(dir));
    expect(project.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);

    // The MCP endpoint, reached from here through the tunnel, is the host's project.
    const client = await connectClient(project.url, project.token);
    const me = await callOk<{ project: { dir: string } }>(client, 'whoami');
    expect(me.project.dir).toBe(realpathSync(dir));
    const { processes } = await callOk<{ processes: Array<{ id: string; name: string }> }>(client, 'list_processes');
    const web = processes.find((p) => p.name === 'web')!;
    const ready = await callOk<{ success: boolean; state: string; url?: string }>(client, 'restart_process', { process_id: web.id, ready_timeout: 60_000 });
    await client.close();
    expect(ready).toMatchObject({ success: true, state: 'ready' });

    // Nothing answers on this side until the port is forwarded: the dev server is the host's.
    const url = `http://127.0.0.1:${devPort}/`;
    await expect(fetch(url)).rejects.toThrow();
    await remote.forwardPort(devPort);
    expect(await (await fetch(url)).text()).toBe('slow fixture\n');

    // The host's server listens on its loopback only, and no token shows in any process list.
    const listening = host.exec(['ss', '-Hltn']).stdout.trim().split('\n');
    expect(listening.length).toBeGreaterThan(2);
    for (const line of listening) expect(line.split(/\s+/)[3]).toMatch(/^127\.0\.0\.1:\d+$/);
    const everyArgv = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout;
    expect(everyArgv).not.toContain(project.token);
    expect(everyArgv).not.toContain(new URL(state.ui!).hash.slice('#token='.length));
  }, 240_000);
});
