/**
 * The host program's `listener` request, run here with this machine's `node` against real sockets:
 * the address a forward must target is where the host user's own process listens.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { hostAgentSource, HOST_FAILURE_PREFIX } from './hostAgent';
import { freePort } from '../../../../test/support/ports';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((r) => server.close(r));
});

async function listenOn(host: string): Promise<number> {
  const port = await freePort();
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen({ port, host, ipv6Only: true }, resolve));
  return port;
}

function askListener(port: number): { address?: string; failure?: string } {
  const run = spawnSync(process.execPath, ['-'], { input: hostAgentSource({ mode: 'listener', version: 'test', port }), encoding: 'utf8' });
  if (run.status === 0) return JSON.parse(run.stdout) as { address: string };
  return { failure: run.stderr.trim().replace(HOST_FAILURE_PREFIX, '') };
}

const linux = process.platform === 'linux';
describe.skipIf(!linux)('the address a host port is served on', () => {
  it('a server on IPv4 loopback or every IPv4 address: 127.0.0.1', async () => {
    expect(askListener(await listenOn('127.0.0.1'))).toEqual({ address: '127.0.0.1' });
    expect(askListener(await listenOn('0.0.0.0'))).toEqual({ address: '127.0.0.1' });
  });

  it('a server on ::1 only, or on every IPv6 address: ::1', async () => {
    expect(askListener(await listenOn('::1'))).toEqual({ address: '::1' });
    expect(askListener(await listenOn('::'))).toEqual({ address: '::1' });
  });

  it('nothing listening: one line saying so', async () => {
    expect(askListener(await freePort())).toEqual({
      failure: expect.stringMatching(/^nothing listens on port \d+ on the host$/) as string,
    });
  });

  it.skipIf(process.getuid?.() !== 0)(
    "a port only another user serves is never a target (another user's 127.0.0.1 beside ours)",
    async () => {
      const port = await freePort();
      const source = `require('net').createServer().listen(${port}, '127.0.0.1', () => console.log('up'))`;
      const other = spawn('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', source], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        await new Promise<void>((resolve, reject) => {
          other.stdout.once('data', () => resolve());
          other.once('exit', (code) => reject(new Error(`the other user's server exited (${code})`)));
        });
        expect(askListener(port)).toEqual({ failure: `port ${port} on the host is served by another user (uid 65534): not forwarded` });
        // Ours on ::1 beside it: the forward goes to ours, not to the other user's 127.0.0.1.
        const server = createServer();
        servers.push(server);
        await new Promise<void>((resolve) => server.listen({ port, host: '::1', ipv6Only: true }, resolve));
        expect(askListener(port)).toEqual({ address: '::1' });
      } finally {
        other.kill('SIGKILL');
      }
    },
  );
});
