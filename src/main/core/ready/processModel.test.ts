/**
 * Not every command is a server: workers are `running` without a readiness check, one-shot jobs
 * end `completed`, and a ready server whose probes fail turns `unhealthy` and back. Fake session,
 * fake probes, fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReadinessConfig } from '../../../shared/readyConfig';
import type { ReadinessInfo } from '../../../shared/ready';
import type { HttpProbeResult } from '../ports';
import { ReadinessTracker } from './readinessTracker';
import { LivenessScheduler } from './livenessProbes';
import { NO_READINESS_MESSAGE } from './readinessMachine';
import { FakeSession } from './testing/fakeSession';
import { LineClassifier } from './lineClassifier';
import { FRAMEWORK_PATTERNS } from './frameworkPatterns';

const trackers: ReadinessTracker[] = [];
const tick = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  trackers.splice(0).forEach((t) => t.dispose());
  vi.useRealTimers();
});

function setup(
  config: Partial<ReadinessConfig> = {},
  argv: string[] = ['bash', '-c', 'while true; do echo "processed job"; sleep 1; done'],
) {
  const session = new FakeSession(argv);
  const owned = new Set<number>();
  /** tcp: connects succeed; queued: connections the process leaves unaccepted (1 once SIGSTOPped). */
  const answering = { tcp: true, queued: 0 };
  const liveness = new LivenessScheduler({
    probeHttp: async (): Promise<HttpProbeResult> => ({ isOk: false, error: 'not asked: no url' }),
    probeTcp: async () => answering.tcp,
    acceptQueueLength: async () => answering.queued,
  });
  const tracker = new ReadinessTracker(session, config, undefined, {
    probeTcp: async ({ port }) => owned.has(port),
    probeHttp: async () => ({ isOk: true, status: 200 }),
    listPorts: async () => [...owned],
    canTellPortOwner: true,
    liveness,
  });
  trackers.push(tracker);
  const phases: string[] = [];
  tracker.onDidChange((info: ReadinessInfo) => {
    if (phases[phases.length - 1] !== info.phase) phases.push(info.phase);
  });
  return { session, tracker, owned, answering, phases, liveness };
}

