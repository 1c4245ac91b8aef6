/**
 * Probe cost: main-thread time per second spent on liveness probes of 20 ready servers (real
 * listening sockets in child processes), against the same 20 servers with liveness off, measured
 * in this run. Main-thread time is the event loop's active time (performance.eventLoopUtilization).
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

/** Main-thread ms per second over the window while `SERVERS` ready servers run with `liveness`. */
async function mainThreadMsPerSecond(liveness: Liveness): Promise<number> {
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
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const used = performance.eventLoopUtilization(start);
    return used.active / (WINDOW_MS / 1_000);
  } finally {
    await core.dispose();
  }
}

export async function benchProbeCost(): Promise<BenchRow[]> {
  const idle = await mainThreadMsPerSecond(false);
  const rows: BenchRow[] = [{ section: 'probe cost', name: `${SERVERS} ready servers, liveness off (idle)`, value: idle, unit: 'ms/s' }];
  for (const period of PERIODS_MS) {
    const probed = await mainThreadMsPerSecond({ period, failureThreshold: 3, timeout: 1_000 });
    rows.push({
      section: 'probe cost',
      name: `${SERVERS} ready servers probed every ${period / 1_000} s (baseline: idle)`,
      value: probed,
      unit: 'ms/s',
      baseline: idle,
      ratio: probed / idle,
      goal: 'ratio ≈ 1 (nothing measurable)',
    });
  }
  return rows;
}
