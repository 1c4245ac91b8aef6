/**
 * End-to-end detection against real CLI recordings: every set under test/fixtures/recordings/<cli>/
 * (the folder names the preset) is replayed at its original timing (virtual clock) into a
 * StatusTracker over the real ScreenModel, sampled every 100 ms and scored against its truth file
 * outside tolerance windows and outside `starting`. The recordings must have been made with the
 * CLI version installed here, so a devDependency upgrade fails until they are re-recorded.
 */
import { describe, expect, it } from 'vitest';
import { resolvePreset } from '../agents';
import {
  installedVersion,
  isCandidateSet,
  listRecordingSets,
  recordingSetLabel,
  scoreRecordingSet,
  versionOf,
  type RecordingSetScore,
} from './replay/recordingSets';
import { loadRecording, recordingsRoot } from './replay/asciicast';
import { replayRecording } from './replay/replayRecording';

/** The goals for every verified preset. */
const MIN_AGREEMENT = 0.97;
const MAX_TRANSITION_P95_MS = 300;
/** Each recording on its own must still be clearly right (a short one can't hide in the pool). */
const MIN_RECORDING_AGREEMENT = 0.95;

const sets = listRecordingSets();
/** Presets run against their real CLI meet the bar below; a set of an unverified preset is scored and reported, and says why it is not verified. */
const isVerified = (cli: string) => resolvePreset(cli).verified !== 'unverified';
/** A newer CLI version's set awaits the pin: reported like an unverified preset's (recordingSets.ts). */
const isCandidate = (set: (typeof sets)[number]) => isCandidateSet(set, resolvePreset(set.cli).npmPackage);
const verifiedSets = sets.filter((s) => isVerified(s.cli) && !isCandidate(s));
const unverifiedSets = sets.filter((s) => !isVerified(s.cli) || isCandidate(s));
/** The Claude Code set ships with the repository; finding none is a failure, not a skip. */
const CLAUDE_RECORDINGS = 11;

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function describeScore(score: RecordingSetScore): string {
  return score.recordings
    .map(
      (r) =>
        `[agreement] ${score.cli}/${r.name}: ${pct(r.agreement)} primary+detail, ${pct(r.primaryAgreement)} primary (${r.scored} samples)` +
        r.mismatches
          .map((m) => `\n  ${m.ms} ms: truth ${m.truth.primary}/${m.truth.detail}, got ${m.got.primary}/${m.got.detail} (${m.got.reason})`)
          .join('') +
        r.timing.flickers.map((f) => `\n  flicker at ${Math.round(f.ms)} ms: ${f.primary}/${f.detail}`).join(''),
    )
    .join('\n');
}

