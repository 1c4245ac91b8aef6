/**
 * Remote hosts against a real OpenSSH: a network namespace with Debian's sshd as the host
 * (test/support/sshHost.ts), the system `ssh` as the client, our server installed there from the
 * build. Skips, saying why, where namespaces cannot be made.
 */
import { spawnSync } from 'node:child_process';
import {
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RemoteHost, serverBundle, type RemoteHostState } from '../../src/main/core/remote';
import { directorySource } from '../../src/main/core/remote/bundleSource';
import type { ServerBundle } from '../../src/main/core/remote/serverBundle';
import { waitForEvent } from '../../src/main/core/base';
import { callOk, connectClient } from '../mcp/mcpHarness';
import { spawnServe } from '../serve/serveProcess';
import { freshKey, spawnInHost, startSshTestHost, sshHostUnavailable, type SshTestHost } from '../support/sshHost';

const ROOT = resolve(__dirname, '../..');
const unavailable = sshHostUnavailable();
if (unavailable) console.warn(`Skipping the remote-host tests: ${unavailable}`);

let host: SshTestHost;
const remotes: RemoteHost[] = [];
beforeAll(async () => {
  if (!unavailable) host = await startSshTestHost();
}, 60_000);
// One connection to a host at a time: each forwards the server's ports to the same local ports.
afterEach(() => {
  for (const remote of remotes.splice(0)) remote.dispose();
});
afterAll(() => host?.dispose());

