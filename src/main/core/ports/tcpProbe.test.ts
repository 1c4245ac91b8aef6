import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probeTcp } from './tcpProbe';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function listen(host: string): Promise<number> {
  const server = createServer((socket) => socket.destroy());
  servers.push(server);
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as { port: number }).port)));
}

async function closedPort(): Promise<number> {
  const port = await listen('127.0.0.1');
  await new Promise((resolve) => servers.pop()!.close(resolve));
  return port;
}

describe('probeTcp', () => {
  it('sees a server on 127.0.0.1 (Django, Flask)', async () => {
    expect(await probeTcp({ port: await listen('127.0.0.1') })).toBe(true);
  });

  it('sees a server on ::1 only (Vite on "localhost")', async () => {
    expect(await probeTcp({ port: await listen('::1') })).toBe(true);
  });

  it('answers false for a closed port', async () => {
    expect(await probeTcp({ port: await closedPort() })).toBe(false);
  });

  it('answers false at once when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await probeTcp({ port: await listen('127.0.0.1'), signal: controller.signal })).toBe(false);
  });

  it('answers false after its timeout for a host that never answers', async () => {
    // 192.0.2.0/24 is TEST-NET-1: packets go nowhere, so the connect hangs until the timeout
    // (or fails at once where there is no route); either way the answer is "closed".
    const started = Date.now();
    expect(await probeTcp({ port: 9, hosts: ['192.0.2.1'], timeoutMs: 200 })).toBe(false);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
