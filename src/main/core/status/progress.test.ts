import { describe, expect, it } from 'vitest';
import { meaningfulRows, ProgressDetector } from './progress';
import { ruleSetFor } from './rules';

const claude = ruleSetFor('claude').progressNormalizers;

/** Feeds screens in order; returns which of them counted as progress (the first always does). */
function progressOf(screens: string[][], normalizers = claude): boolean[] {
  const detector = new ProgressDetector(normalizers);
  return screens.map((s) => detector.observe(s));
}

describe('meaningfulRows', () => {
  it('ignores spinner frames, elapsed time and token counters (Claude Code 2.1.197 rows)', () => {
    const a = ['● Bash(sleep 10 && echo done)', '  ⎿  Running… (3s)', '', '✶ Zesting… (9s · ↓ 20 tokens)'];
    const b = ['  Bash(sleep 10 && echo done)', '  ⎿  Running… (8s)', '', '✻ Zesting… (14s · ↓ 27 tokens)'];
    expect(meaningfulRows(a, claude)).toEqual(meaningfulRows(b, claude));
  });

  it('drops rows that are animation as a whole: spinner rows, busy status rows, tips', () => {
    expect(
      meaningfulRows(
        [
          '✶ Thundering… (22s · ↓ 1.2k tokens · esc to interrupt)',
          '• Working (5s • esc to interrupt)',
          '⠏ Consulting the digital spirits... (esc to cancel, 3s)',
          '  ⎿  Tip: Use /memory to edit what Claude remembers',
          '  esc to interrupt · ← for agents',
          '● The answer so far',
        ],
        claude,
      ),
    ).toEqual(['The answer so far']);
  });
});

describe('ProgressDetector', () => {
  it('regression: an elapsed-time suffix APPEARING on the spinner row is not progress (held-out 30 s stall)', () => {
    expect(
      progressOf([
        ['❯ Summarise the repo', '', '✶ Thundering…'],
        ['❯ Summarise the repo', '', '✻ Thundering… (5s)'],
        ['❯ Summarise the repo', '', '✽ Thundering… (22s · ↓ 1.2k tokens · esc to interrupt)'],
        ['❯ Summarise the repo', '', '· Thundering… (23s · esc to interrupt)'],
      ]),
    ).toEqual([true, false, false, false]);
  });

  it('a rotating verb, a rotating tip and a row that disappears and comes back are not progress', () => {
    expect(
      progressOf([
        ['❯ Fix the tests', '', '✶ Zesting… (3s)', '  ⎿  Tip: Press Esc twice to edit a previous message'],
        ['❯ Fix the tests', '', '✻ Drizzling… (4s)', '  ⎿  Tip: Use /memory to edit what Claude remembers'],
        ['❯ Fix the tests', '', '✢ Pondering… (5s)'],
        ['❯ Fix the tests', '', '✢ Pondering… (6s)', '  ⎿  Tip: Press Esc twice to edit a previous message'],
      ]),
    ).toEqual([true, false, false, false]);
  });

  it('ignores a retry countdown, and braille frames in any row', () => {
    expect(progressOf([['✻ API error · Retrying in 2s · attempt 2/10'], ['✻ API error · Retrying in 1s · attempt 2/10']])).toEqual([
      true,
      false,
    ]);
    expect(progressOf([['⠋ Working'], ['⠙ Working']], [])).toEqual([true, false]);
  });

  it('sees real change: new text, a new retry attempt, a finished tool', () => {
    expect(
      progressOf([
        ['● The mock model is', '✶ Zesting…'],
        ['● The mock model is streaming', '✶ Zesting…'],
      ]),
    ).toEqual([true, true]);
    expect(progressOf([['✻ API error · Retrying in 1s · attempt 2/10'], ['✻ API error · Retrying in 1s · attempt 3/10']])).toEqual([
      true,
      true,
    ]);
    expect(progressOf([['  ⎿  Running… (3s)'], ['  ⎿  done']])).toEqual([true, true]);
  });

  it('starts over after reset (a new run)', () => {
    const detector = new ProgressDetector(claude);
    expect(detector.observe(['❯ hi'])).toBe(true);
    expect(detector.observe(['❯ hi'])).toBe(false);
    detector.reset();
    expect(detector.observe(['❯ hi'])).toBe(true);
  });
});