describe('commands that expect no readiness', () => {
  it('a worker with no readiness fields is running after stabilityDelay, never an error', async () => {
    const s = setup({ stabilityDelay: 1_000 });
    s.session.start();
    s.session.print('processed job 1\n');
    await tick(999);
    expect(s.tracker.info.phase).toBe('starting');
    await tick(1);
    expect(s.tracker.info).toMatchObject({ phase: 'running', message: NO_READINESS_MESSAGE, expectsReadiness: false });
    await tick(60_000); // far past any readiness timeout
    expect(s.tracker.info.phase).toBe('running');
    expect(s.phases).toEqual(['starting', 'running']);
  });

  it('a plain program with no framework on its command line is running once stable', async () => {
    const s = setup({}, ['python3', 'worker.py']);
    s.session.start();
    await tick(1_000);
    expect(s.tracker.info.phase).toBe('running');
  });

  it('an error line before it is stable is an error', async () => {
    const s = setup({ stabilityDelay: 1_000 });
    s.session.start();
    s.session.print("Traceback (most recent call last):\nModuleNotFoundError: No module named 'redis'\n");
    await tick(2_000);
    expect(s.tracker.info.phase).toBe('error');
  });

  it.each([
    ['rollup -c -w', ['rollup', '-c', '-w'], '[!] RollupError: src/app.js (1:22): Expression expected\n', 'created dist/app.js in 94ms\n'],
    [
      'tsc --watch',
      ['tsc', '--watch'],
      '[10:15:02 PM] Found 1 error. Watching for file changes.\n',
      '[10:15:09 PM] Found 0 errors. Watching for file changes.\n',
    ],
  ])(
    '%s: a first build that fails after stabilityDelay (a loaded machine) is an error, then ready once fixed',
    async (_name, argv, failure, success) => {
      const s = setup({ stabilityDelay: 1_000 }, argv);
      s.session.start();
      await tick(3_000); // node and the tool load before the first line
      expect(s.tracker.info.phase).toBe('running');
      s.session.print(failure);
      await tick(100);
      expect(s.tracker.info).toMatchObject({ phase: 'error', expectsReadiness: true });
      await tick(5_000);
      expect(s.tracker.info.phase).toBe('error');
      s.session.print(success);
      await tick(1_000);
      expect(s.tracker.info.phase).toBe('ready');
      expect(s.phases).toEqual(['starting', 'running', 'starting', 'error', 'ready']);
    },
  );

  it('a worker that logs an error line after stabilityDelay is still running', async () => {
    const s = setup({ stabilityDelay: 1_000 }, ['node', 'worker.js']);
    s.session.start();
    await tick(1_000);
    s.session.print('Error: job 42 failed: connection reset\n');
    await tick(100);
    expect(s.tracker.info).toMatchObject({ phase: 'running', expectsReadiness: false });
  });

  it('a command without readiness fields that exits 0 is completed, with its duration', async () => {
    const s = setup({}, ['./migrate.sh']);
    s.session.start();
    s.session.print('applying 0001_initial\napplied 1 migration\n');
    await tick(250);
    s.session.exit(0);
    expect(s.tracker.info).toMatchObject({ phase: 'completed', exitCode: 0, message: 'Completed in 250 ms (exit code 0)' });
  });

  it('a one-shot job that exits 2 is an error with its last lines', async () => {
    const s = setup({ oneShot: true }, ['./migrate.sh']);
    s.session.start();
    s.session.print('applying 0002_users\nrelation "users" already exists\n');
    s.session.exit(2);
    expect(s.tracker.info).toMatchObject({ phase: 'error', message: 'Exited with code 2', exitCode: 2 });
    expect(s.tracker.info.logs).toEqual(['applying 0002_users', 'relation "users" already exists']);
  });

  it('a one-shot job is waited for to its end: the wait returns its exit code and last lines', async () => {
    const s = setup({ oneShot: true, stabilityDelay: 100 }, ['./migrate.sh']);
    s.session.start();
    const waiting = s.tracker.waitForReady(30_000);
    s.session.print('step 1\n');
    await tick(2_000);
    expect(s.tracker.info.phase).toBe('running'); // still working: the wait goes on
    s.session.print('step 2\n');
    s.session.exit(0);
    expect(await waiting).toMatchObject({ success: true, state: 'completed', exit_code: 0, logs: ['step 1', 'step 2'] });
  });

  it('a failed one-shot wait carries the exit code too', async () => {
    const s = setup({ oneShot: true }, ['./migrate.sh']);
    s.session.start();
    const waiting = s.tracker.waitForReady(30_000);
    s.session.print('boom\n');
    s.session.exit(2);
    expect(await waiting).toMatchObject({ success: false, state: 'error', exit_code: 2, logs: ['boom'] });
  });

  it('a one-shot job ignores server signals: it is never waited on for readiness', async () => {
    const s = setup({ oneShot: true, stabilityDelay: 100 }, ['./seed.sh']);
    s.session.start();
    s.owned.add(5432);
    s.session.print('Server ready, listening on http://localhost:5432\n');
    await tick(3_000);
    expect(s.tracker.info.phase).toBe('running');
  });

  it('a wait on a worker succeeds once it is running', async () => {
    const s = setup({ stabilityDelay: 300 });
    s.session.start();
    const result = s.tracker.waitForReady(30_000);
    await tick(300);
    expect(await result).toMatchObject({ success: true, state: 'running', message: NO_READINESS_MESSAGE });
  });

  it('a server with a port that never becomes ready still errors after its timeout', async () => {
    const s = setup({ port: 4999, timeout: 5_000 }, ['node', 'server.js']);
    s.session.start();
    await tick(5_000);
    expect(s.tracker.info).toMatchObject({ phase: 'error', message: 'No ready signal after 5 s' });
  });
});

/** A server entry that became ready on port 8080, probed every second. */
async function readyServer(liveness: ReadinessConfig['liveness'] = { period: 1_000, failureThreshold: 3, timeout: 100 }) {
  const s = setup({ port: 8080, stabilityDelay: 0, liveness }, ['node', 'server.js']);
  s.session.start();
  s.owned.add(8080);
  s.session.print('listening on http://localhost:8080\n');
  await tick(300);
  expect(s.tracker.info.phase).toBe('ready');
  return s;
}

