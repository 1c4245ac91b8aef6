/**
 * Real dev servers under the real session layer, watched by the real ReadinessTracker. Ground
 * truth is the port answering HTTP, polled by the test itself (docs/testing.md): the harness records
 * when the server first answered, independently of the tracker, so a test can check that "ready"
 * was neither premature nor late.
 */
import { Socket, createServer as createTcpServer, type Server } from 'node:net';
import { request } from 'node:http';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SessionManager, type ProcessEntry } from '../../src/main/core/sessions';
import { ReadinessTracker } from '../../src/main/core/ready';
import { stripAnsi } from '../../src/main/core/base';
import type { ReadinessInfo, ReadinessPhase } from '../../src/shared/ready';
import type { ReadinessConfig } from '../../src/shared/readyConfig';

export { freePort } from '../support/ports';

const REPO = resolve(__dirname, '../..');
export const FIXTURES = join(REPO, 'test/fixtures/servers');
export const BIN = join(REPO, 'node_modules/.bin');
/** Debian's python3 (python3-django, -flask, -uvicorn); the PATH one may be another install. */
export const SYSTEM_PYTHON = '/usr/bin/python3';

export function hasPythonModule(module: string): boolean {
  return spawnSync(SYSTEM_PYTHON, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0;
}

/** Holds a port on every address (v4 and v6), as another program would. */
async function holdPort(port: number): Promise<Server> {
  const server = createTcpServer((socket) => socket.destroy());
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen({ port, host: '::', ipv6Only: false }, done);
  });
  return server;
}

/** One HTTP GET; resolves with the status, or undefined when nothing answers. */
export function httpStatus(url: string, timeoutMs = 30_000): Promise<number | undefined> {
  return new Promise((done) => {
    const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      done(res.statusCode);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(undefined));
    req.end();
  });
}

/**
 * The test's own view of "ready": polls http://127.0.0.1:PORT (and ::1) every 25 ms from the moment
 * it is created, and remembers when a connection was first accepted. It opens TCP connections
 * only (no request), so it never triggers work in the server under test.
 */
class PortWatcher {
  firstOpenAt: number | undefined;
  /** Start time of the last probe that found the port closed: it was still closed after this. */
  lastClosedAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private isDisposed = false;
  private readonly openWaiters: Array<() => void> = [];

  constructor(private readonly port: number) {
    this.tick();
  }

  /** Resolves once a connection was accepted (or rejects after `timeoutMs`). */
  opened(timeoutMs = 30_000): Promise<number> {
    if (this.firstOpenAt !== undefined) return Promise.resolve(this.firstOpenAt);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`port ${this.port} never accepted a connection within ${timeoutMs} ms`)), timeoutMs);
      this.openWaiters.push(() => {
        clearTimeout(timer);
        resolve(this.firstOpenAt!);
      });
    });
  }

  private tick(): void {
    if (this.isDisposed || this.firstOpenAt !== undefined) return;
    const probeStartedAt = Date.now();
    void Promise.all(['127.0.0.1', '::1'].map((host) => tcpAccepts(host, this.port))).then((open) => {
      if (open.some(Boolean)) {
        this.firstOpenAt ??= Date.now();
        for (const wake of this.openWaiters.splice(0)) wake();
        return;
      }
      this.lastClosedAt = Math.max(this.lastClosedAt ?? 0, probeStartedAt);
      if (!this.isDisposed) this.timer = setTimeout(() => this.tick(), 25);
    });
  }

  dispose(): void {
    this.isDisposed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}

function tcpAccepts(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const client = new Socket();
    const finish = (isOpen: boolean) => {
      client.destroy();
      done(isOpen);
    };
    client.setTimeout(500);
    client.once('connect', () => finish(true));
    client.once('timeout', () => finish(false));
    client.once('error', () => finish(false));
    client.connect(port, host);
  });
}

export interface StartedServer {
  entry: ProcessEntry;
  tracker: ReadinessTracker;
  /** Every phase the tracker went through, with the time it was entered (and, for a ready that settled, when). */
  phases: Array<{ phase: ReadinessPhase; at: number; message: string; settledAt?: number }>;
  startedAt: number;
  /** When output matching `pattern` (escape sequences removed) first arrived. */
  firstOutputAt(pattern: RegExp): number | undefined;
  /** When output matching `pattern` arrived: at once if it has, else on the output that brings it. */
  outputSeen(pattern: RegExp): Promise<number>;
}

/**
 * What every normal start checks once ready: "ready" never came while the port was still closed
 * (the last probe that found it closed started earlier). Returns the start's timings: when the
 * port opened, when the `readyLine` was printed, when "ready" came, and its lag behind both.
 */
export async function expectReadyAfterPortOpened(server: StartedServer, watcher: PortWatcher, readyLine: RegExp): Promise<TimingRow> {
  const readyAt = server.tracker.info.readyAt!;
  const portOpenAt = await watcher.opened();
  expect(readyAt).toBeGreaterThanOrEqual(watcher.lastClosedAt ?? 0);
  const lineAt = server.firstOutputAt(readyLine)!;
  return {
    portOpen: portOpenAt - server.startedAt,
    readyLine: lineAt - server.startedAt,
    ready: readyAt - server.startedAt,
    latency: readyAt - Math.max(lineAt, portOpenAt),
  };
}

