/**
 * The real Next.js 16 dev server (devDependency, Turbopack) on a fixture app, in a real PTY:
 * normal start, and its port already in use.
 */
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, expectReadyAfterPortOpened, freePort, httpStatus, useReadyHarness } from './readyHarness';

const NEXT = join(BIN, 'next');
const APP = join(FIXTURES, 'next-app');
const { harness, timings } = useReadyHarness('next 16 (ms)');

function startNext(port: number) {
  // Each run builds into its own directory (gitignored), so runs never share Next's dev lock.
  const distDir = `.next-test-${randomBytes(4).toString('hex')}`;
  harness().removeLater(join(APP, distDir));
  harness().removeLater(join(APP, '.next')); // Next's telemetry flush writes .next/cache regardless
  return harness().start({
    name: 'next',
    argv: [NEXT, 'dev', '--port', String(port)],
    cwd: APP,
    env: { NEXT_TELEMETRY_DISABLED: '1', SWITCHBOARD_FIXTURE_DIST_DIR: distDir },
  });
}

describe('next.js', () => {
  it('normal start: "Next.js ready on http://localhost:PORT" once the port answers', async () => {
    const port = await freePort();
    const watcher = harness().watchPort(port);
    const server = await startNext(port);
    const { tracker } = server;
    const result = await tracker.waitForReady(60_000);
    expect(result, `last lines: ${JSON.stringify(result.logs)}`).toMatchObject({
      success: true,
      state: 'ready',
      message: `Next.js ready on http://localhost:${port}`,
      port,
    });
    expect(tracker.info.framework).toBe('nextjs');
    const started = await expectReadyAfterPortOpened(server, watcher, /Ready in \d/);
    // Ground truth: the app answers (the first request compiles the page).
    expect(await httpStatus(`http://localhost:${port}/`, 60_000)).toBe(200);
    timings.push({ test: 'normal', ...started });
  }, 90_000);

  it('port in use: error "Port N already in use", process exits with code 1', async () => {
    const taken = await freePort();
    await harness().holdPort(taken);
    const { tracker, startedAt } = await startNext(taken);
    const result = await tracker.waitForReady(60_000);
    expect(result).toMatchObject({ success: false, state: 'error' });
    expect(result.message).toMatch(new RegExp(`^Port ${taken} already in use( \\(exited with code 1\\))?$`));
    expect(result.logs?.join('\n')).toMatch(/Failed to start server/);
    timings.push({ test: 'port-in-use', error: result.duration_ms, wall: Date.now() - startedAt });
  }, 90_000);
});
