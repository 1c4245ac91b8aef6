/**
 * End-to-end detection against real agent recordings (test/fixtures/recordings: Claude Code
 * 2.1.197 at the top level, one folder per further CLI recorded by
 * its record.ts): each replayed at its original timing (virtual clock) into a StatusTracker over
 * the real ScreenModel, sampled every 100 ms and scored against the truth file outside tolerance
 * windows and outside `starting`.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePreset } from '../agents';
import { listRecordings, loadRecording, recordingsDir } from './replay/asciicast';
import { replayRecording, type ReplayScore } from './replay/replayRecording';

interface RecordedAgent {
  preset: string;
  /** Folder under the recordings dir ('' for the top level). */
  folder: string;
  /** A missing recording is a failure, not a skip. */
  expected: number;
  /** Agreement each recording must reach (primary + detail). */
  minAgreement: number;
}

const AGENTS: RecordedAgent[] = [
  { preset: 'claude', folder: '', expected: 6, minAgreement: 0.95 },
  { preset: 'qwen', folder: 'qwen', expected: 6, minAgreement: 0.97 },
];

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function report(name: string, result: ReplayScore): string {
  const mismatches = result.mismatches.map(
    (m) => `${m.ms} ms: truth ${m.truth.primary}/${m.truth.detail}, got ${m.got.primary}/${m.got.detail} (${m.got.reason})`,
  );
  return (
    `[agreement] ${name}: ${pct(result.agreement)} primary+detail, ${pct(result.primaryAgreement)} primary ` +
    `(${result.scored} samples, ${result.missedPrompts} missed prompts)` +
    (mismatches.length ? `\n  ${mismatches.join('\n  ')}` : '')
  );
}

for (const agent of AGENTS) {
  const dir = path.join(recordingsDir(), agent.folder);
  const names = listRecordings(dir);

  describe(`${agent.preset} recordings replayed into a StatusTracker`, () => {
    it(`finds all ${agent.expected} recordings in ${dir}`, () => {
      expect(names).toHaveLength(agent.expected);
    });

    it.each(names)('%s agrees with its ground truth', async (name) => {
      const result = await replayRecording(loadRecording(name, dir), resolvePreset(agent.preset));
      console.log(report(name, result));
      expect(result.scored).toBeGreaterThan(30);
      expect(result.missedPrompts).toBe(0);
      expect(result.agreement).toBeGreaterThanOrEqual(agent.minAgreement);
    });
  });
}