describe('liveness after ready', () => {
  it('a server that stops accepting turns unhealthy after the threshold, and ready again when it accepts', async () => {
    const s = await readyServer();
    s.answering.queued = 1; // stopped: the kernel still completes the handshake, the process never accepts
    await tick(2_000); // 2 failed probes
    expect(s.tracker.info.phase).toBe('ready');
    await tick(1_000); // the third
    expect(s.tracker.info).toMatchObject({ phase: 'unhealthy' });
    expect(s.tracker.info.message).toMatch(
      /^Not answering: port 8080 did not answer \(1 connection not accepted within 100 ms\) \(3 probes in a row\)$/,
    );
    s.answering.queued = 0;
    await tick(1_000);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', message: 'Server ready on http://localhost:8080' });
    expect(s.phases).toEqual(['starting', 'ready', 'unhealthy', 'ready']);
  });

  it('a server that does not speak HTTP is alive while it accepts, unhealthy once its port refuses', async () => {
    const s = setup({ port: 6379, stabilityDelay: 0, liveness: { period: 1_000, failureThreshold: 2, timeout: 100 } }, ['redis-server']);
    s.session.start();
    s.owned.add(6379);
    await tick(300);
    expect(s.tracker.info.phase).toBe('ready');
    await tick(5_000);
    expect(s.tracker.info.phase).toBe('ready'); // TCP accepts: alive
    s.answering.tcp = false;
    await tick(2_000);
    expect(s.tracker.info.phase).toBe('unhealthy');
  });

  it('liveness: false turns probes off', async () => {
    const s = await readyServer(false);
    s.answering.queued = 1;
    s.answering.tcp = false;
    await tick(60_000);
    expect(s.tracker.info.phase).toBe('ready');
    expect(s.liveness.size).toBe(0);
  });

  it("a server stopped right as it became ready is not called alive by the kernel's handshake", async () => {
    const s = setup({ port: 8080, stabilityDelay: 0, liveness: { period: 1_000, failureThreshold: 2, timeout: 100 } }, [
      'node',
      'server.js',
    ]);
    s.answering.queued = 1;
    s.session.start();
    s.owned.add(8080);
    await tick(300);
    await tick(2_000);
    expect(s.tracker.info.phase).toBe('unhealthy');
  });

  it('probes stop when the run ends, and one scheduler timer serves every server', async () => {
    const s = await readyServer();
    expect(s.liveness.size).toBe(1);
    s.session.exit(143);
    expect(s.liveness.size).toBe(0);
  });
});

describe('settled readiness', () => {
  it('once ready, lines meet only the failure entries, and an error line still turns it running', async () => {
    const s = setup({ stabilityDelay: 0 }, ['vite']);
    s.session.start();
    s.owned.add(5173);
    s.session.print('  VITE v7.3.8  ready in 300 ms\n  ➜  Local:   http://localhost:5173/\n');
    await tick(300);
    expect(s.tracker.info.phase).toBe('ready');
    expect(s.tracker.isSettled).toBe(true);
    const classify = vi.spyOn(LineClassifier.prototype, 'classify');
    s.session.print('12:01:01 PM [vite] (client) hmr update /src/App.tsx\n');
    expect(classify).toHaveBeenCalled();
    expect(classify.mock.contexts.every((classifier) => (classifier as LineClassifier).patternCount < FRAMEWORK_PATTERNS.length)).toBe(
      true,
    );
    classify.mockRestore();
    s.session.print('12:01:02 PM [vite] Internal server error: Transform failed with 1 error:\n');
    expect(s.tracker.info).toMatchObject({ phase: 'running', message: 'Vite: Transform failed with 1 error:' });
    expect(s.tracker.isSettled).toBe(false);
    // Unsettled, the whole table again: the next ready line makes it ready.
    s.session.print('12:01:09 PM [vite] (client) hmr update /src/App.tsx\n');
    expect(s.tracker.info.phase).toBe('ready');
  });

  it('a failed liveness probe resumes full classification before the entry turns unhealthy', async () => {
    const s = await readyServer();
    s.answering.queued = 1;
    await tick(1_000);
    expect(s.tracker.info.phase).toBe('ready');
    expect(s.tracker.isSettled).toBe(false);
    s.answering.queued = 0;
    await tick(1_000);
    expect(s.tracker.isSettled).toBe(true);
  });

  it('a restart resumes full classification: the new run is judged by its own ready line', async () => {
    const s = await readyServer();
    expect(s.tracker.isSettled).toBe(true);
    s.session.exit(143);
    s.owned.delete(8080);
    s.session.start();
    expect(s.tracker.isSettled).toBe(false);
    s.owned.add(8080);
    s.session.print('listening on http://localhost:8080\n');
    await tick(300);
    expect(s.tracker.info).toMatchObject({ phase: 'ready', runId: 2 });
    expect(s.tracker.isSettled).toBe(true);
  });
});
