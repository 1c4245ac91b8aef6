/**
 * `waitForReady` on an entry that waits for its dependencies, on a real core with real HTTP
 * servers: it answers for the run the start order is about to begin, not with the last run's
 * state; a dependency that fails, or a start cancelled by hand, answers with why at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitForEvent } from '../../src/main/core/base';
import type { ControlEvent } from '../../src/shared/api';
import type { ProcessInfo } from '../../src/shared/model';
import { startSwitchboard, type Switchboard } from '../mcp/mcpHarness';
import { freePort } from '../support/ports';

/** A server on the port of its first argument that begins listening after its second (ms). */
const SERVER =
  "const [port, after] = process.argv.slice(1).map(Number); setTimeout(() => require('http').createServer((q, s) => s.end('up')).listen(port, '127.0.0.1'), after);";

let sb: Switchboard | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const entryOf = (s: Switchboard, name: string): ProcessInfo => s.handle.core.listProcesses().find((p) => p.configName === name)!;

function reaches(s: Switchboard, name: string, state: ProcessInfo['state']): Promise<unknown> {
  if (entryOf(s, name).state === state) return Promise.resolve();
  return waitForEvent<ControlEvent>(
    s.handle.core.onEvent,
    (e) => e.type === 'processChanged' && e.process.configName === name && e.process.state === state,
    30_000,
  );
}

/** A core whose `web` (a server on `webPort`) depends on `dependency` ("api", ready, or "migrate", completed). */
async function open(webPort: number, dependency: Record<string, unknown>, condition: 'ready' | 'completed'): Promise<Switchboard> {
  const [name] = Object.keys(dependency);
  const web = {
    command: 'node',
    args: ['-e', SERVER, String(webPort), '0'],
    port: webPort,
    dependsOn: { [name]: condition },
    autoStart: false,
  };
  sb = await startSwitchboard({ config: { processes: { ...dependency, web } } });
  return sb;
}

/** An API server on `port` that listens only after `afterMs`. */
const slowApi = (port: number, afterMs: number) => ({
  api: { command: 'node', args: ['-e', SERVER, String(port), String(afterMs)], port, autoStart: false },
});

describe('waitForReady on an entry waiting for a dependency', () => {
  it('waits for the new run, not the last run’s stopped state', async () => {
    const [apiPort, webPort] = [await freePort(), await freePort()];
    const s = await open(webPort, slowApi(apiPort, 1500), 'ready');
    const { core } = s.handle;
    const web = entryOf(s, 'web').id;
    const api = entryOf(s, 'api').id;
    await core.startProcess(web);
    expect(await core.waitForReady(web, 60_000)).toMatchObject({ success: true, state: 'ready', port: webPort });
    // Both stopped: web's last run reads stopped; starting it waits for api again.
    await core.stopProcess(web);
    await core.stopProcess(api);
    await reaches(s, 'web', 'stopped');
    await core.startProcess(web);
    expect(entryOf(s, 'web')).toMatchObject({ state: 'waiting', message: 'waiting for api (ready)' });
    const result = await core.waitForReady(web, 60_000);
    expect(result).toMatchObject({ success: true, state: 'ready', port: webPort });
    expect(entryOf(s, 'web')).toMatchObject({ state: 'ready', runId: 2 });
    expect(entryOf(s, 'api')).toMatchObject({ state: 'ready', runId: 2 });
  });

  it('a dependency that fails answers with the start order’s reason, not a timeout', async () => {
    const webPort = await freePort();
    const s = await open(
      webPort,
      { migrate: { command: 'node', args: ['-e', 'setTimeout(() => process.exit(2), 1000)'], oneShot: true, autoStart: false } },
      'completed',
    );
    const { core } = s.handle;
    const web = entryOf(s, 'web').id;
    await core.startProcess(web);
    const result = await core.waitForReady(web, 60_000);
    expect(result).toMatchObject({ success: false, state: 'error', message: 'Not started: migrate failed (Exited with code 2)' });
    expect(result.duration_ms).toBeLessThan(60_000);
    expect(entryOf(s, 'web').runId).toBe(0);
  });

  it('a start cancelled by hand while waiting answers that it was not started', async () => {
    const [apiPort, webPort] = [await freePort(), await freePort()];
    const s = await open(webPort, slowApi(apiPort, 600_000), 'ready');
    const { core } = s.handle;
    const web = entryOf(s, 'web').id;
    await core.startProcess(web);
    const waiting = core.waitForReady(web, 60_000);
    await core.stopProcess(web);
    expect(await waiting).toMatchObject({ success: false, state: 'stopped', message: 'Not started: its start was cancelled' });
    expect(entryOf(s, 'web').runId).toBe(0);
  });
});
