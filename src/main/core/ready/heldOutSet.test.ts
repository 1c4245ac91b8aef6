/**
 * The frozen held-out set (test/fixtures/servers/heldOut/README.md): real runs of tools and
 * versions the pattern table does not cite, captured with their ground truth (which port of the
 * tree answered HTTP and when, polled by the capture script; a watcher's build output; the exit).
 * Each is replayed through the whole tracker with a fake clock, probes answering as the real ports
 * did. A "ready" on a port that never answered, or before it answered, is a false ready.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReadinessConfig } from '../../../shared/readyConfig';
import type { ReadinessInfo } from '../../../shared/ready';
import { ReadinessTracker } from './readinessTracker';
import { FakeSession } from './testing/fakeSession';
import { FakeNetwork } from './testing/fakeNetwork';

const DIR = fileURLToPath(new URL('../../../../test/fixtures/servers/heldOut/transcripts/', import.meta.url));

type Event =
  | { at: number; print: string }
  | { at: number; listen: number }
  | { at: number; answers: number; status: number }
  | { at: number; foreign: number }
  | { at: number; exit: number };

type Truth =
  { verdict: 'serves'; ports: number[]; at: number } | { verdict: 'watches'; ports: number[] } | { verdict: 'fails'; reason: string };

interface Transcript {
  name: string;
  tool: string;
  version: string;
  argv: string[];
  config?: Partial<ReadinessConfig>;
  endedAt: number;
  truth: Truth;
  events: Event[];
}

/** How long after an exit the verdict is read (the exit is final for the run). */
const AFTER_EXIT_MS = 2_000;

const transcripts: Transcript[] = readdirSync(DIR)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Transcript);

const trackers: ReadinessTracker[] = [];
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  trackers.splice(0).forEach((t) => t.dispose());
  vi.useRealTimers();
});

async function replay(t: Transcript): Promise<{ info: ReadinessInfo; readyAt?: number }> {
  const session = new FakeSession([basename(t.argv[0]), ...t.argv.slice(1)]);
  /** Ports answer HTTP only with the status the capture saw them answer. */
  const network = new FakeNetwork(null);
  const start = Date.now();
  const tracker = new ReadinessTracker(session, t.config ?? {}, undefined, network.probes);
  trackers.push(tracker);
  let firstReadyAt: number | undefined;
  tracker.onDidChange((info) => {
    if (info.phase === 'ready' && firstReadyAt === undefined) firstReadyAt = Date.now() - start;
  });
  session.start();
  let now = 0;
  let end = t.endedAt;
  for (const event of t.events) {
    await vi.advanceTimersByTimeAsync(event.at - now);
    now = event.at;
    if ('print' in event) session.print(event.print);
    else if ('listen' in event) network.listening.add(event.listen);
    else if ('answers' in event) network.statuses.set(event.answers, event.status);
    else if ('foreign' in event) network.foreign.add(event.foreign);
    else {
      session.exit(event.exit);
      end = event.at + AFTER_EXIT_MS;
    }
  }
  await vi.advanceTimersByTimeAsync(Math.max(0, end - now));
  return { info: tracker.info, readyAt: firstReadyAt };
}

type Score = 'right' | 'false-ready' | 'wrong';

/** The verdict against the measured truth (docs/readiness.md, "The held-out set"). */
function score(t: Transcript, info: ReadinessInfo, readyAt: number | undefined): Score {
  const truth = t.truth;
  if (truth.verdict === 'serves') {
    if (readyAt !== undefined && readyAt < truth.at) return 'false-ready';
    if (info.phase !== 'ready') return 'wrong';
    return info.port !== undefined && truth.ports.includes(info.port) ? 'right' : 'false-ready';
  }
  if (truth.verdict === 'watches') {
    if (info.phase === 'ready') return info.port === undefined || truth.ports.includes(info.port) ? 'right' : 'false-ready';
    return info.phase === 'running' || info.phase === 'completed' ? 'right' : 'wrong';
  }
  if (info.phase === 'ready' || readyAt !== undefined) return 'false-ready';
  const exited = t.events.some((e) => 'exit' in e);
  return info.phase === 'error' || (!exited && info.phase === 'starting') ? 'right' : 'wrong';
}

describe('held-out set (frozen real runs)', () => {
  it('holds at least 40 transcripts', () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(40);
  });

  it.each(transcripts)('$name ($tool $version) → $truth.verdict', async (t) => {
    const { info, readyAt } = await replay(t);
    const verdict = score(t, info, readyAt);
    expect({ verdict, phase: info.phase, message: info.message }).toMatchObject({ verdict: 'right' });
  });

  it('scores at least 99 % with no false "ready"', async () => {
    const scores: Array<[string, Score, string]> = [];
    for (const t of transcripts) {
      const { info, readyAt } = await replay(t);
      trackers.splice(0).forEach((tr) => tr.dispose());
      scores.push([
        t.name,
        score(t, info, readyAt),
        `${info.phase}: ${info.message} (${info.reason ?? ''}; first ready at ${readyAt ?? '-'} ms)`,
      ]);
    }
    const right = scores.filter(([, s]) => s === 'right').length;
    const misses = scores.filter(([, s]) => s !== 'right').map((row) => row.join(' | '));
    console.log(`held-out set: ${right}/${scores.length} right (${((100 * right) / scores.length).toFixed(1)} %)\n${misses.join('\n')}`);
    expect(scores.filter(([, s]) => s === 'false-ready')).toEqual([]);
    expect(right / scores.length).toBeGreaterThanOrEqual(0.99);
  });
});
