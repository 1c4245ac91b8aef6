/**
 * Not every command is a server, end to end: a real core with its real MCP endpoint (what `serve`
 * runs), real PTYs, a real Python HTTP server, and the SDK client. Ground truth comes from the
 * processes themselves (timestamps they write, a port the test polls), not from Switchboard.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { waitForEvent } from '../../src/main/core/base';
import type { ControlEvent } from '../../src/shared/api';
import type { ProcessInfo, RunState } from '../../src/shared/model';
import { NO_READINESS_MESSAGE } from '../../src/main/core/ready';
import { startSwitchboard, connectClient, callOk, type Switchboard } from './mcpHarness';
import { freePort } from '../support/ports';
import { httpStatus } from '../ready/readyHarness';
import { waitForOutput } from '../support/wait';

/** Event delivery and probe scheduling on a 2-core machine shared with other builds. */
const LOADED_MACHINE_SLACK_MS = 1_000;

let sb: Switchboard | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await sb?.close();
  client = undefined;
  sb = undefined;
});

async function open(processes: Record<string, unknown>): Promise<{ sb: Switchboard; client: Client }> {
  sb = await startSwitchboard({ config: { processes } });
  client = await connectClient(sb.url, sb.token);
  return { sb, client };
}

const entryOf = (s: Switchboard, name: string): ProcessInfo => s.handle.core.listProcesses().find((p) => p.configName === name)!;

/** Resolves with the epoch ms the entry was first seen in `state` (now if it already is). */
function reaches(s: Switchboard, name: string, state: RunState, timeoutMs = 20_000): Promise<number> {
  if (entryOf(s, name).state === state) return Promise.resolve(Date.now());
  return waitForEvent<ControlEvent>(
    s.handle.core.onEvent,
    (e) => e.type === 'processChanged' && e.process.configName === name && e.process.state === state,
    timeoutMs,
  ).then(() => Date.now());
}

interface Listed {
  processes: Array<{ name: string; state: string; message: string; pid?: number }>;
}

const listed = async (c: Client, name: string) => (await callOk<Listed>(c, 'list_processes')).processes.find((p) => p.name === name)!;

/** A real Python HTTP server that starts after 3 s and writes the epoch ms it started listening to api.listening. */
function pythonServer(port: number): string {
  return [
    'import http.server, time',
    'time.sleep(3)',
    `server = http.server.ThreadingHTTPServer(("127.0.0.1", ${port}), http.server.SimpleHTTPRequestHandler)`,
    'open("api.listening", "w").write(str(int(time.time() * 1000)))',
    'print("listening", flush=True)',
    'server.serve_forever()',
  ].join('\n');
}

/** A real Node HTTP server (it does not log the probes it could not answer while stopped). */
function nodeServer(port: number): string {
  return `require('http').createServer((req, res) => res.end('ok')).listen(${port}, '127.0.0.1', () => console.log('listening on http://127.0.0.1:${port}'))`;
}

/** Resolves with how many ms after `delayMs` a timer set now actually fired. */
function timerLateness(delayMs: number): Promise<number> {
  const setAt = Date.now();
  return new Promise((resolve) => setTimeout(() => resolve(Math.max(0, Date.now() - setAt - delayMs)), delayMs));
}

/** Epoch ms written by the process itself (`date +%s%3N`). */
const stamp = (dir: string, file: string) => Number(readFileSync(join(dir, file), 'utf8').trim());

