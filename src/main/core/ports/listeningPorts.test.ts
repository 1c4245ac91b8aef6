import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Server } from 'node:net';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import {
  acceptQueueLength,
  collectTreeFromPs,
  listListeningPorts,
  parseLsofListeningPorts,
  parseProcNetTcpListeners,
} from './listeningPorts';

const isLinux = process.platform === 'linux';
const hasBwrap = isLinux && spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', 'true']).status === 0;

describe('parseProcNetTcpListeners', () => {
  it('keeps LISTEN sockets (state 0A) with their inode, port and accept queue', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 31337 1 0000000000000000 100 0 0 10 0',
      '   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 31338 1 0000000000000000 20 4 30 10 -1',
    ].join('\n');
    expect(parseProcNetTcpListeners(table)).toEqual([{ inode: '31337', port: 8080, acceptQueue: 0, family: 4 }]);
  });

  it('reads tcp6 rows too', () => {
    const table = [
      '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 00000000000000000000000000000000:1435 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000000000000 100 0 0 10 0',
    ].join('\n');
    expect(parseProcNetTcpListeners(table, 6)).toEqual([{ inode: '4242', port: 5173, acceptQueue: 0, family: 6 }]);
  });

  it("reads a listener's rx_queue as the connections waiting to be accepted", () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '  12: 0100007F:0BB8 00000000:0000 0A 00000000:00000003 00:00000000 00000000  1000        0 777 1 0000000000000000 100 0 0 10 0',
    ].join('\n');
    expect(parseProcNetTcpListeners(table)).toEqual([{ inode: '777', port: 3000, acceptQueue: 3, family: 4 }]);
  });

  it('skips connection rows whatever their width, and a table without a trailing newline', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '10000: 0100007F:C350 0100007F:1F90 06 00000000:00000000 03:00000F9D 00000000     0        0 0 3 0000000000000000',
      '10001: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 31337 1 0000000000000000 100 0 0 10 0',
    ].join('\n');
    expect(parseProcNetTcpListeners(table)).toEqual([{ inode: '31337', port: 8080, acceptQueue: 0, family: 4 }]);
  });
});

describe('macOS parsers', () => {
  it('parses lsof -Fn name lines', () => {
    expect(parseLsofListeningPorts('p4242\nf21\nn*:3000\nf22\nn[::1]:5173\nn127.0.0.1:5173\n')).toEqual([3000, 5173]);
  });

  it('collects a tree from ps output', () => {
    expect(collectTreeFromPs(10, '  1 0\n 10 1\n 11 10\n 12 11\n 13 1\n').sort()).toEqual([10, 11, 12]);
  });
});

describe.runIf(isLinux)('listListeningPorts (Linux /proc, real sockets)', () => {
  const servers: Server[] = [];
  const children: ChildProcess[] = [];
  afterEach(async () => {
    // Each child leads its own process group: the group goes, grandchildren included.
    for (const child of children.splice(0)) process.kill(-child.pid!, 'SIGKILL');
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('finds a port this process listens on', async () => {
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    expect(await listListeningPorts(process.pid)).toContain(port);
  });

  it('finds a port a grandchild listens on, from the root of the tree', async () => {
    // sh → node: the listener is two levels below the root, as with `npm run dev`.
    const script = "require('net').createServer().listen(0,'::1',function(){console.log(this.address().port)})";
    const child = spawn('sh', ['-c', `exec node -e "${script}" & wait`], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    children.push(child);
    const port = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    expect(await listListeningPorts(child.pid!)).toContain(port);
  });

  it('a scan that accepts older tables may reuse an earlier read; one that does not sees a port opened since', async () => {
    const first = createServer();
    servers.push(first);
    await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', resolve));
    expect(await listListeningPorts(process.pid)).toContain((first.address() as { port: number }).port);
    const second = createServer();
    servers.push(second);
    await new Promise<void>((resolve) => second.listen(0, '127.0.0.1', resolve));
    const port = (second.address() as { port: number }).port;
    expect(await listListeningPorts(process.pid, { maxAgeMs: 60_000 })).not.toContain(port); // the same namespace's read, reused
    expect(await listListeningPorts(process.pid)).toContain(port);
    expect(await listListeningPorts(process.pid, { maxAgeMs: 60_000 })).toContain(port); // that fresh read serves the next ones
  });

  it('counts connections a stopped server has not accepted, and none once it has accepted them', async () => {
    const script =
      "require('net').createServer(() => console.log('accepted')).listen(0,'127.0.0.1',function(){console.log(this.address().port)})";
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    children.push(child);
    const port = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    expect(await acceptQueueLength(port)).toBe(0);
    let accepted = 0;
    const bothAccepted = new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => (accepted += String(d).split('accepted').length - 1) >= 2 && resolve()),
    );
    process.kill(child.pid!, 'SIGSTOP');
    const sockets = [connect(port, '127.0.0.1'), connect(port, '127.0.0.1')];
    try {
      // The kernel completes the handshakes for a stopped process: the connects succeed.
      await Promise.all(sockets.map((socket) => once(socket, 'connect')));
      expect(await acceptQueueLength(port)).toBe(2);
    } finally {
      process.kill(child.pid!, 'SIGCONT');
    }
    await bothAccepted;
    expect(await acceptQueueLength(port)).toBe(0);
    sockets.forEach((socket) => socket.destroy());
  });

  it('knows no accept queue for a port nothing listens on', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise((resolve) => server.close(resolve));
    expect(await acceptQueueLength(port)).toBeUndefined();
  });

  it.runIf(hasBwrap)('finds a port a child listens on in a network namespace of its own (a sandbox)', async () => {
    const script = "require('net').createServer().listen(0,'127.0.0.1',function(){console.log(this.address().port)})";
    const child = spawn(
      'bwrap',
      ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--die-with-parent', process.execPath, '-e', script],
      { stdio: ['ignore', 'pipe', 'inherit'], detached: true },
    );
    children.push(child);
    const port = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    expect(await listListeningPorts(child.pid!)).toContain(port);
    // Not on the host's loopback: only the namespace's own.
    expect(await acceptQueueLength(port)).toBeUndefined();
  });

  it('returns nothing for a process that has exited', async () => {
    const child = spawn('true');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await listListeningPorts(child.pid!)).toEqual([]);
  });
});

describe('a child between fork and exec holds our sockets (regression: a worker "listening" on the MCP port)', () => {
  it.skipIf(process.platform !== 'linux')("sockets Switchboard itself holds are never a child tree's", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    // A child that inherits the listening socket as fd 3 models the pre-exec window.
    const child = spawn('sleep', ['30'], {
      stdio: ['ignore', 'ignore', 'ignore', (server as unknown as { _handle: { fd: number } })._handle.fd],
    });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      expect(await listListeningPorts(child.pid!)).not.toContain(port);
    } finally {
      child.kill('SIGKILL');
      server.close();
    }
  });
});
