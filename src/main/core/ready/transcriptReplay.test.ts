/**
 * Real output, replayed through the whole tracker (line reader → table → composer → machine) with
 * probes answered by the test. Transcripts are raw PTY bytes captured on this machine from the
 * programs named in each file name (test/fixtures/servers/transcripts/README.md).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReadinessPhase } from '../../../shared/ready';
import { ReadinessTracker } from './readinessTracker';
import { FakeSession } from './testing/fakeSession';
import { clockAt } from './testing/fakeNetwork';

const TRANSCRIPTS = fileURLToPath(new URL('../../../../test/fixtures/servers/transcripts/', import.meta.url));

interface ReplayCase {
  file: string;
  argv: string[];
  /** Ports that answer a TCP connect. */
  open?: number[];
  /** Ports the entry's own process tree listens on. */
  owned?: number[];
  exitCode?: number;
  phase: ReadinessPhase;
  message: string;
  port?: number;
  /** The transcript continues after this line only once the wait answered (it came later, on a request). */
  pauseAfter?: string;
  /** The phase after the whole transcript (post-ready errors), when it differs. */
  finalPhase?: ReadinessPhase;
  finalMessage?: string;
}

const CASES: ReplayCase[] = [
  {
    file: 'vite-7.3.8-ready.txt',
    argv: ['vite'],
    open: [5199],
    owned: [5199],
    phase: 'ready',
    message: 'Vite ready on http://localhost:5199',
    port: 5199,
  },
  {
    file: 'vite-7.3.8-port-moved.txt',
    argv: ['vite', '--port', '5198'],
    open: [5198, 5199],
    owned: [5199],
    phase: 'ready',
    message: 'Vite ready on http://localhost:5199',
    port: 5199,
  },
  {
    file: 'vite-7.3.8-strict-port.txt',
    argv: ['vite', '--strictPort'],
    open: [5198],
    exitCode: 1,
    phase: 'error',
    message: 'Port 5198 already in use',
  },
  {
    file: 'vite-7.3.8-broken-config.txt',
    argv: ['vite'],
    exitCode: 1,
    phase: 'error',
    message: 'Vite could not load /tmp/vb/vite.config.mjs: Unexpected end of file',
  },
  {
    file: 'next-16.4.6-ready.txt',
    argv: ['next', 'dev'],
    open: [3195],
    owned: [3195],
    phase: 'ready',
    message: 'Next.js ready on http://localhost:3195',
    port: 3195,
  },
  {
    file: 'next-16.4.6-port-in-use.txt',
    argv: ['next', 'dev', '--port', '3194'],
    open: [3194],
    exitCode: 1,
    phase: 'error',
    message: 'Port 3194 already in use',
  },
  {
    file: 'next-16.4.6-port-moved.txt',
    argv: ['next', 'dev'],
    open: [3000, 3001],
    owned: [3001],
    phase: 'ready',
    message: 'Next.js ready on http://localhost:3001',
    port: 3001,
  },
  {
    file: 'next-16.4.6-compile-error.txt',
    argv: ['next', 'dev'],
    open: [3193],
    owned: [3193],
    phase: 'ready',
    message: 'Next.js ready on http://localhost:3193',
    port: 3193,
    pauseAfter: 'Running next.config took',
    finalPhase: 'running',
    finalMessage: "Error in ./test/fixtures/servers/.tmp/nx/app/page.jsx:3:1: Expected '>', got '}'",
  },
  {
    file: 'django-3.2.25-ready.txt',
    argv: ['python3', 'manage.py', 'runserver', '8197'],
    open: [8197],
    owned: [8197],
    phase: 'ready',
    message: 'Django ready on http://127.0.0.1:8197',
    port: 8197,
  },
  {
    file: 'django-3.2.25-port-in-use.txt',
    argv: ['python3', 'manage.py', 'runserver', '8196'],
    open: [8196],
    exitCode: 1,
    phase: 'error',
    message: 'Port 8196 already in use',
  },
  {
    file: 'flask-3.1.3-ready.txt',
    argv: ['flask', 'run'],
    open: [5097],
    owned: [5097],
    phase: 'ready',
    message: 'Flask ready on http://127.0.0.1:5097',
    port: 5097,
  },
  {
    file: 'flask-2.2.2-port-in-use.txt',
    argv: ['flask', 'run'],
    open: [5095],
    exitCode: 1,
    phase: 'error',
    message: 'Port 5095 already in use',
  },
  {
    file: 'uvicorn-0.17.6-ready.txt',
    argv: ['uvicorn', 'asgi:app'],
    open: [5096],
    owned: [5096],
    phase: 'ready',
    message: 'Uvicorn ready on http://127.0.0.1:5096',
    port: 5096,
  },
  {
    file: 'uvicorn-0.17.6-port-in-use.txt',
    argv: ['uvicorn', 'asgi:app'],
    open: [5095],
    exitCode: 1,
    phase: 'error',
    message: 'Port 5095 already in use',
  },
  {
    file: 'uvicorn-0.17.6-import-error.txt',
    argv: ['uvicorn', 'nosuchmodule:app'],
    exitCode: 1,
    phase: 'error',
    message: 'Uvicorn: Error loading ASGI app. Could not import module "nosuchmodule".',
  },
  {
    file: 'node-20-eaddrinuse.txt',
    argv: ['node', 'server.js'],
    open: [5094],
    exitCode: 1,
    phase: 'error',
    message: 'Port 5094 already in use',
  },
  {
    file: 'node-20-cannot-find-module.txt',
    argv: ['node', 'server.js'],
    exitCode: 1,
    phase: 'error',
    message: "Cannot find module 'expresss'",
  },
  { file: 'node-20-uncaught-typeerror.txt', argv: ['node', 'server.js'], exitCode: 1, phase: 'error', message: 'TypeError: boom' },
  {
    file: 'npm-11-missing-script.txt',
    argv: ['npm', 'run', 'dev'],
    exitCode: 1,
    phase: 'error',
    message: 'npm script "dev" is missing from package.json',
  },
  {
    file: 'python-3.11-traceback.txt',
    argv: ['python3', 'app.py'],
    exitCode: 1,
    phase: 'error',
    message: 'json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)',
  },
];

