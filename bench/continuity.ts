/**
 * Restart to usable: launching `serve` (the built out/main/serve.js, a real child process) on a
 * data directory holding 20 entries (10 agents with stored conversations, 10 servers) and at
 * least 20 MiB of saved scrollback, until it answers and every entry is restored and every agent
 * resumable — against a launch of the same project on an empty data directory, in the same run,
 * alternating.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createCore } from '../src/main/core/composition';
import { waitForEvent } from '../src/main/core/base/lifecycle';
import { percentile, type BenchRow } from './report';

const SECTION = 'continuity';
const ROOT = resolve(__dirname, '..');
const AGENTS = 10;
const SERVERS = 10;
/** What the saved scrollback of all entries must reach for the figure to mean what it says. */
const MIN_SAVED_BYTES = 20 * 1024 * 1024;
/** The per-entry bound: 20 entries at 1.05 MiB hold ~21 MiB. */
const SAVED_BYTES_PER_ENTRY = Math.ceil((1.05 * MIN_SAVED_BYTES) / (AGENTS + SERVERS));
/** Lines each entry prints: ~116 serialized bytes each at 120 columns, well above the bound. */
const PRINTED_LINES = 12_000;
/** Output arrives in slices of this many lines, SLICE_PAUSE_S apart. */
const LINES_PER_SLICE = 500;
const SLICE_PAUSE_S = 0.2;
const ROUNDS = 5;

interface ProcessSummary {
  id: string;
  kind: string;
}

function projectConfig(claudeConfigDir: string): unknown {
  // Each entry prints ~1.4 MB of numbered lines once (the marker file), then idles. The lines come
  // in slices with pauses, as a day's output does: an instant 1.4 MB is a flood, and the screen
  // model keeps only the newest 1 MB of a flood's backlog (docs/architecture.md).
  const slices = Math.ceil(PRINTED_LINES / LINES_PER_SLICE);
  const print = (name: string) =>
    `test -f .printed-${name} || { i=0; while [ $i -lt ${slices} ]; do ` +
    `seq -f "${name} line %g of the restart benchmark ${'.'.repeat(70)}" $((i * ${LINES_PER_SLICE} + 1)) $((i * ${LINES_PER_SLICE} + ${LINES_PER_SLICE})); ` +
    `i=$((i + 1)); sleep ${SLICE_PAUSE_S}; done; }; touch .printed-${name}; sleep 600`;
  // A stand-in for Claude Code: started with `--session-id <uuid>` ($1 $2), it stores the
  // conversation where Claude Code does, so the agent is resumable after the restart.
  const storeConversation = 'mkdir -p "$CLAUDE_CONFIG_DIR/projects/bench" && touch "$CLAUDE_CONFIG_DIR/projects/bench/$2.jsonl"';
  const agents = Object.fromEntries(
    Array.from({ length: AGENTS }, (_, i) => [
      `agent${i}`,
      {
        preset: 'claude',
        command: '/bin/sh',
        args: ['-c', `${storeConversation}; ${print(`agent${i}`)}`, 'stand-in'],
        env: { CLAUDE_CONFIG_DIR: claudeConfigDir },
      },
    ]),
  );
  const processes = Object.fromEntries(
    Array.from({ length: SERVERS }, (_, i) => [`server${i}`, { command: print(`server${i}`), autoStart: false }]),
  );
  return { settings: { scrollbackLines: PRINTED_LINES, savedScrollbackBytes: SAVED_BYTES_PER_ENTRY }, agents, processes };
}

