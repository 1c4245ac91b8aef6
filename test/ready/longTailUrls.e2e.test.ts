/**
 * Addresses that are not the server's (docs/readiness.md, "The held-out set"), on real tools in a
 * real PTY (test/fixtures/servers/longtail-app, installed by scripts/ensureTestDeps.mjs):
 * - a placeholder address before the real one: live-server 1.2.2 on a taken port prints
 *   "http://0.0.0.0:PORT is already in use. Trying another port." and later the port it chose;
 * - a second URL on a port that never opens, next to the real one: Vite 8 with laravel-vite-plugin
 *   3.2 prints the Laravel app's `APP_URL` (`php artisan serve`, not running) after Vite's own URL.
 * Ground truth is the port answering, polled by the harness.
 */
import { cpSync, existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, expectReadyAfterPortOpened, freePort, httpStatus, phaseReached, useReadyHarness } from './readyHarness';

const APP = join(FIXTURES, 'longtail-app');
const BIN = join(APP, 'node_modules/.bin');
const { harness, timings } = useReadyHarness('long tail URLs (ms)');

/** A copy of one of the fixture's projects (tools write into it) that uses the fixture's install. */
function project(name: string): string {
  const dir = harness().tempDir(`sb-${name}-`);
  cpSync(join(APP, name), dir, { recursive: true });
  symlinkSync(join(APP, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

describe.skipIf(!existsSync(join(BIN, 'live-server')))('live-server 1.2.2', () => {
  it('a placeholder address on a taken port, then the one it chose: ready there, never on the taken one', async () => {
    const taken = await freePort();
    await harness().holdPort(taken);
    const server = await harness().start({
      name: 'live-server',
      argv: [join(BIN, 'live-server'), `--port=${taken}`, '--no-browser'],
      cwd: project('site'),
    });
    const ready = await phaseReached(server.tracker, 'ready');
    expect(server.firstOutputAt(new RegExp(`http://0\\.0\\.0\\.0:${taken} is already in use`))).toBeDefined();
    expect(ready.port).toBeDefined();
    expect(ready.port).not.toBe(taken);
    expect(ready.message).toMatch(new RegExp(`ready on http://(?:localhost|127\\.0\\.0\\.1):${ready.port}`));
    expect(await httpStatus(`http://127.0.0.1:${ready.port}/`)).toBe(200);
    expect(server.phases.filter((p) => p.phase === 'ready')).toHaveLength(1);
  }, 60_000);
});

describe.skipIf(!existsSync(join(BIN, 'vite')))('Vite 8 with laravel-vite-plugin 3.2', () => {
  it("APP_URL on a port that never opens is not the server: ready on Vite's own port once it answers", async () => {
    const port = await freePort();
    const appPort = await freePort(); // APP_URL's port: nothing listens there
    const dir = project('laravel');
    const watcher = harness().watchPort(port);
    const server = await harness().start({
      name: 'vite-laravel',
      argv: [join(BIN, 'vite'), '--port', String(port), '--strictPort'],
      cwd: dir,
      // The plugin refuses to serve when CI is set (as in .ci/run) unless told, in its own words, to go on.
      env: { APP_URL: `http://localhost:${appPort}`, LARAVEL_BYPASS_ENV_CHECK: '1' },
    });
    const ready = await phaseReached(server.tracker, 'ready');
    expect(ready).toMatchObject({ port, message: `Vite ready on http://localhost:${port}` });
    expect(await httpStatus(`http://127.0.0.1:${port}/@vite/client`)).toBe(200);
    await server.outputSeen(new RegExp(`APP_URL: http://localhost:${appPort}`));
    // The APP_URL line came and went: still ready on Vite's port.
    expect(server.tracker.info).toMatchObject({ phase: 'ready', port });
    expect(await httpStatus(`http://127.0.0.1:${appPort}/`, 2_000)).toBeUndefined();
    timings.push({ test: 'vite + laravel', ...(await expectReadyAfterPortOpened(server, watcher, /ready in \d+ ms/)) });
  }, 60_000);
});
