/**
 * The real Vite binary (devDependency) on a fixture project, in a real PTY: normal start, its
 * port taken by someone else (it moves on), and a broken config.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, expectReadyAfterPortOpened, freePort, httpStatus, useReadyHarness } from './readyHarness';

const VITE = join(BIN, 'vite');
const { harness, timings } = useReadyHarness('vite 7 (ms)');

function startVite(project: string, port: number, extraArgs: string[] = []) {
  return harness().start({
    name: 'vite',
    argv: [VITE, '--port', String(port), ...extraArgs],
    cwd: join(FIXTURES, project),
    env: { SWITCHBOARD_FIXTURE_CACHE_DIR: harness().tempDir('sb-vite-cache-') },
  });
}

describe('vite', () => {
  it('normal start: ready with the URL, once the port answers HTTP', async () => {
    const port = await freePort();
    const watcher = harness().watchPort(port);
    const server = await startVite('vite-app', port);
    const { tracker } = server;
    const result = await tracker.waitForReady(30_000);
    expect(result).toMatchObject({ success: true, state: 'ready', message: `Vite ready on http://localhost:${port}`, port });
    expect(tracker.info.framework).toBe('vite');
    expect(tracker.info.reason).toMatch(/pattern vite-ready \+ port \d+ answers HTTP/);
    expect(await httpStatus(`http://localhost:${port}/`)).toBe(200);
    const started = await expectReadyAfterPortOpened(server, watcher, /ready in \d+ ms/);
    expect(tracker.ports.sightings.map((s) => s.url)).toContain(`http://localhost:${port}/`);
    timings.push({ test: 'normal', ...started });
  });

  it('port already taken: Vite moves to the next free one and readiness follows it', async () => {
    const taken = await freePort();
    await harness().holdPort(taken);
    const { tracker, startedAt } = await startVite('vite-app', taken, []);
    const result = await tracker.waitForReady(30_000);
    expect(result.success).toBe(true);
    expect(result.port).not.toBe(taken);
    expect(result.port).toBeGreaterThan(taken);
    expect(result.message).toBe(`Vite ready on http://localhost:${result.port}`);
    expect(await httpStatus(`http://localhost:${result.port}/`)).toBe(200);
    timings.push({ test: 'port-moved', ready: result.duration_ms, wall: Date.now() - startedAt });
  });

  it('port already taken with --strictPort: error "Port N already in use" with the exit code', async () => {
    const taken = await freePort();
    await harness().holdPort(taken);
    const { tracker, startedAt } = await startVite('vite-app', taken, ['--strictPort']);
    const result = await tracker.waitForReady(30_000);
    expect(result).toMatchObject({ success: false, state: 'error' });
    expect(result.message).toMatch(new RegExp(`^Port ${taken} already in use( \\(exited with code 1\\))?$`));
    expect(result.logs?.join('\n')).toContain(`Port ${taken} is already in use`);
    timings.push({ test: 'strict-port', error: result.duration_ms, wall: Date.now() - startedAt });
  });

  it('broken config: error naming the config file and the syntax problem', async () => {
    const port = await freePort();
    const { tracker, startedAt } = await startVite('vite-broken-config', port);
    const result = await tracker.waitForReady(30_000);
    expect(result).toMatchObject({ success: false, state: 'error' });
    expect(result.message).toMatch(/^Vite could not load .*vite\.config\.mjs: Unexpected end of file/);
    expect(result.logs?.some((l) => l.includes('failed to load config'))).toBe(true);
    expect(await httpStatus(`http://localhost:${port}/`, 1_000)).toBeUndefined(); // ground truth: nothing serves
    timings.push({ test: 'broken-config', error: result.duration_ms, wall: Date.now() - startedAt });
  });
});
