/**
 * Every CLI's recordings under the recordings root (one folder per CLI, named after its preset),
 * replayed through a StatusTracker and scored as a set: agreement over all scored samples, missed
 * prompts, transition delays and stuck delays. `npm run agents:score` and the replay tests use it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { listRecordings, loadRecording, recordingsRoot, type Recording } from './asciicast';
import { replayRecording, type ReplayScore } from './replayRecording';
import { percentile, timeTransitions, type TransitionTiming } from './transitionTiming';
import type { DetectionProfile } from '../statusTracker';

interface RecordingSet {
  /** The folder name: the preset id of the CLI. */
  cli: string;
  dir: string;
  names: string[];
  /**
   * Set for another CLI version's recordings, kept in `<cli>/<version>/`: an earlier version's after
   * an upgrade (the rules keep reading the screens of users who have not updated), or a newer one
   * recorded before the pin moves to it (see {@link isNewerVersion}); unset for the pinned version's.
   */
  version?: string;
}

/** This file lives in src/main/core/status/replay. */
const REPO_ROOT = path.resolve(__dirname, '../../../../..');

/** A subfolder of a CLI's recordings named after the version they were made with. */
const VERSION_FOLDER = /^\d+\.\d+\.\d+(?:[-+][\w.]+)?$/u;

interface RecordingScore extends ReplayScore {
  timing: TransitionTiming;
}

export interface RecordingSetScore {
  cli: string;
  /** CLI version(s) the recordings were made with (their truth files' `agent_version`). */
  recordedVersions: string[];
  recordings: RecordingScore[];
  scored: number;
  /** Primary and detail, pooled over every scored sample of the set. */
  agreement: number;
  prompts: number;
  missedPrompts: number;
  transitions: number;
  transitionP50Ms: number;
  transitionP95Ms: number;
  unmatchedTransitions: number;
  stuckDelaysMs: number[];
  missedStucks: number;
  flickers: number;
}

/** Every CLI's pinned set, each followed by its other versions' sets (`<cli>/<version>/`). */
export function listRecordingSets(root = recordingsRoot()): RecordingSet[] {
  if (!existsSync(root)) return [];
  return subfolders(root)
    .flatMap((cli) => {
      const dir = path.join(root, cli);
      const previous = subfolders(dir)
        .filter((name) => VERSION_FOLDER.test(name))
        .map((version) => ({ cli, dir: path.join(dir, version), names: listRecordings(path.join(dir, version)), version }));
      return [{ cli, dir, names: listRecordings(dir) }, ...previous];
    })
    .filter((set) => set.names.length > 0);
}

/** Whether version `a` (x.y.z) is newer than `b`. */
function isNewerVersion(a: string, b: string): boolean {
  const pa = a.split(/[.+-]/u).map(Number);
  const pb = b.split(/[.+-]/u).map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) > (pb[i] ?? 0);
  return false;
}

/** The version of `npmPackage` installed here (a devDependency), if any. */
export function installedVersion(npmPackage: string): string | undefined {
  const manifest = path.join(REPO_ROOT, 'node_modules', npmPackage, 'package.json');
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : undefined;
}

/**
 * A set of a version newer than the installed one (`npmPackage`'s) was recorded before the pin
 * moves to it (the newest release, `npm run agents:drift`): it is scored and reported, and must
 * miss no prompt, until it meets the full bar and the pin moves.
 */
export function isCandidateSet(set: RecordingSet, npmPackage: string | undefined): boolean {
  const installed = npmPackage ? installedVersion(npmPackage) : undefined;
  return set.version !== undefined && installed !== undefined && isNewerVersion(set.version, installed);
}

/** `codex` for the pinned set, `codex@0.169.0` for another version's. */
export function recordingSetLabel(set: RecordingSet): string {
  return set.version ? `${set.cli}@${set.version}` : set.cli;
}

function subfolders(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => statSync(path.join(dir, name)).isDirectory())
    .sort();
}

/** `2.1.197` out of `2.1.197 (Claude Code)`; the whole string when it holds no x.y.z. */
export function versionOf(agentVersion: string): string {
  return /\d+\.\d+\.\d+(?:[-+][\w.]+)?/.exec(agentVersion)?.[0] ?? agentVersion.trim();
}

/** A preset whose wiring installs the CLI's hooks is scored with the hooks its recordings logged, as it runs live. */
type ScoredProfile = DetectionProfile & { hasHooks?: boolean };

async function scoreRecording(recording: Recording, profile: ScoredProfile): Promise<RecordingScore> {
  const result = await replayRecording(recording, profile, { withHooks: profile.hasHooks === true });
  return { ...result, timing: timeTransitions(recording.truth, result.transitions) };
}

export async function scoreRecordingSet(set: RecordingSet, profile: ScoredProfile): Promise<RecordingSetScore> {
  const recordings: RecordingScore[] = [];
  const versions = new Set<string>();
  for (const name of set.names) {
    const recording = loadRecording(name, set.dir);
    versions.add(versionOf(recording.truth.agent_version));
    recordings.push(await scoreRecording(recording, profile));
  }
  const scored = sum(recordings.map((r) => r.scored));
  const agreeing = sum(recordings.map((r) => r.scored - r.mismatches.length));
  const latencies = recordings.flatMap((r) => r.timing.latenciesMs);
  return {
    cli: set.cli,
    recordedVersions: [...versions].sort(),
    recordings,
    scored,
    agreement: scored ? agreeing / scored : 0,
    prompts: sum(recordings.map((r) => r.timing.prompts)),
    missedPrompts: sum(recordings.map((r) => r.timing.missedPrompts)),
    transitions: latencies.length,
    transitionP50Ms: percentile(latencies, 0.5),
    transitionP95Ms: percentile(latencies, 0.95),
    unmatchedTransitions: sum(recordings.map((r) => r.timing.unmatched)),
    stuckDelaysMs: recordings.flatMap((r) => r.timing.stuckDelaysMs),
    missedStucks: sum(recordings.map((r) => r.timing.missedStucks)),
    flickers: sum(recordings.map((r) => r.timing.flickers.length)),
  };
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