/** Whole transcript in one chunk, and cut into 7-character chunks (lines split anywhere). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs the fake clock a step at a time until `promise` settles: the tracker's timers fire in order, never because the machine was slow. */
async function runClockUntil<T>(promise: Promise<T>, stepMs = 10, maxMs = 30_000): Promise<T> {
  let isSettled = false;
  promise.then(
    () => (isSettled = true),
    () => (isSettled = true),
  );
  for (let elapsed = 0; !isSettled && elapsed < maxMs; elapsed += stepMs) await vi.advanceTimersByTimeAsync(stepMs);
  return promise;
}

const CHUNKINGS = [
  { name: 'one chunk', split: (text: string) => [text] },
  {
    name: '7-char chunks',
    split: (text: string) => Array.from({ length: Math.ceil(text.length / 7) }, (_, i) => text.slice(i * 7, i * 7 + 7)),
  },
];

describe.each(CHUNKINGS)('transcript replay ($name)', ({ split }) => {
  // Time moves only when the replay says so: a loaded machine cannot open a quiet gap mid-transcript.
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it.each(CASES)('$file → $phase: $message', async (c) => {
    const session = new FakeSession(c.argv);
    // The rest of a paused transcript came on a request, long after the settle window: the clock says so.
    let skewMs = 0;
    const tracker = new ReadinessTracker(session, { stabilityDelay: 1_000, timeout: 5_000 }, undefined, {
      clock: clockAt(() => Date.now() + skewMs),
      probeTcp: async ({ port }) => (c.open ?? []).includes(port),
      probeHttp: async ({ url }) =>
        (c.open ?? []).includes(Number(new URL(url).port)) ? { isOk: true, status: 200 } : { isOk: false, error: 'ECONNREFUSED' },
      listPorts: async () => c.owned ?? [],
      canTellPortOwner: true,
    });
    session.start();
    const waiting = tracker.waitForReady(5_000);
    // A PTY delivers chunks and the exit in separate turns of the event loop; so does the replay.
    const transcript = readFileSync(TRANSCRIPTS + c.file, 'utf8');
    const pauseAt = c.pauseAfter ? transcript.indexOf('\n', transcript.indexOf(c.pauseAfter)) + 1 : transcript.length;
    for (const chunk of split(transcript.slice(0, pauseAt))) {
      session.print(chunk);
      await nextTurn();
    }
    if (c.exitCode !== undefined) session.exit(c.exitCode);
    const result = await runClockUntil(waiting);
    skewMs = 60_000;
    for (const chunk of split(transcript.slice(pauseAt))) {
      session.print(chunk);
      await nextTurn();
    }
    // The error settles within ERROR_SETTLE_MS of quiet, so the exit that follows is part of it.
    const expected = c.exitCode !== undefined ? `${c.message} (exited with code ${c.exitCode})` : c.message;
    expect({ state: result.state, message: result.message }).toEqual({ state: c.phase, message: expected });
    if (c.port !== undefined) expect(result.port).toBe(c.port);
    if (c.phase === 'error') expect(result.logs?.length).toBeGreaterThan(0);
    if (c.finalPhase)
      expect({ phase: tracker.info.phase, message: tracker.info.message }).toEqual({ phase: c.finalPhase, message: c.finalMessage });
    tracker.dispose();
  });
});