describe('process model through MCP', () => {
  it('a worker with no readiness fields is running within stabilityDelay + 100 ms, never an error', async () => {
    const worker = 'i=0; while true; do i=$((i+1)); echo "processed job $i"; sleep 0.2; done';
    const { sb: s, client: c } = await open({ worker: { command: 'bash', args: ['-c', worker], stabilityDelay: 500, autoStart: false } });
    const states: string[] = [];
    s.handle.core.onEvent((e) => e.type === 'processChanged' && e.process.configName === 'worker' && states.push(e.process.state));
    const running = reaches(s, 'worker', 'running');
    await callOk(c, 'start_process', { process_id: entryOf(s, 'worker').id });
    const startedAt = entryOf(s, 'worker').startedAt!;
    // How late this process's own 500 ms timer fires now: a loaded machine delays the core's alike.
    const timerLateBy = timerLateness(500);
    const runningAt = await running;
    expect(runningAt - startedAt).toBeLessThanOrEqual(500 + 100 + (await timerLateBy));
    expect(runningAt - startedAt).toBeGreaterThanOrEqual(500);
    expect(await listed(c, 'worker')).toMatchObject({ state: 'running', message: NO_READINESS_MESSAGE });
    const status = await callOk<{ state: string; reason: string }>(c, 'get_process_status', { process_id: entryOf(s, 'worker').id });
    expect(status).toMatchObject({ state: 'running', reason: 'up for 500 ms without an error line' });
    expect(await callOk(c, 'check_process_ready', { process_id: entryOf(s, 'worker').id })).toMatchObject({
      ready: false,
      state: 'running',
    });
    expect(states).not.toContain('error');
  });

  it('a migration that exits 0 is completed; one that exits 2 is an error with its last lines', async () => {
    const { sb: s, client: c } = await open({
      migrate: { command: 'bash', args: ['-c', 'echo "applying 0001_initial"; echo "applied 1 migration"'] },
      broken: {
        command: 'bash',
        args: ['-c', 'echo "applying 0002_users"; echo "relation users already exists" >&2; exit 2'],
        oneShot: true,
      },
    });
    await reaches(s, 'migrate', 'completed');
    await reaches(s, 'broken', 'error');
    expect(await listed(c, 'migrate')).toMatchObject({
      state: 'completed',
      message: expect.stringMatching(/^Completed in .+ \(exit code 0\)$/),
    });
    const broken = await callOk<ProcessInfo>(c, 'get_process_status', { process_id: entryOf(s, 'broken').id });
    expect(broken).toMatchObject({ state: 'error', message: 'Exited with code 2' });
    expect(broken.readiness?.logs).toEqual(['applying 0002_users', 'relation users already exists']);
    expect(broken.readiness?.exitCode).toBe(2);
  });

  it('restart_process with wait on a one-shot job waits for it to finish and returns its exit code and last lines', async () => {
    const { sb: s, client: c } = await open({
      seed: { command: 'bash', args: ['-c', 'echo seeding; sleep 1.5; echo "seeded 3 rows"'], oneShot: true, autoStart: false },
    });
    const result = await callOk(c, 'restart_process', { process_id: entryOf(s, 'seed').id, wait_for_ready: true, ready_timeout: 20_000 });
    expect(result).toMatchObject({ success: true, state: 'completed', exit_code: 0, logs: ['seeding', 'seeded 3 rows'] });
    expect((result as { duration_ms: number }).duration_ms).toBeGreaterThanOrEqual(1_500);
  });

  it('web starts only after migrate completed and api (a Python server that starts after 3 s) is ready', async () => {
    const apiPort = await freePort();
    const { sb: s, client: c } = await open({
      web: {
        command: 'bash',
        args: ['-c', 'date +%s%3N > web.started; echo web up; exec sleep 600'],
        dependsOn: { migrate: 'completed', api: 'ready' },
      },
      migrate: { command: 'bash', args: ['-c', 'echo migrating; sleep 1; date +%s%3N > migrate.done'], oneShot: true },
      api: { command: '/usr/bin/python3', args: ['-c', pythonServer(apiPort)], port: apiPort },
    });
    const dir = s.projectDir;
    const web = await listed(c, 'web');
    expect(web.state).toBe('waiting');
    expect(web.message).toMatch(/^waiting for /);
    expect(web.pid).toBeUndefined();
    await reaches(s, 'web', 'running', 30_000);
    const webStarted = stamp(dir, 'web.started');
    expect(webStarted).toBeGreaterThanOrEqual(stamp(dir, 'migrate.done'));
    expect(webStarted).toBeGreaterThanOrEqual(stamp(dir, 'api.listening'));
    expect(stamp(dir, 'api.listening') - stamp(dir, 'migrate.done')).toBeGreaterThan(0); // api was the later one
    expect(await httpStatus(`http://127.0.0.1:${apiPort}/`, 5_000)).toBe(200);
    expect(entryOf(s, 'api').state).toBe('ready');
  });

  it('a dependency that fails keeps its dependents from starting, and they say which and why', async () => {
    const { sb: s, client: c } = await open({
      web: { command: 'bash', args: ['-c', 'date +%s%3N > web.started; exec sleep 600'], dependsOn: { migrate: 'completed' } },
      migrate: { command: 'bash', args: ['-c', 'echo "cannot connect to database"; exit 2'], oneShot: true },
    });
    await reaches(s, 'web', 'error');
    expect(await listed(c, 'web')).toMatchObject({ state: 'error', message: 'Not started: migrate failed (Exited with code 2)' });
    expect(entryOf(s, 'web').runId).toBe(0);
    expect(existsSync(join(s.projectDir, 'web.started'))).toBe(false);
  });

  it('starting one entry by hand starts what it depends on', async () => {
    const { sb: s, client: c } = await open({
      web: { command: 'bash', args: ['-c', 'exec sleep 600'], dependsOn: { cache: 'started' }, autoStart: false },
      cache: { command: 'bash', args: ['-c', 'exec sleep 600'], autoStart: false },
    });
    expect(entryOf(s, 'cache').pid).toBeUndefined();
    await callOk(c, 'start_process', { process_id: entryOf(s, 'web').id });
    await reaches(s, 'web', 'running');
    expect(entryOf(s, 'cache').pid).toBeGreaterThan(0);
  });

  it('a real HTTP server stopped with SIGSTOP after ready turns unhealthy within the threshold, and ready after SIGCONT', async () => {
    const port = await freePort();
    const { sb: s, client: c } = await open({
      api: {
        command: process.execPath,
        args: ['-e', nodeServer(port)],
        port,
        liveness: { period: 300, failureThreshold: 2, timeout: 300 },
      },
    });
    await reaches(s, 'api', 'ready');
    const pid = entryOf(s, 'api').pid!;
    process.kill(pid, 'SIGSTOP');
    const stoppedAt = Date.now();
    try {
      const unhealthyAt = await reaches(s, 'api', 'unhealthy', 10_000);
      // failureThreshold probes, each at most period + timeout apart, plus the wait for the first.
      expect(unhealthyAt - stoppedAt).toBeLessThanOrEqual(2 * (300 + 300) + 300 + LOADED_MACHINE_SLACK_MS);
      expect(await listed(c, 'api')).toMatchObject({
        state: 'unhealthy',
        message: expect.stringMatching(/^Not answering: .*did not answer/),
      });
      expect(await callOk(c, 'check_process_ready', { process_id: entryOf(s, 'api').id })).toMatchObject({
        ready: false,
        state: 'unhealthy',
      });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await reaches(s, 'api', 'ready', 10_000);
    expect(await listed(c, 'api')).toMatchObject({ state: 'ready' });
  });

  it('liveness probes put no line in the request log of a server that logs every request', async () => {
    const port = await freePort();
    // Logs each connection it accepts and each request it gets, as Django, Rails or Next.js log requests.
    const server =
      `const s = require('http').createServer((req, res) => { console.log('request ' + req.method + ' ' + req.url); res.end('ok'); });` +
      `s.on('connection', () => console.log('accepted a connection'));` +
      `s.listen(${port}, '127.0.0.1', () => console.log('listening on http://127.0.0.1:${port}'));`;
    const { sb: s } = await open({
      api: { command: process.execPath, args: ['-e', server], port, liveness: { period: 200, failureThreshold: 3, timeout: 100 } },
    });
    await reaches(s, 'api', 'ready');
    const entry = s.handle.core.entry(entryOf(s, 'api').id);
    // Readiness asked once (the HTTP confirmation of its printed URL, docs/readiness.md; the server's
    // line for it can land just after ready); then three liveness probes, each seen by the server
    // as a connection it accepted, and not one more request.
    const log = await waitForOutput(entry, /request GET \/[\s\S]*(accepted a connection[\s\S]*){3}/, 10_000, entry.runOffset);
    expect(log.match(/request /g)).toHaveLength(1);
    expect(entryOf(s, 'api').state).toBe('ready');
  });

  it('a server with a port that never becomes ready still errors after its timeout', async () => {
    const port = await freePort();
    const { sb: s, client: c } = await open({
      api: { command: 'bash', args: ['-c', 'echo "loading models…"; exec sleep 600'], port, timeout: 2_000 },
    });
    await reaches(s, 'api', 'error', 10_000);
    expect(await listed(c, 'api')).toMatchObject({ state: 'error', message: 'No ready signal after 2 s' });
  });
});
