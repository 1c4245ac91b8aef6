import { describe, expect, it } from 'vitest';
import { progressFingerprint } from './progress';
import { ruleSetFor } from './rules';

const claude = ruleSetFor('claude').progressNormalizers;

describe('progressFingerprint', () => {
  it('ignores spinner frames, elapsed time and token counters (Claude Code 2.1.197 rows)', () => {
    const a = ['● Bash(sleep 10 && echo done)', '  ⎿  Running… (3s)', '', '✶ Zesting… (9s · ↓ 20 tokens)'];
    const b = ['  Bash(sleep 10 && echo done)', '  ⎿  Running… (8s)', '', '✻ Zesting… (14s · ↓ 27 tokens)'];
    expect(progressFingerprint(a, claude)).toBe(progressFingerprint(b, claude));
  });

  it('ignores a retry countdown, and braille frames in any row', () => {
    expect(progressFingerprint(['✻ API error · Retrying in 2s · attempt 2/10'], claude)).toBe(
      progressFingerprint(['✻ API error · Retrying in 1s · attempt 2/10'], claude),
    );
    expect(progressFingerprint(['⠋ Working'], [])).toBe(progressFingerprint(['⠙ Working'], []));
  });

  it('sees real change: new text, a new retry attempt, a finished tool', () => {
    const base = progressFingerprint(['● The mock model is', '✶ Zesting…'], claude);
    expect(progressFingerprint(['● The mock model is streaming', '✶ Zesting…'], claude)).not.toBe(base);
    expect(progressFingerprint(['✻ API error · Retrying in 1s · attempt 3/10'], claude)).not.toBe(
      progressFingerprint(['✻ API error · Retrying in 1s · attempt 2/10'], claude),
    );
    expect(progressFingerprint(['  ⎿  done'], claude)).not.toBe(progressFingerprint(['  ⎿  Running… (3s)'], claude));
  });
});
