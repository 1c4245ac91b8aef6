/**
 * The decision rules of docs/readiness.md, one test each, through the tracker with a fake session, fake
 * probes and fake timers: the test owns the clock, the output and what answers on which port.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReadinessConfig } from '../../../shared/readyConfig';
import type { ReadinessInfo, ReadinessProgress, ReadinessResult } from '../../../shared/ready';
import { DEFAULT_STABILITY_DELAY_MS } from './readyConfig';
import { ReadinessTracker } from './readinessTracker';
import { FakeSession } from './testing/fakeSession';

interface Setup {
  session: FakeSession;
  tracker: ReadinessTracker;
  /** Ports accepting TCP connections. */
  open: Set<number>;
  /** Ports the entry's own tree listens on. */
  owned: Set<number>;
  phases: string[];
  httpStatus: { value: number };
  mute: Set<number>;
  /** Awaited before each HTTP answer: the server's work on the request (a compile) goes here. */
  onHttpRequest: { handle?: (port: number) => Promise<void> };
}

const trackers: ReadinessTracker[] = [];

function setup(config: Partial<ReadinessConfig> = {}, argv: string[] = ['node', 'server.js']): Setup {
  const session = new FakeSession(argv);
  const open = new Set<number>();
  const owned = new Set<number>();
  const httpStatus = { value: 0 };
  /** Ports that accept TCP connections but never answer HTTP (bound, then stuck or dying). */
  const mute = new Set<number>();
  const onHttpRequest: Setup['onHttpRequest'] = {};
  const tracker = new ReadinessTracker(session, config, undefined, {
    probeTcp: async ({ port }) => open.has(port),
    // The `url` field's answer is set by the test; otherwise an open port answers HTTP unless it is mute.
    probeHttp: async ({ url }) => {
      if (httpStatus.value > 0)
        return httpStatus.value < 500 ? { isOk: true, status: httpStatus.value } : { isOk: false, error: 'ECONNREFUSED' };
      const port = Number(new URL(url).port);
      await onHttpRequest.handle?.(port);
      if (mute.has(port)) return { isOk: false, error: 'timeout' };
      return open.has(port) ? { isOk: true, status: 200 } : { isOk: false, error: 'ECONNREFUSED' };
    },
    listPorts: async () => [...owned].sort((a, b) => a - b),
    canTellPortOwner: true,
  });
  trackers.push(tracker);
  const phases: string[] = [];
  tracker.onDidChange((info: ReadinessInfo) => {
    if (phases[phases.length - 1] !== info.phase) phases.push(info.phase);
  });
  return { session, tracker, open, owned, phases, httpStatus, mute, onHttpRequest };
}

/** Opens a port as the entry's own server would: it accepts connections and the tree owns it. */
function listenAs(s: Setup, port: number): void {
  s.open.add(port);
  s.owned.add(port);
}

const tick = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  trackers.splice(0).forEach((t) => t.dispose());
  vi.useRealTimers();
});

