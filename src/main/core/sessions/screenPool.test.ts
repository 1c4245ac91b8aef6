import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Worker } from 'node:worker_threads';
import { waitForEvent } from '../base';
import { ByteRing } from './ringBuffer';
import { ProcessEntry } from './processEntry';
import { defaultScreenWorkers, SCREEN_WORKERS_MAX, ScreenWorkerPool } from './screenPool';
import { SCREEN_IN_FLIGHT_MAX_BYTES, type RemoteScreen } from './remoteScreen';
import { SCREEN_MAX_BACKLOG_BYTES } from './screenModel';
import type { ToWorker } from './screenProtocol';
import { waitForExit, waitForScreen } from '../../../../test/support/wait';

let pool: ScreenWorkerPool | undefined;
afterEach(() => {
  pool?.dispose();
  pool = undefined;
});

/** A screen fed through a ring, as an entry feeds it, so a rebuilt screen can replay it. */
function ringScreen(p: ScreenWorkerPool, cols = 40, rows = 5, ringBytes = 64 * 1024) {
  const ring = new ByteRing(ringBytes);
  const screen = p.open({ cols, rows }, (since, end) => ring.read(since, end - since).data);
  const write = (text: string) => {
    ring.append(Buffer.from(text));
    screen.write(Buffer.from(text), ring.end);
  };
  return { ring, screen, write };
}

function workerOf(p: ScreenWorkerPool, index = 0): Worker {
  const worker = p.workers[index];
  if (!worker) throw new Error(`no worker ${index}`);
  return worker;
}

/** Terminates worker `index` as a crash would, and resolves once the pool has started its replacement. */
function killWorker(p: ScreenWorkerPool, index = 0): Promise<number> {
  const restarted = waitForEvent(p.onDidRestartWorker, (i) => i === index, 10_000);
  void workerOf(p, index).terminate();
  return restarted;
}

