/**
 * Every CLI's recordings under the recordings root (one folder per CLI, named after its preset),
 * replayed through a StatusTracker and scored as a set: agreement over all scored samples, missed
 * prompts, transition delays and stuck delays. `npm run agents:score` and the replay tests use it.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
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
}

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

export function listRecordingSets(root = recordingsRoot()): RecordingSet[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => statSync(path.join(root, name)).isDirectory())
    .sort()
    .map((cli) => ({ cli, dir: path.join(root, cli), names: listRecordings(path.join(root, cli)) }))
    .filter((set) => set.names.length > 0);
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