describe('decision rules (docs/readiness.md)', () => {
  it("an HTTP framework's ready line needs an HTTP answer from its port, not a TCP accept alone", async () => {
    const s = setup({}, ['next', 'dev']);
    s.session.start();
    listenAs(s, 3000);
    s.mute.add(3000); // bound, but the server is stuck loading its config
    s.session.print('   - Local:        http://localhost:3000\n ✓ Ready in 1163ms\n');
    await tick(5_000);
    expect(s.tracker.info.phase).toBe('starting');
    s.mute.delete(3000);
    await tick(200);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', message: 'Next.js ready on http://localhost:3000' });
    expect(s.tracker.info.reason).toContain('answers HTTP');
  });

  it('Next.js compiling the page the HTTP probe asked for is ready while it compiles, even past the start timeout', async () => {
    // Liveness off: this fake port has no accept queue to read, and the point is the start timeout.
    const s = setup({ liveness: false }, ['next', 'dev']);
    s.session.start();
    listenAs(s, 3000);
    // next dev 16 on a loaded machine: the probe's GET compiles the page ("○ Compiling / ..."),
    // which takes longer than the start timeout, and the answer is logged as "GET / 200".
    let answer: () => void = () => undefined;
    s.onHttpRequest.handle = () => {
      s.onHttpRequest.handle = undefined;
      s.session.print('○ Compiling / ...\n');
      return new Promise<void>((resolve) => (answer = resolve));
    };
    s.session.print('   - Local:        http://localhost:3000\n ✓ Ready in 1949ms\n');
    await tick(1_000);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', message: 'Next.js ready on http://localhost:3000' });
    expect(s.tracker.info.reason).toBe('pattern nextjs-ready + port 3000 compiling the request it took');
    await tick(40_000);
    s.session.print(' GET / 200 in 39000ms (next.js: 882ms, application-code: 38117ms)\n');
    answer();
    await tick(1_000);
    expect(s.phases).toEqual(['starting', 'ready']);
  });

  it('a ready line whose port took our HTTP request but never answers: still starting past portTimeout, an error at the start timeout that says so', async () => {
    const s = setup({ liveness: false }, ['next', 'dev']);
    s.session.start();
    listenAs(s, 3000);
    s.onHttpRequest.handle = () => new Promise<void>(() => undefined); // accepted, never answered
    s.session.print('   - Local:        http://localhost:3000\n ✓ Ready in 8.6s\n');
    await tick(15_000);
    expect(s.tracker.info.phase).toBe('starting');
    await tick(16_000);
    expect(s.tracker.info).toMatchObject({
      phase: 'error',
      message: 'Ready line seen; port 3000 took a connection but has not answered HTTP after 30 s',
    });
  });

  it('a compile line before the request is answered, with no request of ours open, still waits for its end', async () => {
    const s = setup({}, ['next', 'dev']);
    s.session.start();
    listenAs(s, 3000);
    s.mute.add(3000);
    s.session.print('   - Local:        http://localhost:3000\n ✓ Ready in 1949ms\n');
    await tick(2_000);
    s.session.print('○ Compiling / ...\n');
    s.mute.delete(3000);
    await tick(5_000);
    expect(s.tracker.info.phase).toBe('starting');
    s.session.print(' ✓ Compiled / in 2.3s\n');
    await tick(3_000);
    expect(s.tracker.info.phase).toBe('ready');
  });

  it('a compile line with no HTTP answer through it still waits for its end', async () => {
    const s = setup({}, ['next', 'dev']);
    s.session.start();
    listenAs(s, 3000);
    s.session.print('   - Local:        http://localhost:3000\n');
    s.mute.add(3000);
    s.session.print(' ✓ Ready in 1949ms\n○ Compiling / ...\n');
    await tick(5_000);
    expect(s.tracker.info.phase).toBe('starting');
    s.session.print(' ✓ Compiled / in 2.3s\n');
    s.mute.delete(3000);
    await tick(3_000);
    expect(s.tracker.info.phase).toBe('ready');
  });

  it.each([
    ['after', '  ➜  Local:   http://localhost:5173/\n', '  ➜  APP_URL: http://localhost:8000\n'],
    ['before', '  ➜  APP_URL: http://localhost:8000\n', '  ➜  Local:   http://localhost:5173/\n'],
  ])('a second URL on a port that never opens, printed %s the real one, is not the server', async (_order, first, second) => {
    const s = setup({}, ['vite']);
    s.session.start();
    s.session.print('  VITE v8.3.8  ready in 2119 ms\n\n');
    s.session.print(first);
    s.session.print(second);
    listenAs(s, 5173);
    await tick(5_000);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', port: 5173, message: 'Vite ready on http://localhost:5173' });
  });

  it('a generic server: an admin URL on a port that never opens, before its own, is not where it is ready', async () => {
    const s = setup({}, ['node', 'server.js']);
    s.session.start();
    s.session.print('Admin panel: http://localhost:8000/admin\nServer listening on http://localhost:3000\n');
    listenAs(s, 3000);
    await tick(5_000);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', port: 3000 });
  });

  it('ready line + port open → ready at once, without the stability delay', async () => {
    const s = setup({ stabilityDelay: 5_000 });
    s.session.start();
    listenAs(s, 5173);
    s.session.print('  VITE v7.3.8  ready in 300 ms\r\n\r\n  ➜  Local:   http://localhost:5173/\r\n');
    await tick(50);
    expect(s.tracker.info).toMatchObject({
      phase: 'ready',
      message: 'Vite ready on http://localhost:5173',
      port: 5173,
      url: 'http://localhost:5173',
    });
    expect(s.tracker.info.reason).toMatch(/pattern vite-ready \+ port 5173 answers HTTP/);
  });

  it('ready line, no port known → ready after stabilityDelay, not before', async () => {
    const s = setup({ stabilityDelay: 1_000 }, ['npx', 'convex', 'dev']);
    s.session.start();
    s.session.print('✔ 12:00:00 Convex functions ready! (1.23s)\n');
    await tick(999);
    expect(s.tracker.info.phase).toBe('starting');
    await tick(1);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', message: 'Convex ready' });
    expect(s.tracker.info.reason).toMatch(/no port known, stable for 1000 ms/);
  });

  it('configured port open, no ready line → ready after stabilityDelay', async () => {
    const s = setup({ port: 8080, stabilityDelay: 1_000 }, ['./start.sh']);
    s.session.start();
    await tick(300);
    listenAs(s, 8080);
    await tick(150); // the next probe sees it
    expect(s.tracker.info.phase).toBe('starting');
    await tick(1_000);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', port: 8080, message: 'Server ready on http://localhost:8080' });
  });

  it('nothing configured: running once stable; the tree starts listening → readiness from there, ready on that port', async () => {
    const s = setup({ stabilityDelay: 500 }, ['./start.sh']);
    s.session.start();
    s.session.print('booting…\n');
    await tick(1_000);
    expect(s.tracker.info.phase).toBe('running');
    listenAs(s, 4567);
    await tick(2_000); // next tree scan (steady cadence once running)
    await tick(500);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', port: 4567 });
    expect(s.phases).toEqual(['starting', 'running', 'starting', 'ready']);
  });

  it('exit during start → error at once with the exit code and the last lines', async () => {
    const s = setup({ timeout: 30_000 });
    s.session.start();
    s.session.print('loading config\nsomething went wrong\n');
    s.session.exit(1);
    expect(s.tracker.info).toMatchObject({ phase: 'error', message: 'Exited with code 1 during start', exitCode: 1 });
    expect(s.tracker.info.logs).toEqual(['loading config', 'something went wrong']);
  });

  it('an exit killed by a crash signal during start names the signal', async () => {
    const s = setup({ timeout: 30_000 });
    s.session.start();
    s.session.exit(0, 11);
    expect(s.tracker.info).toMatchObject({ phase: 'error', message: 'Killed by SIGSEGV during start' });
  });

  it('error line → error at once; a later ready line (the server fixed itself) → ready', async () => {
    const s = setup({ stabilityDelay: 200 }, ['python3', 'manage.py', 'runserver']);
    s.session.start();
    s.session.print('Traceback (most recent call last):\n  File "x.py", line 1\nSyntaxError: invalid syntax\n');
    expect(s.tracker.info).toMatchObject({ phase: 'error', message: 'SyntaxError: invalid syntax' });
    listenAs(s, 8000);
    s.session.print('Starting development server at http://127.0.0.1:8000/\n');
    await tick(50);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', message: 'Django ready on http://127.0.0.1:8000' });
  });

  it('timeout → error with the last lines; the process is left running', async () => {
    const s = setup({ timeout: 30_000 });
    s.session.start();
    s.session.print('still compiling…\n');
    await tick(29_999);
    expect(s.tracker.info.phase).toBe('starting');
    await tick(1);
    expect(s.tracker.info).toMatchObject({ phase: 'error', message: 'No ready signal after 30 s', logs: ['still compiling…'] });
    expect(s.session.isRunning).toBe(true);
  });

  it('ready line but its port never opens → error after portTimeout', async () => {
    const s = setup({ port: 3000, portTimeout: 2_000 });
    s.session.start();
    s.session.print('Example app listening on port 3000\n');
    await tick(1_999);
    expect(s.tracker.info.phase).toBe('starting');
    await tick(1);
    expect(s.tracker.info).toMatchObject({
      phase: 'error',
      message: 'Node server printed its ready line, but port 3000 is not accepting connections after 2 s',
    });
  });

  it('only the current run counts: a late chunk of the previous run is ignored after a restart', async () => {
    const s = setup({ stabilityDelay: 100, timeout: 30_000 });
    s.session.start();
    s.session.exit(143); // stopped by restart
    s.session.start();
    s.session.print('Example app listening on port 3000\n', 1); // run 1's buffer arriving late
    await tick(1_000);
    expect(s.tracker.info).toMatchObject({ phase: 'starting', runId: 2 });
  });

  it('a warning that mentions an error word does not fail a healthy start', async () => {
    const s = setup({}, ['next', 'dev']);
    s.session.start();
    listenAs(s, 3000);
    s.session.print(
      [
        '(node:4242) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.',
        '⚠ ./node_modules/node-fetch/lib/index.js',
        "Module not found: Can't resolve 'encoding' in '/app/node_modules/node-fetch/lib'",
        '',
        '- Local:        http://localhost:3000',
        ' ✓ Ready in 1.2s',
        '',
      ].join('\n'),
    );
    await tick(50);
    expect(s.phases).toEqual(['starting', 'ready']);
  });

  it('follows Vite to the next port when the configured one is taken by someone else', async () => {
    const s = setup({ port: 5173 }, ['vite']);
    s.open.add(5173); // another process
    s.session.start();
    s.session.print('Port 5173 is in use, trying another one...\n');
    listenAs(s, 5174);
    s.session.print('\n  VITE v7.3.8  ready in 400 ms\n\n  ➜  Local:   http://localhost:5174/\n');
    await tick(50);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', port: 5174, message: 'Vite ready on http://localhost:5174' });
  });

  it('follows Next.js "trying 3001 instead" even with port 3000 configured', async () => {
    const s = setup({ port: 3000 }, ['next', 'dev']);
    s.open.add(3000);
    s.session.start();
    s.session.print(' ⚠ Port 3000 is in use, trying 3001 instead.\n');
    listenAs(s, 3001);
    s.session.print(' ✓ Ready in 900ms\n');
    await tick(50);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', port: 3001, message: 'Next.js ready on http://localhost:3001' });
  });

  it("someone else's server on the configured port does not make a failing start ready", async () => {
    // Django prints its ready line just before binding; the port answers — but it is not ours.
    const s = setup({ port: 8000, stabilityDelay: 1_000 }, ['python3', 'manage.py', 'runserver']);
    s.open.add(8000);
    s.session.start();
    await tick(300); // a scan has run: 8000 is not in the tree
    s.session.print('Starting development server at http://127.0.0.1:8000/\nQuit the server with CONTROL-C.\n');
    await tick(20);
    expect(s.tracker.info.phase).toBe('starting');
    s.session.print('Error: That port is already in use.\n');
    expect(s.tracker.info).toMatchObject({ phase: 'error', message: 'Port 8000 already in use' });
  });

  it("someone else's server on the configured port, and a slow start: never ready on their port", async () => {
    const s = setup({ port: 8000, stabilityDelay: 1_000, timeout: 10_000 }, ['python3', 'manage.py', 'runserver']);
    s.open.add(8000); // another program, not in the tree
    s.session.start();
    await tick(5_000); // Python takes its time to print anything
    expect(s.tracker.info.phase).toBe('starting');
    s.session.print('Error: That port is already in use.\n');
    expect(s.tracker.info).toMatchObject({ phase: 'error', message: 'Port 8000 already in use' });
  });

  it('a port nobody can attribute (no tree scans on this platform) counts after the stability delay', async () => {
    const session = new FakeSession(['./start.sh']);
    const tracker = new ReadinessTracker(session, { port: 9000, stabilityDelay: 500 }, undefined, {
      probeTcp: async ({ port }) => port === 9000,
      listPorts: async () => [],
      canTellPortOwner: false,
    });
    trackers.push(tracker);
    session.start();
    await tick(499);
    expect(tracker.info.phase).toBe('starting');
    await tick(150);
    expect(tracker.info).toMatchObject({ phase: 'ready', port: 9000 });
  });

  it('a URL printed before the server listens is not ready until the port opens', async () => {
    const s = setup({ stabilityDelay: 500, timeout: 30_000 });
    s.session.start();
    s.session.print('Will listen on http://localhost:4000 once warmed up\n');
    await tick(5_000);
    expect(s.tracker.info.phase).toBe('starting');
    listenAs(s, 4000);
    await tick(400);
    await tick(500);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', port: 4000 });
  });

  it('with `url`, the HTTP answer is what counts (5xx is not ready)', async () => {
    const s = setup({ url: 'http://localhost:3000/health', stabilityDelay: 0 }, ['next', 'dev']);
    s.session.start();
    s.httpStatus.value = 500;
    s.session.print(' ✓ Ready in 900ms\n');
    await tick(1_000);
    expect(s.tracker.info.phase).toBe('starting');
    s.httpStatus.value = 200;
    await tick(150);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', url: 'http://localhost:3000/health' });
  });

  it('custom patterns: an error pattern beats a ready pattern on the same line', async () => {
    const s = setup({ readyPatterns: ['Server initialized'], errorPatterns: ['Failed to start'], stabilityDelay: 0 }, ['./start.sh']);
    s.session.start();
    s.session.print('Failed to start: Server initialized twice\n');
    expect(s.tracker.info).toMatchObject({ phase: 'error', message: 'Failed to start: Server initialized twice' });
  });

  it('custom ready pattern → ready (after the stability delay when no port is known)', async () => {
    const s = setup({ readyPatterns: ['/worker (\\d+) online/i'], stabilityDelay: 300 }, ['./start.sh']);
    s.session.start();
    s.session.print('Worker 3 ONLINE\n');
    await tick(300);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', message: 'Server ready' });
  });
});

