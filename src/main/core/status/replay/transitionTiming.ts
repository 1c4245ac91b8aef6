/**
 * How fast and how completely a replayed tracker followed the ground truth's transitions: the
 * delay from each true transition (the real event: a token, a keystroke, the end of a stream) to
 * the tracker showing that state, the permission/question prompts it never showed, and how late
 * it called a true `stuck`.
 */
import type { AgentDetail, AgentPrimary } from '../../../../shared/status';
import { truthAt, type TruthFile, type TruthInterval } from './asciicast';

interface ShownTransition {
  ms: number;
  primary: AgentPrimary;
  detail: AgentDetail;
}

export interface TransitionTiming {
  /** One per true transition (leaving start-up excluded): ms until the tracker showed it. */
  latenciesMs: number[];
  /** True transitions whose state the tracker never showed before the next one. */
  unmatched: number;
  /** True waiting intervals (permission, question). */
  prompts: number;
  /** ... of which the tracker never showed `waiting`. */
  missedPrompts: number;
  /** One per true `stuck` interval the tracker called: ms after its start. */
  stuckDelaysMs: number[];
  /** True `stuck` intervals the tracker never called. */
  missedStucks: number;
  /** Changes to a primary the truth never had within its tolerance around that moment (a flicker). */
  flickers: ShownTransition[];
}

export function timeTransitions(truth: TruthFile, shown: readonly ShownTransition[]): TransitionTiming {
  const timing: TransitionTiming = {
    latenciesMs: [],
    unmatched: 0,
    prompts: 0,
    missedPrompts: 0,
    stuckDelaysMs: [],
    missedStucks: 0,
    flickers: [],
  };
  // Only a change of primary can flicker (a new reason for the same state is not one); start-up
  // is not scored: a dialog shown during the grace period is by design.
  timing.flickers = shown.filter(
    (s, i) =>
      i > 0 &&
      s.primary !== shown[i - 1].primary &&
      s.primary !== 'starting' &&
      truthAt(truth, s.ms)?.primary !== 'starting' &&
      !truthHasNear(truth, s),
  );
  truth.intervals.forEach((interval, i) => {
    if (interval.primary === 'waiting') {
      timing.prompts++;
      if (firstShown(shown, interval, (s) => s.primary === 'waiting') === undefined) timing.missedPrompts++;
    }
    if (interval.primary === 'stuck') {
      const at = firstShown(shown, interval, (s) => s.primary === 'stuck');
      if (at === undefined) timing.missedStucks++;
      else timing.stuckDelaysMs.push(at - interval.start_ms);
    }
    const previous = truth.intervals[i - 1];
    if (!previous || previous.primary === 'starting' || interval.primary === 'starting') return;
    const at = firstShown(shown, interval, (s) => sameState(s, interval));
    if (at === undefined) {
      timing.unmatched++;
      timing.latenciesMs.push(interval.end_ms - interval.start_ms);
    } else {
      timing.latenciesMs.push(at - interval.start_ms);
    }
  });
  return timing;
}

/** The truth had the shown primary somewhere within its tolerance of the moment it was shown. */
function truthHasNear(truth: TruthFile, s: ShownTransition): boolean {
  const from = s.ms - truth.tolerance_ms;
  const to = s.ms + truth.tolerance_ms;
  return truth.intervals.some((i) => i.start_ms < to && i.end_ms > from && i.primary === s.primary);
}

/** Nearest-rank percentile; NaN for no values. */
export function percentile(values: readonly number[], q: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** When, inside the interval, the tracker first showed a state passing `test` (at its start if already shown). */
function firstShown(shown: readonly ShownTransition[], interval: TruthInterval, test: (s: ShownTransition) => boolean): number | undefined {
  const before = shown.filter((s) => s.ms <= interval.start_ms).at(-1);
  if (before && test(before)) return interval.start_ms;
  return shown.find((s) => s.ms > interval.start_ms && s.ms < interval.end_ms && test(s))?.ms;
}

/** Detail counts, except where the truth has none (dead) or keeps the stalled one (stuck). */
function sameState(s: ShownTransition, truth: TruthInterval): boolean {
  if (s.primary !== truth.primary) return false;
  return truth.primary === 'stuck' || truth.detail === null || s.detail === truth.detail;
}