/** Runs every entry once in-process so the data dir holds their state, sessions and scrollback. */
async function prepareSavedState(projectDir: string, dataDir: string): Promise<number> {
  const handle = await createCore({ projectDir, dataDir, watchConfig: false, killGraceMs: 500, grantTrust: true });
  // One at a time: twenty floods at once on a shared two-core machine take minutes (this is set-up, not measured).
  for (const entry of handle.core.entries()) {
    const done = waitForEvent(entry.onDidWriteOutput, () => entry.ring.tail(200).data.includes(`line ${PRINTED_LINES} of`), 120_000);
    await handle.core.startProcess(entry.id);
    await done.catch((err: unknown) => {
      throw new Error(
        `${entry.name} (${entry.state}: ${entry.message}) did not print its lines: ${String(err)}; tail ${JSON.stringify(entry.ring.tail(300).data.toString())}`,
      );
    });
  }
  await handle.dispose();
  const dir = join(dataDir, 'continuity');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.screen'))
    .reduce((sum, p) => sum + statSync(join(dir, p)).size, 0);
}

async function launchUntilUsable(projectDir: string, dataDir: string, expectRestored: boolean): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'out/main/serve.js'), '--project', projectDir, '--data-dir', dataDir, '--trust'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const line = await new Promise<string>((resolveLine, reject) => {
      createInterface({ input: child.stdout }).once('line', resolveLine);
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    const { url, token } = JSON.parse(line) as { url: string; token: string };
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    const list = (await client.callTool({ name: 'list_processes', arguments: {} })) as CallToolResult;
    const processes = (list.structuredContent as { processes: ProcessSummary[] }).processes;
    // Both launches ask for every entry: the restored one must find each pane restored and each agent resumable.
    for (const p of processes) {
      const status = (await client.callTool({ name: 'get_process_status', arguments: { process_id: p.id } })) as CallToolResult;
      const info = status.structuredContent as { restoredAt?: number; session?: { resumable: boolean } };
      if (expectRestored && !info.restoredAt) throw new Error(`${p.kind} ${p.id} came back without its previous output`);
      if (expectRestored && p.kind === 'agent' && !info.session?.resumable)
        throw new Error(`agent ${p.id} came back without a resumable session`);
    }
    const elapsed = performance.now() - started;
    if (processes.length !== AGENTS + SERVERS) throw new Error(`expected ${AGENTS + SERVERS} entries, found ${processes.length}`);
    await client.close();
    return elapsed;
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

export async function benchContinuity(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'bench-continuity-'));
  try {
    const projectDir = join(root, 'project');
    mkdirSync(projectDir);
    writeFileSync(join(projectDir, 'switchboard.json'), JSON.stringify(projectConfig(join(root, 'claude-config'))));
    const savedDir = join(root, 'saved');
    const savedBytes = await prepareSavedState(projectDir, savedDir);
    if (savedBytes < MIN_SAVED_BYTES) throw new Error(`only ${savedBytes} bytes of scrollback were saved, fewer than ${MIN_SAVED_BYTES}`);
    const restored: number[] = [];
    const empty: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each launch gets a fresh copy: a launch rewrites the state it restored from.
      const copy = join(root, `restore-${round}`);
      cpSync(savedDir, copy, { recursive: true });
      const fresh = join(root, `empty-${round}`);
      mkdirSync(fresh);
      if (round % 2 === 0) {
        restored.push(await launchUntilUsable(projectDir, copy, true));
        empty.push(await launchUntilUsable(projectDir, fresh, false));
      } else {
        empty.push(await launchUntilUsable(projectDir, fresh, false));
        restored.push(await launchUntilUsable(projectDir, copy, true));
      }
    }
    const restoredMs = percentile(restored, 50);
    const emptyMs = percentile(empty, 50);
    return [
      { section: SECTION, name: `saved scrollback of ${AGENTS + SERVERS} entries`, value: savedBytes / (1024 * 1024), unit: 'MiB' },
      {
        section: SECTION,
        name: `launch to usable, ${AGENTS} agents + ${SERVERS} servers restored (p50 of ${ROUNDS})`,
        value: restoredMs,
        unit: 'ms',
        baseline: emptyMs,
        ratio: restoredMs / emptyMs,
        goal: 'baseline: same project, empty data dir',
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
