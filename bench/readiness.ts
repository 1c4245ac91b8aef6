/**
 * Readiness latency: from the moment a server opened its port and wrote its ready line
 * to Switchboard's ready event, against the baseline of polling the port every 250 ms (wait-on's
 * default), both measured in this run on the same servers. Measured twice: with `stabilityDelay: 0`
 * (the detection itself), and with the default settle window, which a wait sits out on purpose
 * (docs/readiness.md, "Waits": a ready line can still be premature for a second).
 */
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SwitchboardCore } from '../src/main/core/app';
import { buildCore } from '../src/main/core/composition';
import { freePort } from '../test/support/ports';
import { percentile, type BenchRow } from './report';

const RUNS = 20;
const POLL_BASELINE_MS = 250;

/** A server that listens after a random delay, then prints when (epoch ms, sub-ms) it became ready. */
const SERVER = (port: number) => `
  setTimeout(() => {
    require('http').createServer((q, r) => r.end('ok')).listen(${port}, '127.0.0.1', () => {
      console.log('READY at ' + (performance.timeOrigin + performance.now()).toFixed(3) + ' on http://localhost:${port}');
    });
  }, 100 + Math.random() * 400);`;

const nowMs = () => performance.timeOrigin + performance.now();

function isOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function oneRun(core: SwitchboardCore, stabilityDelay?: number): Promise<{ ours: number; polled: number }> {
  const port = await freePort();
  const info = await core.spawnProcess({
    kind: 'command',
    argv: [process.execPath, '-e', SERVER(port)],
    name: `srv-${port}`,
    ready: { port, readyPatterns: ['READY at'], ...(stabilityDelay === undefined ? {} : { stabilityDelay }) },
  });
  let polledAt: number | undefined;
  const poller = (async () => {
    while (polledAt === undefined) {
      await new Promise((r) => setTimeout(r, POLL_BASELINE_MS));
      if (await isOpen(port)) polledAt = nowMs();
    }
  })();
  const result = await core.waitForReady(info.id, 10_000);
  const readyEventAt = nowMs();
  await poller;
  if (!result.success) throw new Error(`bench server did not become ready: ${result.message}`);
  const text = core.entry(info.id).ring.read(0).data.toString();
  const openedAt = Number(/READY at ([\d.]+)/.exec(text)![1]);
  await core.closeProcess(info.id);
  return { ours: readyEventAt - openedAt, polled: polledAt! - openedAt };
}

async function runs(stabilityDelay?: number): Promise<{ ours: number[]; polled: number[] }> {
  const core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-bench-ready-')), watchConfig: false, killGraceMs: 300 });
  await core.init();
  const ours: number[] = [];
  const polled: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const run = await oneRun(core, stabilityDelay);
      ours.push(run.ours);
      polled.push(run.polled);
    }
  } finally {
    await core.dispose();
  }
  return { ours, polled };
}

export async function benchReadiness(): Promise<BenchRow[]> {
  const detected = await runs(0);
  const settled = await runs();
  const row = (of: { ours: number[]; polled: number[] }, name: string, p: number, goal?: string): BenchRow => {
    const value = percentile(of.ours, p);
    const baseline = percentile(of.polled, p);
    return { section: 'readiness', name, value, unit: 'ms', baseline, ratio: value / baseline, goal };
  };
  return [
    row(detected, `ready line + port open → ready event p50 (${RUNS} starts, stabilityDelay 0; baseline: 250 ms polling)`, 50),
    row(detected, 'ready line + port open → ready event p95 (stabilityDelay 0)', 95, '≤ 50 ms'),
    row(settled, 'ready line + port open → confirmed ready p95 (default 1 s settle window)', 95, '≈ 1 s + detection'),
  ];
}
