/**
 * Benchmark helper (wired into `npm run bench` by bench/): reaction latency from a screen change to
 * the status event, with many agent entries active at once. N replay sessions each play the same
 * recording at its original timing on the real clock (staggered so their redraws interleave);
 * for every transition into busy or waiting (those apply at once; idle is debounced on purpose),
 * the latency runs from the first parsed screen that shows the new state (classified here as
 * well) to the tracker's event.
 */
import { performance } from 'node:perf_hooks';
import { classify } from './classifier';
import { realClock } from '../base';
import { loadRecording, recordingsDir } from './replay/asciicast';
import { ReplaySession } from './replay/replaySession';
import { ruleSetFor } from './rules';
import { DEFAULT_STATUS_THRESHOLDS, StatusTracker, type DetectionProfile } from './statusTracker';

interface ReactionBenchResult {
  entries: number;
  transitions: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export async function benchReactionLatency(
  options: { entries?: number; recording?: string; dir?: string; staggerMs?: number } = {},
): Promise<ReactionBenchResult> {
  const entries = options.entries ?? 32;
  const staggerMs = options.staggerMs ?? 37;
  const rec = loadRecording(options.recording ?? 'dev-permission-yes', options.dir ?? recordingsDir());
  const profile: DetectionProfile = {
    id: 'claude',
    rules: ruleSetFor('claude'),
    thresholds: DEFAULT_STATUS_THRESHOLDS,
    verified: 'unverified',
  };
  const latencies: number[] = [];

  const runOne = async (index: number): Promise<void> => {
    const session = new ReplaySession(rec.header.width, rec.header.height);
    const tracker = new StatusTracker(session, profile, { clock: realClock });
    let shownPrimary: string = tracker.status.primary;
    const firstSeenAt = new Map<string, number>();
    tracker.onDidChangeStatus((s) => {
      if (s.primary === shownPrimary) return;
      shownPrimary = s.primary;
      const seenAt = firstSeenAt.get(s.primary);
      if ((s.primary === 'active' || s.primary === 'waiting') && seenAt !== undefined) latencies.push(performance.now() - seenAt);
      firstSeenAt.clear();
    });
    session.start(Date.now());
    const t0 = performance.now() + index * staggerMs;
    try {
      for (const e of rec.events) {
        if (e.type !== 'o') continue;
        const wait = t0 + e.ms - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        await session.write(e.data);
        const now = performance.now();
        const seen = classify(session.screen, session.screen.title, { rules: profile.rules, now: Date.now() }).primary;
        if (seen !== shownPrimary && !firstSeenAt.has(seen)) firstSeenAt.set(seen, now);
      }
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      tracker.dispose();
      session.dispose();
    }
  };

  await Promise.all(Array.from({ length: entries }, (_, i) => runOne(i)));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { entries, transitions: latencies.length, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: latencies.at(-1) ?? NaN };
}