describe('CLI recordings replayed into a StatusTracker', () => {
  it(`finds the ${CLAUDE_RECORDINGS} Claude Code recordings in ${recordingsRoot()}/claude`, () => {
    expect(sets.find((s) => s.cli === 'claude' && !s.version)?.names).toHaveLength(CLAUDE_RECORDINGS);
  });

  // Another version's set (`<cli>/<version>/`) must hold that version's recordings.
  it.each(sets.map((s) => [recordingSetLabel(s), s] as const))('%s: recorded with the installed CLI version', (_cli, set) => {
    const preset = resolvePreset(set.cli);
    expect(preset.isGeneric, `recordings folder "${set.cli}" must be named after a preset id`).toBe(false);
    if (!preset.npmPackage) return;
    const installed = set.version ?? installedVersion(preset.npmPackage);
    for (const name of set.names) {
      const recorded = versionOf(loadRecording(name, set.dir).truth.agent_version);
      expect(
        recorded,
        `${set.cli}/${name} was recorded with ${preset.npmPackage} ${recorded} but ${installed ?? 'no version'} is installed: ` +
          `its screens may have changed — re-record the set (see test/fixtures/recordings/README.md) and re-cut the rules`,
      ).toBe(installed);
    }
  });

  /** Each set is replayed once; both tests below read the same score. */
  const scores = new Map<string, Promise<RecordingSetScore>>();
  const scoreOf = (set: (typeof sets)[number]) => {
    if (!scores.has(set.dir)) scores.set(set.dir, scoreRecordingSet(set, resolvePreset(set.cli)));
    return scores.get(set.dir)!;
  };

  it.each(verifiedSets.map((s) => [recordingSetLabel(s), s] as const))(
    '%s: agrees with the ground truth, misses no prompt, never flickers or reads low-confidence',
    async (_cli, set) => {
      const score = await scoreOf(set);
      console.log(
        `${describeScore(score)}\n[score] ${recordingSetLabel(set)}: ${pct(score.agreement)} of ${score.scored} samples, ` +
          `${score.missedPrompts}/${score.prompts} prompts missed, transition p95 ${Math.round(score.transitionP95Ms)} ms`,
      );
      expect(score.scored).toBeGreaterThan(30 * set.names.length);
      expect(score.agreement).toBeGreaterThanOrEqual(MIN_AGREEMENT);
      for (const r of score.recordings) expect(r.agreement, r.name).toBeGreaterThanOrEqual(MIN_RECORDING_AGREEMENT);
      expect(score.missedPrompts).toBe(0);
      // Screens no rule knows (a changed CLI) would read low-confidence.
      expect(score.recordings.map((r) => [r.name, r.lowConfidence])).toEqual(score.recordings.map((r) => [r.name, 0]));
      expect(score.recordings.flatMap((r) => r.timing.flickers)).toEqual([]);
      expect(score.missedStucks).toBe(0);
    },
  );

  it.each(verifiedSets.map((s) => [recordingSetLabel(s), s] as const))(
    '%s: shows each true transition within 300 ms (p95)',
    async (_cli, set) => {
      const score = await scoreOf(set);
      const slowest = score.recordings
        .flatMap((r) => r.timing.latenciesMs.map((ms, i) => ({ ms, at: `${r.name} transition ${i + 1}` })))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 5)
        .map((t) => `${t.at}: ${Math.round(t.ms)} ms`);
      expect(score.transitionP95Ms, `slowest transitions: ${slowest.join(', ')}`).toBeLessThanOrEqual(MAX_TRANSITION_P95_MS);
    },
  );

  // Not verified yet (a preset, or a newer CLI version's set): the numbers are printed (and in `npm run agents:score`); a missed permission prompt still fails.
  it.each(unverifiedSets.map((s) => [recordingSetLabel(s), s] as const))(
    '%s (unverified preset or newer CLI): scored and reported, no missed prompt',
    async (_cli, set) => {
      const score = await scoreOf(set);
      console.log(
        `${describeScore(score)}\n[score] ${recordingSetLabel(set)} (unverified): ${pct(score.agreement)} of ${score.scored} samples, ` +
          `${score.missedPrompts}/${score.prompts} prompts missed, transition p95 ${Math.round(score.transitionP95Ms)} ms`,
      );
      expect(score.scored).toBeGreaterThan(30 * set.names.length);
      expect(score.missedPrompts).toBe(0);
    },
  );

  it('opencode: the blank start screen is never idle; the first idle is its drawn prompt (regression: blank start screen read as idle)', async () => {
    const set = sets.find((s) => s.cli === 'opencode' && !s.version);
    expect(set, 'the opencode recordings').toBeDefined();
    for (const name of set!.names) {
      const replay = await replayRecording(loadRecording(name, set!.dir), resolvePreset('opencode'));
      const firstIdle = replay.transitions.findIndex((t) => t.primary === 'idle');
      expect(replay.transitions[firstIdle]?.reason, name).toMatch(/^opencode\/(start-screen|idle-hint-row)$/);
      const beforePrompt = replay.transitions.slice(0, firstIdle).filter((t) => t.primary !== 'starting');
      expect(
        beforePrompt.map((t) => `${t.ms} ms ${t.primary} ${t.reason}`),
        name,
      ).toEqual([]);
    }
  });
});
