/**
 * End-to-end detection against real Claude Code 2.1.197 recordings (test/fixtures/recordings):
 * each replayed at its original timing (virtual clock) into a StatusTracker over the real
 * ScreenModel, sampled every 100 ms and scored against the truth file outside tolerance windows
 * and outside `starting`.
 */
import { describe, expect, it } from 'vitest';
import { resolvePreset } from '../agents';
import { listRecordings, loadRecording, recordingsDir } from './replay/asciicast';
import { replayRecording } from './replay/replayRecording';

/** Issue 4's goal for every recording. */
const MIN_AGREEMENT = 0.95;

const names = listRecordings();
/** The six recordings in test/fixtures/recordings; a missing one is a failure, not a skip. */
const EXPECTED_RECORDINGS = 6;

describe('Claude Code recordings replayed into a StatusTracker', () => {
  it(`finds all ${EXPECTED_RECORDINGS} recordings in ${recordingsDir()}`, () => {
    expect(names).toHaveLength(EXPECTED_RECORDINGS);
  });

  it.each(names)('%s agrees with its ground truth', async (name) => {
    const recording = loadRecording(name);
    const result = await replayRecording(recording, resolvePreset('claude'));
    const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
    console.log(
      `[agreement] ${name}: ${pct(result.agreement)} primary+detail, ${pct(result.primaryAgreement)} primary ` +
        `(${result.scored} samples)` +
        (result.mismatches.length
          ? '\n  ' +
            result.mismatches
              .map((m) => `${m.ms} ms: truth ${m.truth.primary}/${m.truth.detail}, got ${m.got.primary}/${m.got.detail} (${m.got.reason})`)
              .join('\n  ')
          : ''),
    );
    expect(result.scored).toBeGreaterThan(30);
    expect(result.agreement).toBeGreaterThanOrEqual(MIN_AGREEMENT);
  });
});
