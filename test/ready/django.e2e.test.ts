/**
 * Django's runserver (Debian python3-django) on a fixture project, in a real PTY: normal start,
 * and its port already in use. Django prints "Starting development server at …" just *before*
 * binding, so this is where "ready line + port open" and "someone else's port" matter.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FIXTURES,
  SYSTEM_PYTHON,
  expectReadyAfterPortOpened,
  freePort,
  hasPythonModule,
  httpStatus,
  useReadyHarness,
} from './readyHarness';

const PROJECT = join(FIXTURES, 'django-project');
const hasDjango = hasPythonModule('django');
const { harness, timings } = useReadyHarness('django runserver (ms)');

function startDjango(port: number, ready?: { port?: number }) {
  return harness().start({
    name: 'django',
    argv: [SYSTEM_PYTHON, 'manage.py', 'runserver', String(port)],
    cwd: PROJECT,
    env: { PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' },
    ready,
  });
}

describe.skipIf(!hasDjango)('django runserver (python3-django)', () => {
  it('normal start: "Django ready on http://127.0.0.1:PORT" once the port answers', async () => {
    const port = await freePort();
    const watcher = harness().watchPort(port);
    const server = await startDjango(port);
    const { tracker } = server;
    const result = await tracker.waitForReady(30_000);
    expect(result).toMatchObject({ success: true, state: 'ready', message: `Django ready on http://127.0.0.1:${port}`, port });
    expect(tracker.info.framework).toBe('django');
    const started = await expectReadyAfterPortOpened(server, watcher, /Starting development server at/);
    expect(await httpStatus(`http://127.0.0.1:${port}/`)).toBe(200);
    timings.push({ test: 'normal', ...started });
  });

  it('port in use (even with `port` configured): error "Port N already in use", never ready', async () => {
    const taken = await freePort();
    await harness().holdPort(taken);
    const { tracker, phases, startedAt } = await startDjango(taken, { port: taken });
    const result = await tracker.waitForReady(30_000);
    expect(result).toMatchObject({ success: false, state: 'error' });
    expect(result.message).toMatch(new RegExp(`^Port ${taken} already in use( \\(exited with code 1\\))?$`));
    // The port answered all along (the test holds it), yet "ready" was never claimed.
    expect(phases.map((p) => p.phase)).toEqual(['starting', 'error']);
    timings.push({ test: 'port-in-use', error: result.duration_ms, wall: Date.now() - startedAt });
  });
});
