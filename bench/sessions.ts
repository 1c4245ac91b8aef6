/**
 * Session-layer figures: pipeline throughput vs raw node-pty, the CPU time each spends per MB
 * (the figure that survives a loaded machine: throughput there follows the other processes),
 * input-echo latency and event-loop lag while another entry floods, RSS per idle terminal entry.
 */
import * as pty from 'node-pty';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { SwitchboardCore } from '../src/main/core/app';
import { buildCore } from '../src/main/core/composition';
import { ControlClientSession } from '../src/main/core/bridge';
import { sharedScreenPool } from '../src/main/core/sessions';
import { percentile, type BenchRow } from './report';
import { timeEcho } from './echo';
import { encodeOutputFrame, slabFrameAllocator } from '../src/shared/outputFrame';
import { startCpuMeter, type CpuTime } from './cpuMeter';

const FLOOD_BYTES = Number(process.env.BENCH_FLOOD_MB ?? 256) * 1024 * 1024;
const FLOOD_COMMAND = `yes 'switchboard throughput line 0123456789 abcdefghijklmnopqrstuvwxyz' | head -c ${FLOOD_BYTES}`;
const ECHO_SAMPLES = 200;
const IDLE_ENTRIES = 50;

/** One flood drained: wall time, bytes, and the CPU time this process spent on it. */
interface Drain {
  ms: number;
  bytes: number;
  cpu: CpuTime;
}

function rawDrain(): Promise<Drain> {
  return new Promise((resolve) => {
    const started = performance.now();
    const cpu = startCpuMeter();
    let bytes = 0;
    const proc = pty.spawn('/bin/sh', ['-c', FLOOD_COMMAND], { cols: 120, rows: 40, encoding: null as unknown as string });
    proc.onData((d) => (bytes += d.length));
    proc.onExit(() => resolve({ ms: performance.now() - started, bytes, cpu: cpu() }));
  });
}

async function newCore(): Promise<SwitchboardCore> {
  const core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-bench-')), watchConfig: false, killGraceMs: 500 });
  await core.init();
  return core;
}

/** A viewer like the WebSocket bridge: encodes each event as it would be sent, acknowledges at once. */
function attachViewer(core: SwitchboardCore, id: string): ControlClientSession {
  const allocateFrame = slabFrameAllocator();
  const client: ControlClientSession = new ControlClientSession(core, (event) => {
    if (event.type !== 'output') return void JSON.stringify({ t: 'event', event });
    encodeOutputFrame(event, allocateFrame);
    setImmediate(() => void client.call('ackOutput', { id: event.id, bytes: event.data.byteLength }).catch(() => undefined));
  });
  void client.call('attach', { id });
  return client;
}

async function pipelineDrain(): Promise<Drain> {
  const core = await newCore();
  try {
    const started = performance.now();
    const cpu = startCpuMeter();
    const info = await core.spawnProcess({ kind: 'command', shell: FLOOD_COMMAND, name: 'flood' });
    const viewer = attachViewer(core, info.id);
    const entry = core.entry(info.id);
    await new Promise<void>((resolve) => entry.onDidExitRun(() => resolve()));
    const ms = performance.now() - started;
    const used = cpu();
    viewer.dispose();
    return { ms, bytes: entry.ring.end - info.offsets.runStart, cpu: used };
  } finally {
    await core.dispose();
  }
}

async function fairness(): Promise<{ echo: number[]; lagP99: number }> {
  const core = await newCore();
  const lag = monitorEventLoopDelay({ resolution: 5 });
  try {
    const flood = await core.spawnProcess({ kind: 'command', shell: 'yes fairness-flood-line', name: 'flood' });
    const floodViewer = attachViewer(core, flood.id);
    const echo = await core.spawnProcess({ kind: 'terminal', argv: ['cat'], name: 'echo' });
    const entry = core.entry(echo.id);
    lag.enable();
    const samples: number[] = [];
    for (let i = 0; i < ECHO_SAMPLES; i++) samples.push(await timeEcho(entry, `e${i}x`));
    lag.disable();
    floodViewer.dispose();
    return { echo: samples, lagP99: lag.percentile(99) / 1e6 };
  } finally {
    await core.dispose();
  }
}