function must(argv: string[]): string {
  const result = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed: ${result.stderr}`);
  return result.stdout.trim();
}

function remoteFor(dirs: string[], configFile = host.configFile, destination = host.alias): RemoteHost {
  const remote = new RemoteHost({ spec: { destination, dirs }, configFile, bundle: () => serverBundle(ROOT), trust: true });
  remotes.push(remote);
  return remote;
}

/** The app's bundle with node-pty's built binary replaced by bytes no platform loads: a host where no build fits. */
function bundleWithUnusablePty(): ServerBundle {
  const source = directorySource(ROOT);
  const binary = 'node_modules/node-pty/build/Release/pty.node';
  const unusable = Buffer.from('not a shared object\n');
  return serverBundle({
    ...source,
    entry: (path) => (path === binary ? { type: 'file', size: unusable.length, executable: true } : source.entry(path)),
    read: (path) => (path === binary ? unusable : source.read(path)),
  });
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
    // Only the host's OS of node-pty's prebuilds went (the others are most of its size).
    const installedPty = join(host.home, '.switchboard-server', serverBundle(ROOT).version, 'node_modules', 'node-pty');
    expect(existsSync(join(installedPty, 'package.json'))).toBe(true);
    expect(readdirSync(join(installedPty, 'prebuilds')).filter((name) => !name.startsWith(`${process.platform}-`))).toEqual([]);
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
    const ready = await callOk<{ success: boolean; state: string; url?: string }>(client, 'restart_process', {
      process_id: web.id,
      ready_timeout: 60_000,
    });
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

  it('a cut connection leaves the host running; it reconnects to the same server and ports, and every line arrives exactly once', async () => {
    hostProject('ticks', { processes: {} });
    const remote = remoteFor(['ticks']);
    const first = await remote.connect();
    expect(first.message).toBeUndefined();
    expect(first.status).toBe('connected');
    const [project] = first.projects;
    const client = await connectClient(project.url, project.token);
    const ticks = 300;
    const spawned = await callOk<{ id: string }>(client, 'spawn_process', {
      kind: 'command',
      name: 'ticker',
      argv: ['sh', '-c', `i=0; while [ $i -lt ${ticks} ]; do i=$((i+1)); echo tick-$i; sleep 0.02; done; echo ticker-done`],
    });
    await client.close();

    const lost = waitForStatus(remote, 'disconnected');
    process.kill(remote.sshPid!, 'SIGKILL'); // the network goes
    expect((await lost).message).toMatch(/Connection to .* lost/);
    const back = await waitForStatus(remote, 'connected');
    expect(back).toMatchObject({ server: 'reused', ui: first.ui });
    expect(back.projects[0]).toMatchObject({ url: project.url, token: project.token });

    const again = await connectClient(project.url, project.token);
    await callOk(again, 'wait_for_pattern', { process_id: spawned.id, pattern: 'ticker-done', timeout_seconds: 60, from: 'start' });
    const output = await callOk<{ text: string }>(again, 'get_process_output', { process_id: spawned.id, mode: 'stream', since_offset: 0 });
    await again.close();
    const seen = output.text.split('\n').filter((line) => /^tick-\d+$/.test(line.trim()));
    expect(seen.map((line) => line.trim())).toEqual(Array.from({ length: ticks }, (_, i) => `tick-${i + 1}`));
  }, 240_000);

  it('a server of another version running on the host: one line naming both, nothing stopped', async () => {
    const remote = new RemoteHost({
      spec: { destination: host.alias, dirs: [] },
      configFile: host.configFile,
      bundle: () => ({ ...serverBundle(ROOT), version: '0.0.1-0123456789ab' }),
      trust: false,
    });
    remotes.push(remote);
    const state = await remote.connect();
    expect(state.status).toBe('failed');
    expect(state.message).toMatch(/runs Switchboard server 0\.1\.0-\w+ \(pid \d+\); this is 0\.0\.1-0123456789ab/);
    remote.dispose();
    expect((await remoteFor(['shop']).connect()).status).toBe('connected'); // the running one is untouched
  }, 120_000);

  it('serve --remote lists the host projects like local ones with their host and tunnelled endpoint, remembers the host, and a bad host fails alone', async () => {
    const dir = hostProject('blog', { processes: {} });
    const root = mkdtempSync(join(tmpdir(), 'serve-remote-'));
    const dirs = { projectDir: join(root, 'local'), dataDir: join(root, 'data'), staticDir: join(root, 'static') };
    for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
    const serve = await spawnServe(dirs, [
      '--remote',
      `${host.alias}:blog`,
      '--remote',
      'nosuchhost.invalid',
      '--ssh-config',
      host.configFile,
    ]);
    try {
      const line = serve.printed as unknown as {
        projects: Array<{ dir: string; host?: string; url: string; token: string }>;
        hosts: Array<{ host: string; status: string; message?: string; ui?: string }>;
      };
      expect(line.projects.map((p) => p.host)).toEqual([undefined, host.alias]);
      const remoteProject = line.projects[1];
      expect(remoteProject.dir).toBe(realpathSync(dir));
      expect(line.hosts).toEqual([
        { host: host.alias, status: 'connected', ui: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/#token=/) as string },
        { host: 'nosuchhost.invalid', status: 'failed', message: expect.stringMatching(/^Unknown host nosuchhost\.invalid/) as string },
      ]);
      expect(serve.stderr()).toMatch(/switchboard: Unknown host nosuchhost\.invalid/);
      const client = await connectClient(remoteProject.url, remoteProject.token);
      expect((await callOk<{ project: { dir: string } }>(client, 'whoami')).project.dir).toBe(realpathSync(dir));
      await client.close();
      const remembered = JSON.parse(readFileSync(join(dirs.dataDir, 'remote-hosts.json'), 'utf8')) as Array<{
        destination: string;
        dirs: string[];
      }>;
      expect(remembered).toMatchObject([{ destination: host.alias, dirs: ['blog'] }]);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
      rmSync(root, { recursive: true, force: true });
    }
    // serve's end closed only the connection: the host's server still has the project open.
    const after = await remoteFor([]).connect();
    expect(after.server).toBe('reused');
    expect(after.projects.map((p) => p.dir)).toContain(realpathSync(dir));
  }, 240_000);

  it("a server recorded on the host that is another user's process, or does not prove it is ours, is not reused and is sent nothing", async () => {
    const first = await remoteFor([]).connect();
    expect(first.status).toBe('connected');
    for (const remote of remotes.splice(0)) remote.dispose();
    const base = join(host.home, '.switchboard-server');
    const stateFile = join(base, 'server.json');
    const recorded = JSON.parse(readFileSync(stateFile, 'utf8')) as { pid: number; port: number; ui: string; version: string };
    const oldSecret = new URL(recorded.ui).hash.slice('#token='.length);
    // Our server goes; whatever listens on its port next, with the base path in its command line, is an impostor.
    process.kill(recorded.pid, 'SIGKILL');
    await expect.poll(() => host.pids().includes(recorded.pid)).toBe(false);

    const other = `sbimp${Math.random().toString(16).slice(2, 8)}`;
    spawnSync('useradd', ['--no-create-home', '--shell', '/bin/sh', other]);
    const impostors: Array<ReturnType<typeof spawnInHost>> = [];
    try {
      const impostorSource = [
        "const server = require('http').createServer((req, res) => {",
        '  console.log(JSON.stringify({ path: req.url, headers: req.headers }));',
        "  res.end(JSON.stringify({ proof: 'made-up' }));",
        '});',
        "server.on('upgrade', (req, socket) => { console.log(JSON.stringify({ path: 'upgrade ' + req.url, headers: req.headers })); socket.destroy(); });",
        "server.listen(Number(process.argv[1]), '127.0.0.1', () => console.log(JSON.stringify({ listening: process.pid })));",
      ].join('\n');
      /** An impostor run as `user` on `port`; its pid is what the state file then names. */
      const impostor = async (user: string, port: number) => {
        const [uid, gid] = [must(['id', '-u', user]), must(['id', '-g', user])];
        const proc = spawnInHost(host, [
          'setpriv',
          `--reuid=${uid}`,
          `--regid=${gid}`,
          '--clear-groups',
          'node',
          '-e',
          impostorSource,
          String(port),
          base,
        ]);
        impostors.push(proc);
        const { listening } = await proc.line<{ listening?: number }>((line) => line.listening !== undefined, 20_000);
        writeFileSync(stateFile, JSON.stringify({ ...recorded, pid: listening, port }), { mode: 0o600 });
        return proc;
      };
      const requestsTo = (proc: ReturnType<typeof spawnInHost>) =>
        (proc.lines() as Array<{ path?: string; headers?: Record<string, string> }>).filter((line) => line.path !== undefined);

      // Another user's process (kill answers EPERM) on our old port.
      const foreign = await impostor(other, recorded.port);
      const logged: string[] = [];
      const remote = new RemoteHost({
        spec: { destination: host.alias, dirs: [] },
        configFile: host.configFile,
        bundle: () => serverBundle(ROOT),
        trust: false,
        log: (line) => logged.push(line),
      });
      remotes.push(remote);
      const state = await remote.connect();
      expect(state.message).toBeUndefined();
      expect(state).toMatchObject({ status: 'connected', server: 'started' });
      expect(new URL(state.ui!).port).not.toBe(String(recorded.port));
      expect(logged.join('\n')).toMatch(
        new RegExp(`the recorded server is not reused \\(pid \\d+ belongs to another user\\); starting our own`),
      );
      expect(requestsTo(foreign)).toEqual([]);
      for (const remote of remotes.splice(0)) remote.dispose();

      // A process of the host user that listens where the state says but cannot prove it holds the secret.
      const ours = JSON.parse(readFileSync(stateFile, 'utf8')) as { pid: number; port: number };
      process.kill(ours.pid, 'SIGKILL');
      await expect.poll(() => host.pids().includes(ours.pid)).toBe(false);
      const sameUser = await impostor(host.user, ours.port);
      const again = await remoteFor([]).connect();
      expect(again.message).toBeUndefined();
      expect(again).toMatchObject({ status: 'connected', server: 'started' });
      const seen = requestsTo(sameUser);
      expect(seen.length).toBeGreaterThan(0);
      for (const request of seen) {
        expect(request.path).toMatch(/^\/identity\?nonce=[\w-]{43}$/);
        expect(request.headers?.authorization).toBeUndefined();
        expect(JSON.stringify(request.headers)).not.toContain(oldSecret);
      }
    } finally {
      for (const proc of impostors) proc.stop();
      spawnSync('userdel', ['--force', other]);
    }
  }, 240_000);

  it('a node-pty build that does not load on the host is built there; without a compiler, one line names what is missing', async () => {
    const other = await startSshTestHost(); // a host with nothing installed yet
    const bundle = bundleWithUnusablePty();
    const connectOther = (dirs: string[]) => {
      const remote = new RemoteHost({
        spec: { destination: other.alias, dirs },
        configFile: other.configFile,
        bundle: () => bundle,
        trust: true,
      });
      remotes.push(remote);
      return remote.connect();
    };
    try {
      // The login's PATH has what the install needs (node, sh, tar, gzip, coreutils) but no python3, make or g++.
      const bin = join(other.dir, 'bin-without-compiler');
      mkdirSync(bin);
      for (const tool of ['node', 'sh', 'tar', 'gzip', 'cat', 'mkdir', 'rm', 'mv', 'touch'])
        symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
      const environment = join(other.home, '.ssh', 'environment');
      mkdirSync(dirname(environment), { recursive: true });
      writeFileSync(environment, `PATH=${bin}\n`);
      const failed = await connectOther([]);
      expect(failed.status).toBe('failed');
      expect(failed.message).toMatch(
        /^sbhost-\w+: node-pty has no build that loads on the host \(linux-\w+, Node v[\d.]+\) and cannot be built there: missing python3, make, g\+\+ \(a C\+\+ compiler\) \(Failed to load native module: pty\.node, checked: build\/Release.*\)$/,
      );
      expect(failed.message).not.toContain('\n');

      // With the host's tools, the installed server's node-pty is built there and panes run on it.
      rmSync(environment);
      const dir = join(other.home, 'ptybuild');
      mkdirSync(dir);
      writeFileSync(join(dir, 'switchboard.json'), '{"processes":{}}');
      spawnSync('chown', ['-R', `${other.user}:`, dir]);
      const built = await connectOther(['ptybuild']);
      expect(built.message).toBeUndefined();
      expect(built).toMatchObject({ status: 'connected', server: 'started' });
      const binary = readFileSync(join(other.home, '.switchboard-server', bundle.version, 'node_modules/node-pty/build/Release/pty.node'));
      expect(binary.subarray(0, 4).toString('latin1')).toBe('\u007fELF');
      const client = await connectClient(built.projects[0].url, built.projects[0].token);
      const spawned = await callOk<{ id: string }>(client, 'spawn_process', {
        kind: 'command',
        name: 'probe',
        argv: ['sh', '-c', 'echo pty-$((6*7))'],
      });
      await callOk(client, 'wait_for_pattern', { process_id: spawned.id, pattern: 'pty-42', timeout_seconds: 60, from: 'start' });
      await client.close();
    } finally {
      for (const remote of remotes.splice(0)) remote.dispose();
      other.dispose();
    }
  }, 240_000);

  describe('bad input gets one clear line', () => {
    const cleanups: Array<() => void> = [];
    afterEach(() => {
      for (const cleanup of cleanups.splice(0)) cleanup();
    });
    const cases: Array<[string, () => { destination?: string; configFile: string }, RegExp]> = [
      [
        'an unknown host',
        () => ({ destination: 'nosuchhost.invalid', configFile: host.configFile }),
        /^Unknown host nosuchhost\.invalid: ssh cannot resolve it/,
      ],
      [
        'a key the host refuses',
        () => ({ configFile: host.writeVariantConfig('wrongkey', { identityFile: freshKey(host.dir).file }) }),
        /refused the login: no key it accepts/,
      ],
      [
        'a changed host key',
        () => {
          const knownHostsFile = join(host.dir, 'known_hosts.changed');
          writeFileSync(knownHostsFile, `${host.alias} ${freshKey(host.dir).publicKey}\n`);
          return { configFile: host.writeVariantConfig('changed', { knownHostsFile }) };
        },
        /host key has changed/,
      ],
      [
        'no Node on the host',
        () => {
          // The login's PATH (sshd reads ~/.ssh/environment after its default PATH) has a shell's tools but no node.
          const bin = join(host.dir, 'bin-without-node');
          mkdirSync(bin, { recursive: true });
          for (const tool of ['cat', 'tar']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
          mkdirSync(join(host.home, '.ssh'), { recursive: true });
          writeFileSync(join(host.home, '.ssh', 'environment'), `PATH=${bin}\n`);
          cleanups.push(() => rmSync(join(host.home, '.ssh', 'environment')));
          return { configFile: host.configFile };
        },
        /^No Node on sbhost-\w+: install Node ≥ 20/,
      ],
    ];
    it.each(cases)(
      '%s',
      async (_name, setup, expected) => {
        const { destination, configFile } = setup();
        const remote = remoteFor([], configFile, destination ?? host.alias);
        const state = await remote.connect();
        expect(state.status).toBe('failed');
        expect(state.message).toMatch(expected);
        expect(state.message).not.toContain('\n');
      },
      60_000,
    );
  });
});
