/**
 * A working day at once: 10 agent sessions streaming (recordings replayed at 4× through real
 * PTYs), 4 servers logging 1 MB/s, 2 floods at full speed and 32 MCP clients polling
 * list_processes every 100 ms (in a process of their own, as agents are), all on one core. Measured together: the main thread's event-loop
 * lag p99, echo latency p99 in an idle shell, and the agents' status event latency p95 (from the
 * output chunk that preceded a status change to the change event).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { spawn } from 'node:child_process';
import type { SwitchboardCore } from '../src/main/core/app';
import { buildCore } from '../src/main/core/composition';
import { McpService } from '../src/main/core/mcp';
import { percentile, type BenchRow } from './report';
import { timeEcho } from './echo';

const SECTION = 'dayload';
const AGENTS = 10;
const REPLAY_SPEED = 4;
const SERVERS = 4;
const SERVER_BYTES_PER_SECOND = 1024 * 1024;
const FLOODS = 2;
const MCP_CLIENTS = 32;
const POLL_INTERVAL_MS = 100;
const WARMUP_MS = 3_000;
const MEASURE_MS = Number(process.env.BENCH_DAYLOAD_SECONDS ?? 20) * 1000;
const ECHO_INTERVAL_MS = 50;
const RECORDINGS = resolve(__dirname, '../test/fixtures/recordings/claude');
const FIXTURES = resolve(__dirname, 'fixtures');

function casts(): string[] {
  return readdirSync(RECORDINGS)
    .filter((name) => name.endsWith('.cast'))
    .map((name) => join(RECORDINGS, name));
}

/** The MCP clients, in their own process; resolves once connected, with their latencies at the end. */
async function startPollers(url: string, token: string): Promise<{ latencies: Promise<number[]>; kill: () => void }> {
  const args = [
    join(FIXTURES, 'mcpPollers.mjs'),
    url,
    token,
    String(MCP_CLIENTS),
    String(POLL_INTERVAL_MS),
    String(WARMUP_MS),
    String(MEASURE_MS),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8');
  const connected = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (text: string) => {
      output += text;
      if (output.startsWith('connected\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`MCP pollers exited with ${code} before connecting`)));
  });
  const latencies = new Promise<number[]>((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output.split('\n')[1]) as number[]) : reject(new Error(`MCP pollers exited with ${code}`)),
    ),
  );
  await connected;
  return { latencies, kill: () => child.kill('SIGKILL') };
}

/** Status events of agent entries, each with the delay since that entry's previous output chunk. */
function watchStatusLatency(core: SwitchboardCore, agentIds: Set<string>, isMeasuring: () => boolean): number[] {
  const lastOutputAt = new Map<string, number>();
  const lastStatus = new Map<string, string>();
  const latencies: number[] = [];
  for (const id of agentIds) core.entry(id).onDidWriteOutput(() => lastOutputAt.set(id, performance.now()));
  core.onEvent((event) => {
    if (event.type !== 'processChanged' || !agentIds.has(event.process.id)) return;
    const status = event.process.agent?.primary;
    if (!status || status === lastStatus.get(event.process.id)) return;
    lastStatus.set(event.process.id, status);
    const outputAt = lastOutputAt.get(event.process.id);
    if (isMeasuring() && outputAt !== undefined) latencies.push(performance.now() - outputAt);
  });
  return latencies;
}

/** Types a marker into an idle `cat` every ECHO_INTERVAL_MS and times its echo. */
async function echoLoop(core: SwitchboardCore, id: string, until: number): Promise<number[]> {
  const entry = core.entry(id);
  const samples: number[] = [];
  for (let i = 0; performance.now() < until; i++) {
    samples.push(await timeEcho(entry, `d${i}y`));
    await new Promise((r) => setTimeout(r, ECHO_INTERVAL_MS));
  }
  return samples;
}

export async function benchDayload(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'bench-dayload-'));
  const core = buildCore({ projectDir: root, watchConfig: false, killGraceMs: 500 });
  const mcp = await McpService.start({ core, dataDir: join(root, 'data') });
  let pollers: { latencies: Promise<number[]>; kill: () => void } | undefined;
  const lag = monitorEventLoopDelay({ resolution: 5 });
  try {
    await core.init();
    const recordings = casts();
    const agentIds = new Set<string>();
    for (let i = 0; i < AGENTS; i++) {
      const cast = recordings[i % recordings.length];
      const argv = [process.execPath, join(FIXTURES, 'castReplay.mjs'), cast, String(REPLAY_SPEED)];
      const info = await core.spawnAgent({ preset: 'claude', name: `agent-${i}`, argv, cols: 120, rows: 40 });
      agentIds.add(info.id);
    }
    for (let i = 0; i < SERVERS; i++) {
      const argv = [process.execPath, join(FIXTURES, 'steadyLogger.mjs'), String(SERVER_BYTES_PER_SECOND)];
      await core.spawnProcess({ kind: 'command', argv, name: `server-${i}` });
    }
    for (let i = 0; i < FLOODS; i++) await core.spawnProcess({ kind: 'command', shell: `yes dayload-flood-line-${i}`, name: `flood-${i}` });
    const shell = await core.spawnProcess({ kind: 'terminal', argv: ['cat'], name: 'idle-shell' });
    pollers = await startPollers(mcp.url, mcp.token);

    let measuring = false;
    const statusLatencies = watchStatusLatency(core, agentIds, () => measuring);
    const until = performance.now() + WARMUP_MS + MEASURE_MS;
    await new Promise((r) => setTimeout(r, WARMUP_MS));
    measuring = true;
    lag.enable();
    const echoes = await echoLoop(core, shell.id, until);
    const pollLatencies = await pollers.latencies;
    lag.disable();
    measuring = false;
    return [
      { section: SECTION, name: 'event-loop lag p99 (main thread)', value: lag.percentile(99) / 1e6, unit: 'ms', goal: '< 20 ms' },
      { section: SECTION, name: 'echo latency p99 in an idle shell', value: percentile(echoes, 99), unit: 'ms', goal: '< 30 ms' },
      {
        section: SECTION,
        name: `status event latency p95 (${statusLatencies.length} changes)`,
        value: percentile(statusLatencies, 95),
        unit: 'ms',
        goal: '≤ 300 ms',
      },
      {
        section: SECTION,
        name: `list_processes p99 (${MCP_CLIENTS} clients / ${POLL_INTERVAL_MS} ms)`,
        value: percentile(pollLatencies, 99),
        unit: 'ms',
      },
    ];
  } finally {
    pollers?.kill();
    await mcp.dispose();
    await core.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}
