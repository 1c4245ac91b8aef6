import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { collectTreeFromPs, listListeningPorts, parseLsofListeningPorts, parseProcNetTcpListeners } from './listeningPorts';

const isLinux = process.platform === 'linux';

describe('parseProcNetTcpListeners', () => {
  it('keeps LISTEN sockets (state 0A) with their inode and port', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 31337 1 0000000000000000 100 0 0 10 0',
      '   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 31338 1 0000000000000000 20 4 30 10 -1',
    ].join('\n');
    expect([...parseProcNetTcpListeners(table)]).toEqual([['31337', 8080]]);
  });

  it('reads tcp6 rows too', () => {
    const table = [
      '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 00000000000000000000000000000000:1435 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000000000000 100 0 0 10 0',
    ].join('\n');
    expect([...parseProcNetTcpListeners(table)]).toEqual([['4242', 5173]]);
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
    for (const child of children.splice(0)) child.kill('SIGKILL');
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
    const child = spawn('sh', ['-c', `exec node -e "${script}" & wait`], { stdio: ['ignore', 'pipe', 'inherit'] });
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
