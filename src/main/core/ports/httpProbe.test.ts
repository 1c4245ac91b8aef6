import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { probeHttp } from './httpProbe';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function serve(status: number, delayMs = 0): Promise<string> {
  const server = createServer((_req, res) => setTimeout(() => res.writeHead(status).end('body'), delayMs));
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}/health`)),
  );
}

describe('probeHttp', () => {
  it.each([
    [200, true],
    [302, true],
    [404, true], // a dev server without a "/" route is still up
    [401, true],
    [500, false], // up but failing (Next.js while a page does not compile)
    [503, false],
  ])('HTTP %i → ok %s', async (status, isOk) => {
    const result = await probeHttp({ url: await serve(status) });
    expect(result).toMatchObject({ isOk, status });
  });

  it('reports a refused connection by its code', async () => {
    const url = await serve(200);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect(await probeHttp({ url })).toMatchObject({ isOk: false, error: 'ECONNREFUSED' });
  });

  it('gives up after its timeout', async () => {
    expect(await probeHttp({ url: await serve(200, 2_000), timeoutMs: 100 })).toMatchObject({ isOk: false, error: 'timeout' });
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const pending = probeHttp({ url: await serve(200, 2_000), signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ isOk: false, error: 'aborted' });
  });

  it('refuses a non-URL without throwing', async () => {
    expect(await probeHttp({ url: 'not a url' })).toMatchObject({ isOk: false });
  });
});
