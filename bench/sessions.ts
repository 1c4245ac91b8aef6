/**
 * Session-layer figures: pipeline throughput vs raw node-pty (the time to a flood's last byte;
 * the exit is reported apart), the CPU time each spends per MB
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
import { sharedPtyHost, sharedScreenPool } from '../src/main/core/sessions';
import { percentile, type BenchRow } from './report';
import { timeEcho } from './echo';
import { FrameSlabs } from '../src/shared/outputFrame';
import { startCpuMeter, type CpuTime } from './cpuMeter';

const FLOOD_BYTES = Number(process.env.BENCH_FLOOD_MB ?? 128) * 1024 * 1024;
const FLOOD_COMMAND = `yes 'switchboard throughput line 0123456789 abcdefghijklmnopqrstuvwxyz' | head -c ${FLOOD_BYTES}`;
/** Raw and pipeline drains alternate this many times (after one pair to warm up); medians are compared. */
const THROUGHPUT_PAIRS = Number(process.env.BENCH_THROUGHPUT_PAIRS ?? 5);
const ECHO_SAMPLES = 200;
const IDLE_ENTRIES = 50;

/**
 * One flood drained: the time from the spawn to its last byte (at the reader: node-pty's data
 * event, or the viewer's output event), its bytes, the CPU time this process spent meanwhile and
 * the time from the last byte to the exit being reported.
 */
interface Drain {
  ms: number;
  bytes: number;
  cpu: CpuTime;
  exitAfterMs: number;
}

function rawDrain(): Promise<Drain> {
  return new Promise((resolve) => {
    const started = performance.now();
    const cpu = startCpuMeter();
    let bytes = 0;
    let lastByteAt = started;
    const proc = pty.spawn('/bin/sh', ['-c', FLOOD_COMMAND], { cols: 120, rows: 40, encoding: null as unknown as string });
    proc.onData((d) => {
      bytes += d.length;
      lastByteAt = performance.now();
    });
    proc.onExit(() => {
      const used = cpu();
      resolve({ ms: lastByteAt - started, bytes, cpu: used, exitAfterMs: performance.now() - lastByteAt });
    });
  });
}

async function newCore(): Promise<SwitchboardCore> {
  const core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-bench-')), watchConfig: false, killGraceMs: 500 });
  await core.init();
  return core;
}

/** A viewer like the WebSocket bridge: encodes each event as it would be sent, acknowledges at once. */
function attachViewer(core: SwitchboardCore, id: string, onOutput: () => void = () => undefined): ControlClientSession {
  const frames = new FrameSlabs();
  const client: ControlClientSession = new ControlClientSession(core, (event) => {
    if (event.type !== 'output') return void JSON.stringify({ t: 'event', event });
    onOutput();
    frames.encode(event).release(); // as a socket that wrote it at once
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
    let lastByteAt = started;
    const info = await core.spawnProcess({ kind: 'command', shell: FLOOD_COMMAND, name: 'flood' });
    const viewer = attachViewer(core, info.id, () => (lastByteAt = performance.now()));
    const entry = core.entry(info.id);
    await new Promise<void>((resolve) => entry.onDidExitRun(() => resolve()));
    const used = cpu();
    viewer.dispose();
    return {
      ms: lastByteAt - started,
      bytes: entry.ring.end - info.offsets.runStart,
      cpu: used,
      exitAfterMs: performance.now() - lastByteAt,
    };
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
const rateOf = (drain: Drain) => drain.bytes / 1024 / 1024 / (drain.ms / 1000);

/** The drain of median throughput. */
function medianDrain(drains: Drain[]): Drain {
  return [...drains].sort((a, b) => rateOf(a) - rateOf(b))[drains.length >> 1];
}

/**
 * Raw node-pty and the pipeline drain the same flood in turn, THROUGHPUT_PAIRS times after a pair
 * that warms both up (the first drain of a process runs at its own speed); the medians are
 * compared. One drain each swung by a third between runs on a small machine: a PTY hands its
 * bytes over in reads of at most 4 KB, each waiting on the kernel's tty worker, so the other
 * processes' scheduling shows in every drain.
 */
async function throughputPairs(): Promise<{ raw: Drain; pipeline: Drain; pairRatios: number[] }> {
  await rawDrain();
  await pipelineDrain();
  const raws: Drain[] = [];
  const pipelines: Drain[] = [];
  for (let i = 0; i < THROUGHPUT_PAIRS; i++) {
    raws.push(await rawDrain());
    pipelines.push(await pipelineDrain());
  }
  const pairRatios = raws.map((raw, i) => rateOf(pipelines[i]) / rateOf(raw)).sort((a, b) => a - b);
  return { raw: medianDrain(raws), pipeline: medianDrain(pipelines), pairRatios };
}

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

/** RSS the PTY thread adds: started by a first PTY, with none left. */
async function ptyThreadKb(): Promise<number> {
  settleHeap();
  const before = process.memoryUsage().rss;
  await new Promise<void>((resolve) => {
    const options = { name: 'xterm-256color', cols: 80, rows: 24, cwd: process.cwd(), env: { PATH: process.env.PATH ?? '' } };
    sharedPtyHost().spawn('/bin/sh', ['-c', 'exit 0'], options, { onData: () => undefined, onExit: () => resolve() });
  });
  await new Promise((r) => setTimeout(r, 500)); // the thread settles after its first PTY
  settleHeap();
  return (process.memoryUsage().rss - before) / 1024;
}

/** RSS per idle entry, the pool's workers and the PTY thread already running (their fixed costs are `screenPoolKb`, `ptyThreadKb`). */
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
  const ptyThread = await ptyThreadKb();
  const memory = await idleMemoryKb();
  const { raw, pipeline, pairRatios } = await throughputPairs();
  const { echo, lagP99 } = await fairness();
  const pairs = `${pairRatios.length} pairs, ${FLOOD_BYTES / 1024 / 1024} MB each`;
  return [
    {
      section: 'sessions',
      name: `throughput, median of ${pairs} (pipeline vs raw node-pty)`,
      value: rateOf(pipeline),
      unit: 'MB/s',
      baseline: rateOf(raw),
      ratio: rateOf(pipeline) / rateOf(raw),
      goal: '≥ 0.85',
    },
    { section: 'sessions', name: 'throughput: lowest ratio of a single pair', value: pairRatios[0], unit: '' },
    { section: 'sessions', name: 'throughput: highest ratio of a single pair', value: pairRatios[pairRatios.length - 1], unit: '' },
    {
      section: 'sessions',
      name: 'exit reported after the last byte (pipeline vs raw node-pty)',
      value: pipeline.exitAfterMs,
      unit: 'ms',
      baseline: raw.exitAfterMs,
    },
    ...cpuPerMbRows(pipeline, raw),
    { section: 'sessions', name: 'echo latency p50 while another entry floods', value: percentile(echo, 50), unit: 'ms' },
    { section: 'sessions', name: 'echo latency p99 while another entry floods', value: percentile(echo, 99), unit: 'ms', goal: '< 50 ms' },
    { section: 'sessions', name: 'event-loop lag p99 during flood', value: lagP99, unit: 'ms' },
    { section: 'sessions', name: `RSS per idle terminal entry (${IDLE_ENTRIES} open)`, value: memory, unit: 'KB', goal: '≤ 232 KB' },
    { section: 'sessions', name: `RSS of the screen worker pool, fixed (${pool.workers} workers)`, value: pool.kb, unit: 'KB' },
    { section: 'sessions', name: 'RSS of the PTY thread, fixed', value: ptyThread, unit: 'KB' },
  ];
}
