/**
 * `npm run agents:drift` (docs/testing-agents.md): for every verified CLI, the newest version the
 * npm registry serves is installed into a temporary prefix, the CLI's scripted scenarios are
 * recorded with it against the local mocks (its recorder, pointed there by test/fixtures/cliUnderTest.ts)
 * and scored with today's rules, next to the pinned version's recordings. Keeping up with a CLI is
 * then a routine table read, not an incident on a user's machine.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BUILTIN_PRESETS, type AgentPreset } from '../src/main/core/agents';
import { listRecordingSets, scoreRecordingSet, type RecordingSetScore } from '../src/main/core/status';
import { listRecordings } from '../src/main/core/status/replay/asciicast';
import { DRIFT_ENV } from '../test/fixtures/cliUnderTest';
import { printTable } from './agents';

const run = promisify(execFile);
const REPO_ROOT = path.resolve(__dirname, '..');
/** The recorder of each CLI's scripted scenarios; a CLI without one is reported, not replayed. */
const RECORDERS: Readonly<Record<string, string>> = {
  claude: 'test/fixtures/recordings/claude/record.ts',
  codex: 'test/fixtures/recordings/codex/record.ts',
  gemini: 'test/fixtures/gemini/recordGemini.ts',
  qwen: 'test/fixtures/recordings/qwen/record.ts',
  opencode: 'test/fixtures/recordings/opencode/record.ts',
  pi: 'test/fixtures/recordings/pi/record.ts',
  copilot: 'test/fixtures/recordings/copilot/record.ts',
};
/** A recorder runs every scenario with the real CLI: minutes, not hours. */
const RECORD_TIMEOUT_MS = 30 * 60_000;
const INSTALL_TIMEOUT_MS = 10 * 60_000;

interface DriftRow {
  cli: string;
  version: string;
  score: RecordingSetScore | undefined;
  note: string;
}

export async function measureDrift(log: (line: string) => void = console.error): Promise<DriftRow[]> {
  const work = mkdtempSync(path.join(tmpdir(), 'switchboard-drift-'));
  const pinnedSets = new Map(
    listRecordingSets()
      .filter((set) => !set.version)
      .map((set) => [set.cli, set]),
  );
  const rows: DriftRow[] = [];
  for (const preset of BUILTIN_PRESETS.values()) {
    if (preset.verified === 'unverified' || !preset.npmPackage) continue;
    const pinned = preset.verified.cliVersion;
    const set = pinnedSets.get(preset.id);
    rows.push({ cli: preset.displayName, version: pinned, score: set && (await scoreRecordingSet(set, preset)), note: 'pinned' });
    const newest = await newestVersion(preset.npmPackage).catch((err: Error) => err);
    if (newest instanceof Error) {
      rows.push({ cli: preset.displayName, version: '?', score: undefined, note: `npm view failed: ${firstLine(newest.message)}` });
    } else if (newest === pinned) {
      rows.push({ cli: preset.displayName, version: newest, score: undefined, note: 'newest = pinned (the row above)' });
    } else {
      log(`${preset.displayName}: ${pinned} → ${newest}`);
      rows.push(await replayNewest(preset, newest, path.join(work, preset.id), log));
    }
  }
  log(`drift work folder: ${work}`);
  return rows;
}

async function newestVersion(npmPackage: string): Promise<string> {
  const { stdout } = await run('npm', ['view', npmPackage, 'version'], { timeout: 120_000 });
  return stdout.trim();
}

/** Install `version`, record the scripted scenarios with it and score them with today's rules. */
async function replayNewest(preset: AgentPreset, version: string, dir: string, log: (line: string) => void): Promise<DriftRow> {
  const row = { cli: preset.displayName, version, score: undefined };
  const recorder = RECORDERS[preset.id];
  if (!recorder) return { ...row, note: 'no scripted recorder in the repository: not replayed' };
  const prefix = path.join(dir, 'prefix');
  const out = path.join(dir, 'recordings');
  mkdirSync(out, { recursive: true });
  try {
    log(`  npm install --prefix ${prefix} ${preset.npmPackage}@${version}`);
    await run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', `${preset.npmPackage}@${version}`], {
      timeout: INSTALL_TIMEOUT_MS,
    });
    log(`  recording with ${recorder}`);
    const env = { ...process.env, [DRIFT_ENV.prefix]: prefix, [DRIFT_ENV.version]: version, [DRIFT_ENV.out]: out };
    await run('npx', ['tsx', recorder], { cwd: REPO_ROOT, env, timeout: RECORD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    const names = listRecordings(out);
    const note = `failed: ${firstLine((err as Error).message)}`;
    if (names.length === 0) return { ...row, note };
    return {
      ...row,
      score: await scoreRecordingSet({ cli: preset.id, dir: out, names }, preset),
      note: `${note} (scored what was recorded)`,
    };
  }
  const names = listRecordings(out);
  return { ...row, score: await scoreRecordingSet({ cli: preset.id, dir: out, names }, preset), note: `recorded in ${out}` };
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.slice(0, 160) ?? text
  );
}

/** Status samples that read an unrecognised dialog (the rules did not know a dialog on screen). */
function unrecognisedDialogs(score: RecordingSetScore): number {
  return score.recordings.reduce((n, r) => n + r.samples.filter((s) => s.status.reason.endsWith('/unrecognised-dialog')).length, 0);
}

export function printDrift(rows: DriftRow[]): void {
  const header = ['CLI', 'version', 'recordings', 'scored samples', 'agreement', 'missed prompts', 'unrecognised-dialog samples', 'note'];
  const cells = rows.map((r) => [
    r.cli,
    r.version,
    r.score ? String(r.score.recordings.length) : '—',
    r.score ? String(r.score.scored) : '—',
    r.score ? `${(r.score.agreement * 100).toFixed(1)} %` : '—',
    r.score ? `${r.score.missedPrompts}/${r.score.prompts}` : '—',
    r.score ? String(unrecognisedDialogs(r.score)) : '—',
    r.note,
  ]);
  printTable(header, cells);
}