describe('after ready', () => {
  async function readyVite(): Promise<Setup> {
    const s = setup({}, ['vite']);
    s.session.start();
    listenAs(s, 5173);
    s.session.print('  VITE v7.3.8  ready in 300 ms\n  ➜  Local:   http://localhost:5173/\n');
    await tick(50);
    expect(s.tracker.info.phase).toBe('ready');
    return s;
  }

  it('an error line means up but failing: running, until a ready line again', async () => {
    const s = await readyVite();
    await tick(1_000); // past the settle window: a later error is the server reporting a failure
    s.session.print('12:01:02 PM [vite] Internal server error: Transform failed with 1 error:\n');
    expect(s.tracker.info).toMatchObject({ phase: 'running', message: 'Vite: Transform failed with 1 error:' });
    s.session.print('12:01:09 PM [vite] (client) hmr update /src/App.tsx\n');
    expect(s.tracker.info).toMatchObject({ phase: 'ready', message: 'Vite ready on http://localhost:5173' });
  });

  it('an error line within the settle window after ready means the ready line was premature: error, with that line', async () => {
    const s = await readyVite();
    s.session.print('error when starting dev server:\nError: listen EADDRINUSE: address already in use 127.0.0.1:5173\n');
    expect(s.tracker.info).toMatchObject({ phase: 'error', message: 'Port 5173 already in use' });
  });

  it('a flood of log lines after ready is classified within a budget, and still reaches the logs', async () => {
    const s = await readyVite();
    for (let chunk = 0; chunk < 12; chunk++) {
      s.session.print(Array.from({ length: 200 }, (_, i) => ` GET /api/item/${chunk * 200 + i} 200 in 1ms\n`).join(''));
    }
    expect(s.tracker.info.phase).toBe('ready');
    s.session.print('12:01:02 PM [vite] Internal server error: after the flood\n');
    // The budget of this second is spent: the error line is not classified until the next one.
    expect(s.tracker.info.phase).toBe('ready');
    await tick(1_000);
    s.session.print('12:01:03 PM [vite] Internal server error: still failing\n');
    expect(s.tracker.info).toMatchObject({ phase: 'running', message: 'Vite: still failing' });
    expect(s.tracker.info.logs).toContain('12:01:02 PM [vite] Internal server error: after the flood');
  });

  it('a crash → error with the exit code', async () => {
    const s = await readyVite();
    s.session.exit(1);
    expect(s.tracker.info).toMatchObject({ phase: 'error', message: 'Exited with code 1', exitCode: 1 });
  });

  it('a clean exit → stopped', async () => {
    const s = await readyVite();
    s.session.exit(0);
    expect(s.tracker.info).toMatchObject({ phase: 'stopped', message: 'Exited with code 0' });
  });

  it('a requested stop (SIGTERM) → stopped, not error', async () => {
    const s = await readyVite();
    s.session.exit(0, 15);
    expect(s.tracker.info).toMatchObject({ phase: 'stopped', message: 'Stopped' });
  });

  it('a restart starts over: starting, then ready again on its own signals', async () => {
    const s = await readyVite();
    s.session.exit(143);
    s.session.start();
    expect(s.tracker.info).toMatchObject({ phase: 'starting', runId: 2, message: 'Starting Vite…' });
    s.session.print('  VITE v7.3.8  ready in 280 ms\n  ➜  Local:   http://localhost:5173/\n');
    await tick(50);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', runId: 2 });
  });
});

