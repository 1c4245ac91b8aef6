/**
 * Probe cost: main-thread time per second spent on liveness probes of 20 ready servers (real
 * listening sockets in child processes), against the same 20 servers with liveness off, measured
 * in this run. Main-thread time is the event loop's active time (performance.eventLoopUtilization);
 * on a loaded machine that includes time the process waited for a core in the middle of a
 * callback, so the process's CPU time per second (every thread: the tcp table reads run in libuv's
 * pool) is shown beside it, which the load does not inflate.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildCore } from '../src/main/core/composition';
import { freePort } from '../test/support/ports';
import type { BenchRow } from './report';

const SERVERS = 20;
/** Long enough for several probes of every server at the slowest period measured. */
const WINDOW_MS = 20_000;
const PERIODS_MS = [10_000, 1_000] as const;

const SERVER = (port: number) =>
  `require('http').createServer((q, r) => r.end('ok')).listen(${port}, '127.0.0.1', () => console.log('listening on http://localhost:${port}'));`;

type Liveness = false | { period: number; failureThreshold: number; timeout: number };

interface Cost {
  /** Event-loop active ms per second. */
  mainThread: number;
  /** Process CPU ms per second. */
  cpu: number;
}

/** Main-thread and CPU ms per second over the window while `SERVERS` ready servers run with `liveness`. */
async function costPerSecond(liveness: Liveness): Promise<Cost> {
  const core = buildCore({ projectDir: mkdtempSync(join(tmpdir(), 'sb-bench-probe-')), watchConfig: false, killGraceMs: 300 });
  await core.init();
  try {
    const ids: string[] = [];
    for (let i = 0; i < SERVERS; i++) {
      const port = await freePort();
      const info = await core.spawnProcess({
        kind: 'command',
        argv: [process.execPath, '-e', SERVER(port)],
        name: `probe-${port}`,
        // Its own ready pattern: the section measures probes after ready, not how the start is judged.
        ready: { port, liveness, readyPatterns: ['^listening on '] },
      });
      ids.push(info.id);
    }
    for (const id of ids) {
      const result = await core.waitForReady(id, 30_000);
      if (!result.success) throw new Error(`bench server did not become ready: ${result.message}`);
    }
    const start = performance.eventLoopUtilization();
    const cpuStart = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const used = performance.eventLoopUtilization(start);
    const cpu = process.cpuUsage(cpuStart);
    const seconds = WINDOW_MS / 1_000;
    return { mainThread: used.active / seconds, cpu: (cpu.user + cpu.system) / 1_000 / seconds };
  } finally {
    await core.dispose();
  }
}

export async function benchProbeCost(): Promise<BenchRow[]> {
  const idle = await costPerSecond(false);
  const rows: BenchRow[] = [
    { section: 'probe cost', name: `${SERVERS} ready servers, liveness off (idle): main thread`, value: idle.mainThread, unit: 'ms/s' },
    { section: 'probe cost', name: `${SERVERS} ready servers, liveness off (idle): CPU`, value: idle.cpu, unit: 'ms/s' },
  ];
  for (const period of PERIODS_MS) {
    const probed = await costPerSecond({ period, failureThreshold: 3, timeout: 1_000 });
    for (const [figure, value, baseline] of [
      ['main thread', probed.mainThread, idle.mainThread],
      ['CPU', probed.cpu, idle.cpu],
    ] as const) {
      rows.push({
        section: 'probe cost',
        name: `${SERVERS} ready servers probed every ${period / 1_000} s: ${figure} (baseline: idle)`,
        value,
        unit: 'ms/s',
        baseline,
        ratio: value / baseline,
        goal: 'ratio ≈ 1 (nothing measurable)',
      });
    }
  }
  return rows;
}
