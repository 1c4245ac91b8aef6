/**
 * Replays a recording into a StatusTracker at its original timing on a virtual clock, samples the
 * status every SAMPLE_INTERVAL_MS of recording time and scores it against the ground truth outside
 * tolerance windows and outside `starting` (the recordings' README says how to score).
 */
import type { AgentDetail, AgentPrimary, AgentStatusInfo } from '../../../../shared/status';
import { VirtualClock } from '../../base';
import { StatusTracker, type DetectionProfile, type StatusTrackerOptions } from '../statusTracker';
import { isInToleranceWindow, truthAt, type Recording } from './asciicast';
import { ReplaySession } from './replaySession';
import { recordedHooks } from './recordedHooks';

/** The README's scoring grid: one sample per 100 ms of recording time. */
const SAMPLE_INTERVAL_MS = 100;
const EPOCH = Date.UTC(2025, 0, 1);

interface StatusSample {
  ms: number;
  status: AgentStatusInfo;
}

interface ScoredSample {
  ms: number;
  truth: { primary: AgentPrimary; detail: AgentDetail };
  got: { primary: AgentPrimary; detail: AgentDetail; reason: string; confidence: AgentStatusInfo['confidence'] };
  primaryAgrees: boolean;
  fullAgrees: boolean;
}

export interface ReplayScore {
  name: string;
  /** Samples outside tolerance windows and outside `starting`. */
  scored: number;
  /** Share of scored samples whose primary matches the truth. */
  primaryAgreement: number;
  /** Share whose primary and detail both match. */
  agreement: number;
  mismatches: ScoredSample[];
  /** Scored samples whose status said `confidence: 'low'` (no rule matched the screen for a while). */
  lowConfidence: number;
  samples: StatusSample[];
  /** Every status event the tracker fired, with recording time. */
  transitions: Array<{ ms: number; primary: AgentPrimary; detail: AgentDetail; health: string; reason: string }>;
}

interface ReplayOptions extends Omit<StatusTrackerOptions, 'clock'> {
  /** Feed the CLI's hooks logged in the truth file (a preset whose wiring installs them). */
  withHooks?: boolean;
}

export async function replayRecording(recording: Recording, profile: DetectionProfile, options: ReplayOptions = {}): Promise<ReplayScore> {
  const { withHooks: _withHooks, ...trackerOptions } = options;
  const clock = new VirtualClock(EPOCH);
  const session = new ReplaySession(recording.header.width, recording.header.height);
  const tracker = new StatusTracker(session, profile, { ...trackerOptions, clock });
  const transitions: ReplayScore['transitions'] = [];
  tracker.onDidChangeStatus((s) =>
    transitions.push({ ms: clock.now() - EPOCH, primary: s.primary, detail: s.detail, health: s.health, reason: s.reason }),
  );
  const samples: StatusSample[] = [];
  let nextSample = 0;
  const advanceTo = (ms: number) => {
    while (nextSample <= ms) {
      clock.advanceTo(EPOCH + nextSample);
      samples.push({ ms: nextSample, status: tracker.status });
      nextSample += SAMPLE_INTERVAL_MS;
    }
    clock.advanceTo(EPOCH + ms);
  };
  const hooks = options.withHooks ? recordedHooks(recording.truth) : [];
  const applyHooksUntil = (ms: number) => {
    while (hooks.length && hooks[0].ms <= ms) {
      const { ms, ...hook } = hooks.shift()!;
      advanceTo(ms);
      tracker.applyHookEvent({ ...hook, at: clock.now() });
    }
  };
  try {
    session.start(clock.now());
    for (const event of recording.events) {
      applyHooksUntil(event.ms);
      advanceTo(event.ms);
      if (event.type === 'o') {
        await session.write(event.data);
      } else if (event.type === 'm' && event.data.startsWith('exit:')) {
        session.exit(Number(event.data.slice('exit:'.length)), clock.now());
      }
    }
    const endMs = recording.truth.duration_ms;
    applyHooksUntil(endMs - 1);
    if (nextSample < endMs) advanceTo(endMs - 1);
  } finally {
    tracker.dispose();
    session.dispose();
  }
  return score(recording, samples, transitions);
}

function score(recording: Recording, samples: StatusSample[], transitions: ReplayScore['transitions']): ReplayScore {
  const scoredSamples: ScoredSample[] = [];
  for (const { ms, status } of samples) {
    const truth = truthAt(recording.truth, ms);
    if (!truth || truth.primary === 'starting' || isInToleranceWindow(recording.truth, ms)) continue;
    const primaryAgrees = truth.primary === status.primary;
    scoredSamples.push({
      ms,
      truth: { primary: truth.primary, detail: truth.detail },
      got: { primary: status.primary, detail: status.detail, reason: status.reason, confidence: status.confidence },
      primaryAgrees,
      fullAgrees: primaryAgrees && truth.detail === status.detail,
    });
  }
  const n = scoredSamples.length;
  return {
    name: recording.name,
    scored: n,
    primaryAgreement: n ? scoredSamples.filter((s) => s.primaryAgrees).length / n : 0,
    agreement: n ? scoredSamples.filter((s) => s.fullAgrees).length / n : 0,
    mismatches: scoredSamples.filter((s) => !s.fullAgrees),
    lowConfidence: scoredSamples.filter((s) => s.got.confidence === 'low').length,
    samples,
    transitions,
  };
}