const perMb = (ms: number, drain: Drain) => ms / (drain.bytes / 1024 / 1024);

/** CPU per MB of the pipeline and of raw node-pty; the difference is what the pipeline adds. */
function cpuPerMbRows(pipeline: Drain, raw: Drain): BenchRow[] {
  const rows: BenchRow[] = [];
  const add = (name: string, pipelineMs: number, rawMs: number) => {
    const value = perMb(pipelineMs, pipeline);
    const baseline = perMb(rawMs, raw);
    rows.push({
      section: 'sessions',
      name: `${name} per MB (pipeline vs raw node-pty)`,
      value,
      unit: 'ms',
      baseline,
      ratio: value / baseline,
    });
    rows.push({ section: 'sessions', name: `${name} per MB added by the pipeline`, value: value - baseline, unit: 'ms' });
  };
  if (pipeline.cpu.mainThreadMs !== undefined && raw.cpu.mainThreadMs !== undefined)
    add('main-thread CPU', pipeline.cpu.mainThreadMs, raw.cpu.mainThreadMs);
  add('process CPU', pipeline.cpu.processMs, raw.cpu.processMs);
  return rows;
}

/** `npm run bench` runs node with --expose-gc so both RSS readings see a collected heap. */
function settleHeap(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** RSS the screen workers add before any entry: every worker of the pool started, with no screen. */
async function screenPoolKb(): Promise<{ kb: number; workers: number }> {
  const pool = sharedScreenPool();
  settleHeap();
  const before = process.memoryUsage().rss;
  const screens = Array.from({ length: pool.size }, () => pool.open({ cols: 80, rows: 24 }));
  await Promise.all(screens.map((screen) => screen.getAllLines()));
  for (const screen of screens) screen.dispose();
  await new Promise((r) => setTimeout(r, 500)); // the workers settle after their first screen
  settleHeap();
  return { kb: (process.memoryUsage().rss - before) / 1024, workers: pool.workers.length };
}

/** RSS per idle entry, the pool's workers already running (their fixed cost is `screenPoolKb`). */
async function idleMemoryKb(): Promise<number> {
  const core = await newCore();
  try {
    settleHeap();
    const before = process.memoryUsage().rss;
    for (let i = 0; i < IDLE_ENTRIES; i++)
      await core.spawnProcess({ kind: 'terminal', argv: ['bash', '--noprofile', '--norc', '-i'], name: `t${i}` });
    await new Promise((r) => setTimeout(r, 1500)); // let every shell print its prompt
    settleHeap();
    return (process.memoryUsage().rss - before) / 1024 / IDLE_ENTRIES;
  } finally {
    await core.dispose();
  }
}

export async function benchSessions(): Promise<BenchRow[]> {
  // Memory first: after the floods, garbage collection would make the difference meaningless.
  const pool = await screenPoolKb();
  const memory = await idleMemoryKb();
  const raw = await rawDrain();
  const pipeline = await pipelineDrain();
  const rawRate = raw.bytes / 1024 / 1024 / (raw.ms / 1000);
  const pipeRate = pipeline.bytes / 1024 / 1024 / (pipeline.ms / 1000);
  const { echo, lagP99 } = await fairness();
  return [
    {
      section: 'sessions',
      name: `throughput ${FLOOD_BYTES / 1024 / 1024} MB (pipeline vs raw node-pty)`,
      value: pipeRate,
      unit: 'MB/s',
      baseline: rawRate,
      ratio: pipeRate / rawRate,
      goal: '≥ 0.85',
    },
    ...cpuPerMbRows(pipeline, raw),
    { section: 'sessions', name: 'echo latency p50 while another entry floods', value: percentile(echo, 50), unit: 'ms' },
    { section: 'sessions', name: 'echo latency p99 while another entry floods', value: percentile(echo, 99), unit: 'ms', goal: '< 50 ms' },
    { section: 'sessions', name: 'event-loop lag p99 during flood', value: lagP99, unit: 'ms' },
    { section: 'sessions', name: `RSS per idle terminal entry (${IDLE_ENTRIES} open)`, value: memory, unit: 'KB', goal: '≤ 232 KB' },
    { section: 'sessions', name: `RSS of the screen worker pool, fixed (${pool.workers} workers)`, value: pool.kb, unit: 'KB' },
  ];
}