/** Owns the session manager, trackers, held ports and temp dirs of one test file. */
class ReadyHarness {
  readonly sessions = new SessionManager({ killGraceMs: 2_000 });
  private readonly trackers: ReadinessTracker[] = [];
  private readonly held: Server[] = [];
  private readonly dirs: string[] = [];
  private readonly watchers: PortWatcher[] = [];

  async start(options: {
    name: string;
    argv: string[];
    cwd: string;
    env?: Record<string, string>;
    ready?: Partial<ReadinessConfig>;
  }): Promise<StartedServer> {
    const entry = this.sessions.create({ name: options.name, kind: 'command', argv: options.argv, cwd: options.cwd, env: options.env });
    const tracker = new ReadinessTracker(entry, options.ready, options.cwd, { isStopRequested: () => entry.state === 'stopped' });
    this.trackers.push(tracker);
    const phases: StartedServer['phases'] = [];
    tracker.onDidChange((info: ReadinessInfo) => {
      const last = phases.at(-1);
      if (last?.phase !== info.phase) phases.push({ phase: info.phase, at: Date.now(), message: info.message });
      const entered = phases.at(-1)!;
      if (info.phase === 'ready' && info.settling !== true) entered.settledAt ??= Date.now();
    });
    const chunks: Array<{ at: number; text: string }> = [];
    entry.onDidWriteOutput((chunk) => chunks.push({ at: Date.now(), text: stripAnsi(chunk.text) }));
    const firstOutputAt = (pattern: RegExp) => {
      let text = '';
      for (const chunk of chunks) {
        text += chunk.text;
        if (pattern.test(text)) return chunk.at;
      }
      return undefined;
    };
    const outputSeen = (pattern: RegExp) =>
      new Promise<number>((resolve) => {
        const check = () => {
          const at = firstOutputAt(pattern);
          if (at === undefined) return false;
          resolve(at);
          return true;
        };
        if (check()) return;
        const listener = entry.onDidWriteOutput(() => check() && listener.dispose());
      });
    const startedAt = Date.now();
    await entry.start();
    return { entry, tracker, phases, startedAt, firstOutputAt, outputSeen };
  }

  watchPort(port: number): PortWatcher {
    const watcher = new PortWatcher(port);
    this.watchers.push(watcher);
    return watcher;
  }

  async holdPort(port: number): Promise<Server> {
    const server = await holdPort(port);
    this.held.push(server);
    return server;
  }

  tempDir(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  /** A directory to delete at the end (build output written inside a fixture). */
  removeLater(dir: string): void {
    this.dirs.push(dir);
  }

  async dispose(): Promise<void> {
    this.watchers.forEach((w) => w.dispose());
    this.trackers.forEach((t) => t.dispose());
    await this.sessions.dispose();
    await Promise.all(this.held.map((s) => new Promise((done) => s.close(done))));
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** One row of an e2e file's timing report (`test` names the case, the rest are ms). */
type TimingRow = Record<string, string | number | undefined>;

/**
 * Registers one e2e file's hooks: a fresh {@link ReadyHarness} per test, disposed after it, and
 * the timings printed under `title` once the file is done. `harness()` is the current test's.
 */
export function useReadyHarness(title: string): { harness: () => ReadyHarness; timings: TimingRow[] } {
  let current: ReadyHarness | undefined;
  beforeEach(() => {
    current = new ReadyHarness();
  });
  afterEach(async () => {
    await current?.dispose();
  });
  const timings: TimingRow[] = [];
  afterAll(() => reportTimings(title, timings));
  const harness = (): ReadyHarness => {
    if (!current) throw new Error('useReadyHarness: the harness exists only inside a test');
    return current;
  };
  return { harness, timings };
}

/** Timings collected by the e2e files, printed once per file for the report. */
function reportTimings(title: string, rows: TimingRow[]): void {
  if (rows.length === 0) return;
  console.log(
    `\n${title}\n${rows
      .map(
        (r) =>
          '  ' +
          Object.entries(r)
            .map(([k, v]) => `${k}=${v}`)
            .join('  '),
      )
      .join('\n')}`,
  );
}

/**
 * The tracker's info once it enters `phase`. An entry without readiness fields is `running` after
 * stabilityDelay (tsc may load for longer than that) and switches when the watcher speaks.
 */
export function phaseReached(tracker: ReadinessTracker, phase: ReadinessPhase): Promise<ReadinessInfo> {
  if (tracker.info.phase === phase) return Promise.resolve(tracker.info);
  return new Promise((resolve) => {
    const listener = tracker.onDidChange((info) => {
      if (info.phase !== phase) return;
      listener.dispose();
      resolve(info);
    });
  });
}