describe('waitForReady / check', () => {
  it('resolves success with the url, port and duration', async () => {
    const s = setup({}, ['vite']);
    s.session.start();
    const waiting = s.tracker.waitForReady(10_000);
    await tick(700);
    listenAs(s, 5173);
    s.session.print('  VITE v7.3.8  ready in 700 ms\n  ➜  Local:   http://localhost:5173/\n');
    await tick(10);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', settling: true });
    await tick(DEFAULT_STABILITY_DELAY_MS); // the settle window passes quietly
    expect(await waiting).toEqual({
      success: true,
      state: 'ready',
      message: 'Vite ready on http://localhost:5173',
      duration_ms: 700,
      url: 'http://localhost:5173',
      port: 5173,
    });
    expect(s.tracker.check()).toEqual({
      ready: true,
      state: 'ready',
      message: 'Vite ready on http://localhost:5173',
      url: 'http://localhost:5173',
      port: 5173,
    });
  });

  it('answers only once the settle window passed: a ready line overturned by an error line in it is a failure', async () => {
    const s = setup({}, ['next', 'dev']);
    s.session.start();
    let answer: ReadinessResult | undefined;
    void s.tracker.waitForReady(10_000).then((result) => (answer = result));
    listenAs(s, 3000);
    s.session.print('   ▲ Next.js 16.0.0\n   - Local:        http://localhost:3000\n ✓ Ready in 1200ms\n');
    await tick(200);
    expect(s.tracker.info.phase).toBe('ready');
    expect(answer).toBeUndefined(); // "✓ Ready" can still be premature
    s.session.print(' ⨯ Failed to load next.config.mjs, see more info here https://nextjs.org/docs/messages/next-config-error\n');
    await tick(DEFAULT_STABILITY_DELAY_MS);
    expect(answer).toMatchObject({ success: false, state: 'error' });
    expect(answer?.message).toContain('next.config.mjs');
  });

  it('its own timeout: failure, still starting, with the last lines; the process keeps running', async () => {
    const s = setup({ timeout: 60_000 });
    s.session.start();
    s.session.print('waiting for database…\n');
    const waiting = s.tracker.waitForReady(5_000);
    await tick(5_000);
    expect(await waiting).toMatchObject({
      success: false,
      state: 'starting',
      message: 'No ready signal after 5 s',
      logs: ['waiting for database…'],
    });
    expect(s.session.isRunning).toBe(true);
  });

  it('reports progress while waiting, and honours an abort', async () => {
    const s = setup({ timeout: 30_000 });
    s.session.start();
    const progress: ReadinessProgress[] = [];
    const controller = new AbortController();
    const waiting = s.tracker.waitForReady(30_000, controller.signal, (p) => progress.push(p));
    await tick(2_500);
    expect(progress.map((p) => p.elapsed_ms)).toEqual([1_000, 2_000]);
    expect(progress[0]).toMatchObject({ state: 'starting' });
    controller.abort();
    expect(await waiting).toMatchObject({ success: false, message: 'Readiness wait cancelled' });
    await tick(5_000);
    expect(progress).toHaveLength(2); // no progress after the wait ended
  });

  it('with runId, ignores the previous run (called before a restart has begun)', async () => {
    const s = setup({ stabilityDelay: 0 });
    s.session.start();
    s.session.exit(1); // run 1 failed
    const waiting = s.tracker.waitForReady(10_000, undefined, undefined, { runId: 2 });
    await tick(10);
    s.session.start();
    s.session.print('Example app listening on port 3000\n');
    listenAs(s, 3000);
    await tick(200);
    expect(await waiting).toMatchObject({ success: true, state: 'ready', port: 3000 });
  });

  it('a wait on an entry that is not running fails at once', async () => {
    const s = setup();
    expect(await s.tracker.waitForReady(10_000)).toMatchObject({ success: false, state: 'stopped', message: 'Not running' });
  });

  it('dispose resolves pending waits and leaves no timer behind', async () => {
    const s = setup();
    s.session.start();
    const waiting = s.tracker.waitForReady(30_000, undefined, () => undefined);
    s.tracker.dispose();
    expect(await waiting).toMatchObject({ success: false, message: 'Process closed' });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('ports', () => {
  it('lists the current run’s sightings and the tree’s listening ports; a new run starts empty', async () => {
    const s = setup({}, ['vite']);
    s.session.start();
    listenAs(s, 5173);
    s.session.print('  ➜  Local:   http://localhost:5173/\n  ➜  Network: http://192.168.1.4:5173/\n');
    await tick(300);
    expect(s.tracker.ports.sightings.map((x) => x.url)).toEqual(['http://localhost:5173/', 'http://192.168.1.4:5173/']);
    expect(s.tracker.ports.listening).toEqual([5173]);
    s.session.exit(143);
    s.owned.clear();
    s.session.start();
    expect(s.tracker.ports).toEqual({ sightings: [], listening: [] });
  });
});

describe('watchers', () => {
  it('a line the tool prints after a failed build too does not make it ready; the next clean build does', async () => {
    const s = setup({}, ['esbuild', 'src/app.ts', '--bundle', '--watch']);
    s.session.start();
    s.session.print('✘ [ERROR] Expected identifier but found "="\n1 error\n[watch] build finished, watching for changes...\n');
    await tick(DEFAULT_STABILITY_DELAY_MS * 3);
    expect(s.tracker.info.phase).toBe('error');
    s.session.print('[watch] build started (change: "src/app.ts")\n[watch] build finished\n');
    await tick(DEFAULT_STABILITY_DELAY_MS * 2);
    expect(s.tracker.info.phase).toBe('ready');
    expect(s.phases).not.toContain('running');
  });

  it('an entry without readiness fields that only printed build lines and exits 0 is a completed job', async () => {
    const s = setup({}, ['rollup', '-c']);
    s.session.start();
    s.session.print('created dist/b.js in 186ms\n');
    await tick(50);
    s.session.exit(0);
    await tick();
    expect(s.tracker.info.phase).toBe('completed');
    expect(s.phases).not.toContain('error');
  });

  it('once a server signal follows the build lines, an exit 0 during start is a failed start again', async () => {
    const s = setup({}, ['npm', 'run', 'dev']);
    s.session.start();
    s.session.print('created dist/b.js in 186ms\n');
    s.session.print('Server listening on http://localhost:4321\n');
    await tick(50);
    s.session.exit(0);
    await tick();
    expect(s.tracker.info.phase).toBe('error');
    expect(s.tracker.info.message).toBe('Exited with code 0 during start');
  });
});
