/**
 * End-to-end detection against real agent recordings (test/fixtures/recordings: Claude Code 2.1.197
 * at the top, one folder per further CLI): each replayed at its original timing (virtual clock)
 * into a StatusTracker over the real ScreenModel with the agent's preset, sampled every 100 ms and
 * scored against the truth file outside tolerance windows and outside `starting`.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePreset } from '../agents';
import { listRecordings, loadRecording, recordingsDir, type Recording } from './replay/asciicast';
import { replayRecording, type ReplayScore } from './replay/replayRecording';

interface RecordingSet {
  cli: string;
  preset: string;
  dir: string;
  /** A missing recording is a failure, not a skip. */
  expected: number;
  /** Per recording. */
  minAgreement: number;
}

const SETS: RecordingSet[] = [
  // The goal set when the Claude Code preset was first measured.
  { cli: 'Claude Code', preset: 'claude', dir: recordingsDir(), expected: 6, minAgreement: 0.95 },
  // A verified preset's goal.
  { cli: 'Gemini CLI', preset: 'gemini', dir: path.join(recordingsDir(), 'gemini'), expected: 8, minAgreement: 0.97 },
];

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** Truth waiting/permission stretches during which the tracker never said waiting/permission (tolerance included). */
export function missedPermissionPrompts(recording: Recording, result: ReplayScore): number {
  const tolerance = recording.truth.tolerance_ms;
  return recording.truth.intervals
    .filter((i) => i.primary === 'waiting' && i.detail === 'permission')
    .filter(
      (i) =>
        !result.samples.some(
          (s) => s.ms >= i.start_ms && s.ms < i.end_ms + tolerance && s.status.primary === 'waiting' && s.status.detail === 'permission',
        ),
    ).length;
}

describe.each(SETS)('$cli recordings replayed into a StatusTracker', (set) => {
  const names = listRecordings(set.dir);

  it(`finds all ${set.expected} recordings in ${set.dir}`, () => {
    expect(names).toHaveLength(set.expected);
  });

  it.each(names)('%s agrees with its ground truth and misses no permission prompt', async (name) => {
    const recording = loadRecording(name, set.dir);
    const result = await replayRecording(recording, resolvePreset(set.preset));
    const missed = missedPermissionPrompts(recording, result);
    console.log(
      `[agreement] ${set.cli} ${name}: ${pct(result.agreement)} primary+detail, ${pct(result.primaryAgreement)} primary ` +
        `(${result.scored} samples, ${missed} missed prompts)` +
        (result.mismatches.length
          ? '\n  ' +
            result.mismatches
              .map((m) => `${m.ms} ms: truth ${m.truth.primary}/${m.truth.detail}, got ${m.got.primary}/${m.got.detail} (${m.got.reason})`)
              .join('\n  ')
          : ''),
    );
    expect(result.scored).toBeGreaterThan(30);
    expect(result.agreement).toBeGreaterThanOrEqual(set.minAgreement);
    expect(missed).toBe(0);
  });
});