describe('screen worker pool', () => {
  it('leaves one core to the main thread and stays within its bound', () => {
    expect(defaultScreenWorkers(1)).toBe(1);
    expect(defaultScreenWorkers(2)).toBe(1);
    expect(defaultScreenWorkers(4)).toBe(3);
    expect(defaultScreenWorkers(64)).toBe(SCREEN_WORKERS_MAX);
  });

  it('answers a flush after the state that reflects it: the visible rows are readable at once', async () => {
    pool = new ScreenWorkerPool(1);
    const { screen, write, ring } = ringScreen(pool);
    write('first\r\nsecond\r\n\x1b]0;a title\x07');
    expect(await screen.flush()).toBe(ring.end);
    expect(screen.getVisibleLines().slice(0, 2)).toEqual(['first', 'second']);
    expect(screen.getCursor()).toEqual({ x: 0, y: 2 });
    expect(screen.title).toBe('a title');
    expect(screen.parsedUpTo).toBe(ring.end);
  });

  it("carries the program's own state reports (OSC 7501) to the main thread, and their clearing", async () => {
    pool = new ScreenWorkerPool(1);
    const { screen, write } = ringScreen(pool);
    const reports: string[] = [];
    screen.onDidChangeAgentState((state) => reports.push(state));
    write('\x1b]7501;state=blocked:app=codex:kind=permission\x1b\\');
    await screen.flush();
    expect(screen.agentState).toBe('state=blocked:app=codex:kind=permission');
    write('\x1b]7501;state=clear\x1b\\');
    await screen.flush();
    expect(screen.agentState).toBe('');
    expect(reports).toEqual(['state=blocked:app=codex:kind=permission', '']);
  });

  it('fires onDidChange for a visible change only, onDidChangeTitle for a new title', async () => {
    pool = new ScreenWorkerPool(1);
    const { screen, write } = ringScreen(pool);
    write('visible');
    await screen.flush();
    const changes = vi.fn();
    const titles = vi.fn();
    screen.onDidChange(changes);
    screen.onDidChangeTitle(titles);
    write('\x1b[1m\x1b[0m'); // attributes only: nothing a reader of the rows could see
    await screen.flush();
    expect(changes).not.toHaveBeenCalled();
    write('\x1b]2;named\x07 more');
    await screen.flush();
    expect(titles.mock.calls).toEqual([['named']]);
    expect(changes).toHaveBeenCalled();
    expect(screen.getVisibleLines()[0]).toBe('visible more');
  });

  it("sends one turn's bytes for every screen of a worker in one transferred buffer", async () => {
    pool = new ScreenWorkerPool(1);
    const a = ringScreen(pool);
    const b = ringScreen(pool);
    await Promise.all([a.screen.flush(), b.screen.flush()]);
    const posted = vi.spyOn(workerOf(pool), 'postMessage');
    a.write('to a, ');
    b.write('to b');
    a.write('again a');
    await Promise.all([a.screen.flush(), b.screen.flush()]);
    const writes = posted.mock.calls.filter(([message]) => (message as ToWorker).type === 'write');
    expect(writes).toHaveLength(1);
    const [message, transfer] = writes[0] as [Extract<ToWorker, { type: 'write' }>, ArrayBuffer[]];
    expect(message.items.map((item) => [item.screenId, item.length])).toEqual([
      [a.screen.id, 6],
      [b.screen.id, 4],
      [a.screen.id, 7],
    ]);
    expect(transfer).toEqual([message.buffer]);
    expect(message.buffer.byteLength).toBe(0); // detached: moved to the worker, not copied
    expect(a.screen.getVisibleLines()[0]).toBe('to a, again a');
    expect(b.screen.getVisibleLines()[0]).toBe('to b');
  });

  it('sends a flood only as the screen parses it: the rest stays in the ring, and the screen shows the newest output', async () => {
    pool = new ScreenWorkerPool(1);
    const { screen, write, ring } = ringScreen(pool, 40, 5, 2 * 1024 * 1024);
    await screen.flush();
    const posted = vi.spyOn(workerOf(pool), 'postMessage');
    const sentBytes = () =>
      posted.mock.calls
        .map(([message]) => message as ToWorker)
        .filter((message) => message.type === 'write')
        .reduce((sum, message) => sum + message.items.reduce((n, item) => n + item.length, 0), 0);
    // 16 MB in batches of 32 KB within one turn: no parse progress can come back meanwhile.
    const batch = Array.from({ length: 512 }, (_, i) => `line ${String(i).padStart(4, '0')} of a flood\r\n`).join('');
    let batches = 0;
    while (ring.end < 16 * 1024 * 1024) {
      write(batch.replace(/line/g, `b${batches++}`));
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(sentBytes()).toBeLessThanOrEqual(SCREEN_IN_FLIGHT_MAX_BYTES);

    // A query answers for everything written: the newest backlog is sent first, the oldest skipped.
    const { screen: serialized, offset } = await screen.serialize();
    expect(offset).toBe(ring.end);
    expect(serialized).toContain(`b${batches - 1} 0511 of a flood`);
    expect(screen.getVisibleLines()[3]).toBe(`b${batches - 1} 0511 of a flood`);
    expect(sentBytes()).toBeLessThanOrEqual(SCREEN_IN_FLIGHT_MAX_BYTES + SCREEN_MAX_BACKLOG_BYTES);
    expect(screen.skippedBytes).toBeGreaterThanOrEqual(ring.end - SCREEN_IN_FLIGHT_MAX_BYTES - SCREEN_MAX_BACKLOG_BYTES);
  });

  it('goes on feeding a flood as the worker reports its progress, with no query to push it', async () => {
    pool = new ScreenWorkerPool(1);
    const { screen, write, ring } = ringScreen(pool, 40, 5, 2 * 1024 * 1024);
    const line = 'x'.repeat(38) + '\r\n';
    while (ring.end < 4 * 1024 * 1024) write(line.repeat(800));
    write('the end\r\n');
    await waitForEvent(screen.onDidChange, () => screen.parsedUpTo === ring.end, 10_000);
    expect(screen.getVisibleLines()[3]).toBe('the end');
  });

  it('serializes for attach at one instant: the offset returned is the one the screen reflects', async () => {
    pool = new ScreenWorkerPool(1);
    const { screen, write, ring } = ringScreen(pool);
    write('\x1b[31mred\x1b[0m line\r\n');
    const { screen: serialized, offset } = await screen.serialize();
    expect(offset).toBe(ring.end);
    expect(serialized).toContain('red');
    expect(await screen.getAllLines()).toContain('red line');
    expect(await screen.serializeForRestore()).toContain('line');
  });

  it('sends a terminal reply to a device-attributes query back to the main thread', async () => {
    pool = new ScreenWorkerPool(1);
    const { screen, write } = ringScreen(pool);
    const reply = waitForEvent(screen.onDidReply, () => true, 10_000);
    write('\x1b[c');
    // eslint-disable-next-line no-control-regex
    expect(await reply).toMatch(/^\x1b\[\?[\d;]+c$/);
  });

  it('resizes: the size reads at once, the rows follow once the worker posts them', async () => {
    pool = new ScreenWorkerPool(1);
    const { screen, write } = ringScreen(pool, 20, 4);
    write('a\r\nb\r\nc\r\nd');
    await screen.flush();
    screen.resize(10, 2);
    expect([screen.cols, screen.rows]).toEqual([10, 2]);
    await waitForEvent(screen.onDidChange, () => screen.getVisibleLines().length === 2, 10_000);
    expect(screen.getVisibleLines()).toEqual(['c', 'd']);
  });

  it('spreads screens over its workers, one worker per screen until the pool is full', async () => {
    pool = new ScreenWorkerPool(2);
    const screens = [ringScreen(pool), ringScreen(pool), ringScreen(pool)];
    screens.forEach((s, i) => s.write(`screen ${i}`));
    await Promise.all(screens.map((s) => s.screen.flush()));
    expect(pool.workers).toHaveLength(2);
    expect(screens.map((s) => s.screen.getVisibleLines()[0])).toEqual(['screen 0', 'screen 1', 'screen 2']);
  });
});

describe('a screen worker that dies', () => {
  it('is started again and its screens are rebuilt from the ring', async () => {
    pool = new ScreenWorkerPool(1);
    const { screen, write } = ringScreen(pool);
    write('before the crash\r\n\x1b]0;kept title\x07');
    await screen.flush();
    const dead = workerOf(pool);
    await killWorker(pool);
    expect(workerOf(pool)).not.toBe(dead);
    write('after the restart');
    await screen.flush();
    expect(screen.getVisibleLines().slice(0, 2)).toEqual(['before the crash', 'after the restart']);
    expect(screen.title).toBe('kept title');
    expect(await screen.getAllLines()).toContain('before the crash');
  });

  it('makes queries sent meanwhile wait for the rebuilt screen instead of failing', async () => {
    pool = new ScreenWorkerPool(1);
    const { screen, write, ring } = ringScreen(pool);
    write('line one\r\n');
    await screen.flush();
    const restarted = killWorker(pool);
    // Sent to the dying worker and during its replacement: none of them may be lost or rejected.
    write('line two\r\n');
    const queries = Promise.all([screen.flush(), screen.serialize(), screen.getAllLines(), screen.serializeForRestore()]);
    await restarted;
    const [flushed, attach, all, restore] = await queries;
    expect(flushed).toBe(ring.end);
    expect(attach.offset).toBe(ring.end);
    expect(attach.screen).toContain('line two');
    expect(all.slice(0, 2)).toEqual(['line one', 'line two']);
    expect(restore).toContain('line one');
  });

  it('keeps serving the last state synchronously while the replacement rebuilds', async () => {
    pool = new ScreenWorkerPool(1);
    const { screen, write } = ringScreen(pool);
    write('still shown');
    await screen.flush();
    const restarted = killWorker(pool);
    expect(screen.getVisibleLines()[0]).toBe('still shown');
    await restarted;
    expect(screen.getVisibleLines()[0]).toBe('still shown');
  });

  it("rebuilds a live entry's screen: its program keeps running and its output keeps arriving", async () => {
    pool = new ScreenWorkerPool(1);
    const entry = new ProcessEntry({
      id: 'crash-rebuild',
      spec: { name: 'cat', kind: 'command', argv: ['bash', '-c', 'echo ready; exec cat'], cwd: process.cwd() },
      screens: pool,
      killGraceMs: 500,
    });
    try {
      await entry.start();
      await waitForScreen(entry, (lines) => lines.includes('ready'));
      await killWorker(pool);
      entry.write('typed after the crash\r');
      const lines = await waitForScreen(entry, (l) => l.filter((line) => line === 'typed after the crash').length === 2);
      expect(lines[0]).toBe('ready');
      const snapshot = await entry.attach();
      expect(snapshot.offset).toBe(entry.ring.end);
      expect(snapshot.screen).toContain('typed after the crash');
    } finally {
      await entry.close();
    }
    await waitForExit(entry);
  });
});

describe('a disposed screen', () => {
  it('answers queries still waiting instead of leaving them pending', async () => {
    pool = new ScreenWorkerPool(1);
    const { screen, write }: { screen: RemoteScreen; write: (t: string) => void } = ringScreen(pool);
    write('x'.repeat(1000));
    const pending = screen.getAllLines();
    screen.dispose();
    expect(await pending).toEqual([]);
  });
});
