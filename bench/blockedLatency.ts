/**
 * Blocked transition latency (issue 30's benchmark): from the CLI's own error screen reaching the
 * PTY to the tracker's blocked (or retrying) status, per CLI, through the real path — a process in
 * a real PTY spawned by the core under the CLI's preset, its output parsed by the headless screen
 * and read by the preset's tracker. The process replays each CLI's screens as drawn (the rule
 * samples, crops of recorded or observed screens): a busy screen, then the blocked one, in rounds.
 * Baseline, same run and same tracker: the latency of the ordinary transition into busy. Each frame
 * carries a private OSC marker the screen ignores, so the moment its bytes reach the core is known.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BUILTIN_PRESETS } from '../src/main/core/agents';
import { buildCore } from '../src/main/core/composition';
import { isBlockedDetail, type AgentStatusInfo } from '../src/shared/status';
import { percentile, type BenchRow } from './report';

const ROUNDS = 20;
const BUSY_HOLD_MS = 600;
const BLOCKED_HOLD_MS = 700;
/** The start-up grace (2.5 s) and a margin: the first busy frame comes once the tracker left `starting`. */
const FIRST_FRAME_AFTER_MS = 3_500;

interface Frames {
  cli: string;
  idle: string;
  busy: string;
  blocked: string;
  blockedRule: string;
}

/**
 * For every preset: its idle, plain busy and first blocked (else retrying) screen rule samples read
 * from the screen alone (no title, no state report), and its retries-given-up screen
 * (`waiting · api_error`) when it has one.
 */
function framesPerCli(): Frames[] {
  const out: Frames[] = [];
  for (const preset of BUILTIN_PRESETS.values()) {
    const screenRules = preset.rules.rules.filter(
      (r) => r.region !== 'osc_state' && r.sampleTitle === undefined && r.sampleState === undefined,
    );
    const idle = screenRules.find((r) => r.implies.primary === 'idle');
    const isActive = (detail: string | null) => screenRules.find((r) => r.implies.primary === 'active' && r.implies.detail === detail);
    // A plain busy screen: one that names its detail, so leaving a retry for it is a visible change.
    const busy = isActive('thinking') ?? isActive(null);
    const blocked =
      screenRules.find((r) => r.implies.primary === 'waiting' && isBlockedDetail(r.implies.detail)) ??
      screenRules.find((r) => r.implies.detail === 'retrying');
    const gaveUp = screenRules.find((r) => r.implies.primary === 'waiting' && r.implies.detail === 'api_error');
    if (!idle || !busy) continue;
    for (const rule of new Set([blocked, gaveUp])) {
      if (rule) out.push({ cli: preset.id, idle: idle.sample, busy: busy.sample, blocked: rule.sample, blockedRule: rule.id });
    }
  }
  return out;
}

/** The replaying process: draws each frame (cleared screen, rows, private marker) on its schedule. */
const PLAYER = `
const frames = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'));
const draw = (name, rows) => process.stdout.write('\\x1b[2J\\x1b[H' + rows.split('\\n').join('\\r\\n') + '\\x1b]7777;' + name + '\\x07');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
(async () => {
  draw('idle', frames.idle);
  await sleep(${FIRST_FRAME_AFTER_MS});
  for (let i = 0; i < ${ROUNDS}; i++) {
    draw('busy-' + i, frames.busy);
    await sleep(${BUSY_HOLD_MS});
    draw('blocked-' + i, frames.blocked);
    await sleep(${BLOCKED_HOLD_MS});
  }
  await sleep(60000);
})();
`;

/** The private OSC marker the player ends each frame with (ESC ] 7777 ; name BEL). */
const FRAME_MARKER = new RegExp(`${String.fromCharCode(27)}\\]7777;(busy|blocked)-(\\d+)${String.fromCharCode(7)}`, 'u');

interface CliLatency {
  cli: string;
  rule: string;
  blockedMs: number[];
  busyMs: number[];
  /** Frames whose state was never shown before the next frame came, per kind. */
  missed: { busy: number; blocked: number };
}

async function measureCli(frames: Frames, dir: string): Promise<CliLatency> {
  const core = buildCore({ projectDir: mkdtempSync(join(dir, `${frames.cli}-`)), watchConfig: false, killGraceMs: 500 });
  await core.init();
  const file = join(dir, `${frames.cli}-${frames.blockedRule}.json`);
  writeFileSync(file, JSON.stringify(frames));
  const result: CliLatency = { cli: frames.cli, rule: frames.blockedRule, blockedMs: [], busyMs: [], missed: { busy: 0, blocked: 0 } };
  try {
    const info = await core.spawnAgent({
      preset: frames.cli,
      name: frames.cli,
      argv: [process.execPath, '-e', PLAYER, file],
      env: {},
      cwd: dir,
    });
    const pending: { kind: 'busy' | 'blocked'; at: number } = { kind: 'busy', at: NaN };
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => (done = resolve));
    core.entry(info.id).onDidWriteOutput((chunk) => {
      const m = FRAME_MARKER.exec(chunk.text);
      if (!m) return;
      if (!Number.isNaN(pending.at)) result.missed[pending.kind]++;
      pending.kind = m[1] as 'busy' | 'blocked';
      pending.at = performance.now();
      if (pending.kind === 'blocked' && Number(m[2]) === ROUNDS - 1) setTimeout(() => done(), BLOCKED_HOLD_MS);
    });
    core.statusTrackerOf(info.id).onDidChangeStatus((s: AgentStatusInfo) => {
      if (Number.isNaN(pending.at)) return;
      const isBlocked = (s.primary === 'waiting' && isBlockedDetail(s.detail)) || s.detail === 'retrying';
      const reached = pending.kind === 'blocked' ? isBlocked : s.primary === 'active' && !isBlocked;
      if (!reached) return;
      (pending.kind === 'blocked' ? result.blockedMs : result.busyMs).push(performance.now() - pending.at);
      pending.at = NaN;
    });
    await finished;
    if (!Number.isNaN(pending.at)) result.missed[pending.kind]++;
  } finally {
    await core.dispose();
  }
  return result;
}

export async function benchBlockedLatency(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-bench-blocked-'));
  const rows: BenchRow[] = [];
  try {
    for (const frames of framesPerCli()) {
      const r = await measureCli(frames, dir);
      const p95 = percentile(r.blockedMs, 95);
      const baseline = percentile(r.busyMs, 95);
      rows.push({
        section: 'agents',
        name: `blocked transition latency p95, ${r.cli} (${r.rule}; ${r.blockedMs.length}/${ROUNDS} rounds; baseline: into busy, ${r.busyMs.length}/${ROUNDS})`,
        value: p95,
        unit: 'ms',
        baseline,
        ratio: p95 / baseline,
        goal: '≤ 300 ms',
        met: r.missed.blocked === 0 && r.blockedMs.length === ROUNDS && p95 <= 300,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
