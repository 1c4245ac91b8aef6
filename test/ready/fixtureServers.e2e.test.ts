/**
 * Readiness end to end with small fixture servers in real PTYs: patience with a slow server, a
 * timeout that leaves the process running, an exit during start, and restarts where only the
 * current run counts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitForEvent } from '../../src/main/core/base';
import { expectReadyAfterPortOpened, FIXTURES, freePort, httpStatus, useReadyHarness } from './readyHarness';

const { harness, timings } = useReadyHarness('fixture servers (ms)');

describe('fixture servers', () => {
  it('a server that warms up for 10 s before listening: no premature error, ready once it answers', async () => {
    const port = await freePort();
    const watcher = harness().watchPort(port);
    const server = await harness().start({
      name: 'slow',
      argv: ['node', join(FIXTURES, 'slow-server.mjs'), String(port), '10'],
      cwd: FIXTURES,
      // A declared port: this entry expects readiness (without one it would read `running` until a server signal shows).
      ready: { port },
    });
    const { tracker, phases, startedAt } = server;
    const result = await tracker.waitForReady(30_000);
    expect(result).toMatchObject({ success: true, state: 'ready', port, url: `http://127.0.0.1:${port}` });
    expect(phases.map((p) => p.phase)).toEqual(['starting', 'ready']);
    // Ground truth: the port answers HTTP now, and did not answer before ~10 s.
    expect(await httpStatus(`http://127.0.0.1:${port}/`)).toBe(200);
    expect((await watcher.opened()) - startedAt).toBeGreaterThanOrEqual(9_500);
    timings.push({ test: 'slow-server', ...(await expectReadyAfterPortOpened(server, watcher, /Server listening on/)) });
  }, 40_000);

  it('a process that never becomes ready: timeout error with the last lines, left running', async () => {
    const { entry, tracker, startedAt } = await harness().start({
      name: 'never-ready',
      argv: ['node', join(FIXTURES, 'never-ready.mjs')],
      cwd: FIXTURES,
      ready: { timeout: 3_000 },
    });
    const result = await tracker.waitForReady(10_000);
    expect(result).toMatchObject({ success: false, state: 'error', message: 'No ready signal after 3 s' });
    expect(result.logs).toContain('Connecting to the message queue...');
    expect(result.logs!.at(-1)).toMatch(/^queue not reachable yet, attempt \d+$/);
    expect(result.duration_ms).toBeGreaterThanOrEqual(2_900);
    expect(entry.isRunning).toBe(true); // the timeout does not kill it
    timings.push({ test: 'never-ready', error: Date.now() - startedAt });
  });

  it('a process that exits at once: error with its exit code, at once', async () => {
    const { tracker, phases, startedAt } = await harness().start({
      name: 'exits',
      argv: ['node', join(FIXTURES, 'exits-at-once.mjs')],
      cwd: FIXTURES,
      // A server that declares its ready line: an exit before it is an error "during start".
      ready: { readyPatterns: ['listening'] },
    });
    const result = await tracker.waitForReady(10_000);
    expect(result).toMatchObject({ success: false, state: 'error', message: 'Exited with code 3 during start' });
    expect(result.logs).toEqual(['Loading config/dev.json', 'Fatal: config/dev.json does not exist']);
    expect(tracker.info.exitCode).toBe(3);
    expect(phases.map((p) => p.phase)).toEqual(['starting', 'error']);
    timings.push({ test: 'exits-at-once', error: phases.at(-1)!.at - startedAt });
  });

  it('restart: the new run starts over and the previous run’s ready line does not count', async () => {
    const port = await freePort();
    const { entry, tracker } = await harness().start({
      name: 'restart',
      argv: ['node', join(FIXTURES, 'slow-server.mjs'), String(port), '1'],
      cwd: FIXTURES,
      ready: { port },
    });
    expect(await tracker.waitForReady(15_000)).toMatchObject({ success: true, port });
    const firstRun = entry.runId;
    const restarted = waitForEvent(tracker.onDidChange, (info) => info.runId === firstRun + 1 && info.phase === 'starting', 10_000);
    const restart = entry.restart();
    await restarted;
    await restart;
    // The old run printed "Server listening on …"; the new one has not yet: it must be starting.
    expect(tracker.check()).toMatchObject({ ready: false, state: 'starting' });
    const result = await tracker.waitForReady(15_000, undefined, undefined, { runId: firstRun + 1 });
    expect(result).toMatchObject({ success: true, state: 'ready', port });
    expect(result.duration_ms).toBeGreaterThanOrEqual(900); // measured from the new run's start
    expect(await httpStatus(`http://127.0.0.1:${port}/`)).toBe(200);
  }, 40_000);

  it('stop: a requested stop is "stopped", not an error', async () => {
    const port = await freePort();
    const { entry, tracker } = await harness().start({
      name: 'stop',
      argv: ['node', join(FIXTURES, 'slow-server.mjs'), String(port), '0'],
      cwd: FIXTURES,
    });
    expect(await tracker.waitForReady(15_000)).toMatchObject({ success: true });
    await entry.stop();
    expect(tracker.info).toMatchObject({ phase: 'stopped', message: 'Stopped' });
  });
});
