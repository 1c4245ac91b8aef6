import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isPortFree, JsonPortStore, PortAllocator } from './portAllocator';

const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function listen(port: number, host: string, ipv6Only = false): Promise<number> {
  const server = createServer();
  servers.push(server);
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen({ port, host, ipv6Only }, () => done((server.address() as { port: number }).port));
  });
}

function storePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-ports-'));
  dirs.push(dir);
  return join(dir, 'ports.json');
}

describe('isPortFree', () => {
  it('sees a listener on 127.0.0.1 only, on ::1 only, and none', async () => {
    const v4 = await listen(0, '127.0.0.1');
    expect(await isPortFree(v4)).toBe(false);
    const v6 = await listen(0, '::1', true);
    expect(await isPortFree(v6)).toBe(false);
    await new Promise((done) => servers.pop()!.close(done));
    expect(await isPortFree(v6)).toBe(true);
  });
});

describe('PortAllocator', () => {
  it('gives each (worktree, entry) its own port and skips one something listens on', async () => {
    const range = { first: 24_000, last: 24_199 };
    const probe = new PortAllocator({ range });
    const first = await probe.allocate('feature-a', 'web');
    // The same key starts its search at the same port: hold it, and the next free one is handed out.
    await listen(first, '127.0.0.1');
    const allocator = new PortAllocator({ range });
    const moved = await allocator.allocate('feature-a', 'web');
    expect(moved).not.toBe(first);
    const other = await allocator.allocate('feature-b', 'web');
    const api = await allocator.allocate('feature-a', 'api');
    expect(new Set([moved, other, api]).size).toBe(3);
  });

  it('never hands out a port in `avoid` (the main checkout’s own ports)', async () => {
    const range = { first: 24_200, last: 24_201 };
    const allocator = new PortAllocator({ range });
    const port = await allocator.allocate('feature-a', 'web', new Set([24_200]));
    expect(port).toBe(24_201);
  });

  it('keeps a worktree’s ports across restarts while they are free, and moves one that is taken', async () => {
    const path = storePath();
    const range = { first: 24_300, last: 24_499 };
    const before = new PortAllocator({ range, store: new JsonPortStore(path) });
    const web = await before.allocate('feature-a', 'web');
    const api = await before.allocate('feature-a', 'api');
    const again = new PortAllocator({ range, store: new JsonPortStore(path) });
    expect(await again.allocate('feature-a', 'api')).toBe(api);
    expect(await again.allocate('feature-a', 'web')).toBe(web);
    await listen(web, '::', false);
    const third = new PortAllocator({ range, store: new JsonPortStore(path) });
    const moved = await third.allocate('feature-a', 'web');
    expect(moved).not.toBe(web);
    expect(moved).not.toBe(api);
  });

  it('the same worktree and entry in two projects start their searches at different ports; one project always at the same', async () => {
    const free = () => Promise.resolve(true);
    const port = (seed: string) => new PortAllocator({ seed, isFree: free }).allocate('feature-a', 'web');
    const [one, again, other] = await Promise.all([port('/home/me/shop'), port('/home/me/shop'), port('/home/me/blog')]);
    expect(one).toBe(again);
    expect(other).not.toBe(one);
  });

  it('allocations made at once never share a port', async () => {
    const allocator = new PortAllocator({ range: { first: 24_500, last: 24_520 } });
    const ports = await Promise.all(['a', 'b', 'c', 'd'].map((w) => allocator.allocate(w, 'web')));
    expect(new Set(ports).size).toBe(4);
  });

  it('a damaged store starts empty instead of failing', async () => {
    const path = storePath();
    writeFileSync(path, '{"feature-a": {"web": "x"}');
    const allocator = new PortAllocator({ range: { first: 24_600, last: 24_610 }, store: new JsonPortStore(path) });
    expect(await allocator.allocate('feature-a', 'web')).toBeGreaterThanOrEqual(24_600);
  });

  it('says so when the range is exhausted', async () => {
    const allocator = new PortAllocator({ range: { first: 24_700, last: 24_700 } });
    await allocator.allocate('a', 'web');
    await expect(allocator.allocate('b', 'web')).rejects.toThrow('no free port left in 24700–24700');
  });
});
