/**
 * Line budget during start-up: a flood cannot make the tracker classify every line (it would cap
 * the entry's output at a few MB/s), yet the ready line that ends the flood is still seen.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReadinessTracker } from './readinessTracker';
import {
  FAIR_SHARE_LINES_PER_SECOND,
  MAX_CLASSIFIED_LINES_PER_SECOND_BEFORE_READY,
  MAX_CLASSIFIED_LINES_PER_SECOND_SHARED,
  SharedLineRate,
} from './lineBudget';
import { LineClassifier } from './lineClassifier';
import { FakeSession } from './testing/fakeSession';
import { clockAt } from './testing/fakeNetwork';

const trackers: ReadinessTracker[] = [];
afterEach(() => {
  trackers.splice(0).forEach((t) => t.dispose());
  vi.restoreAllMocks();
});

/** `clock.frozenAt`: the tracker's time while set (a loaded machine must not split "one second" of printing in two). */
function setup(clock: { frozenAt?: number } = {}) {
  const session = new FakeSession(['node', 'server.js']);
  const tracker = new ReadinessTracker(session, { port: 4321 }, undefined, {
    probeTcp: async ({ port }) => port === 4321,
    probeHttp: async ({ url }) => (new URL(url).port === '4321' ? { isOk: true, status: 200 } : { isOk: false, error: 'ECONNREFUSED' }),
    listPorts: async () => [4321],
    canTellPortOwner: true,
    clock: clockAt(() => clock.frozenAt ?? Date.now()),
  });
  trackers.push(tracker);
  const classify = vi.spyOn(LineClassifier.prototype, 'classify');
  return { session, tracker, classify };
}

const floodChunk = (n: number, from: number) =>
  Array.from({ length: n }, (_, i) => `flood line ${from + i} of the start-up log`).join('\n') + '\n';

describe('line budget before ready', () => {
  it('classifies a bounded number of lines of a flood and still sees the ready line after it', async () => {
    const clock: { frozenAt?: number } = { frozenAt: Date.now() };
    const { session, tracker, classify } = setup(clock);
    session.start();
    const chunks = 200;
    const linesPerChunk = 100; // 20 000 lines within one budget second
    for (let c = 0; c < chunks; c++) session.print(floodChunk(linesPerChunk, c * linesPerChunk));
    expect(classify.mock.calls.length).toBeLessThanOrEqual(MAX_CLASSIFIED_LINES_PER_SECOND_BEFORE_READY + 2 * 20);
    expect(classify.mock.calls.length).toBeLessThan(chunks * linesPerChunk);
    delete clock.frozenAt;
    session.print(floodChunk(50, 1e6) + 'Server listening on http://localhost:4321\n');
    const result = await tracker.waitForReady(5_000);
    expect(result).toMatchObject({ success: true, state: 'ready', port: 4321 });
  });

  it('a normal start-up log is classified line by line', () => {
    const { session, classify } = setup();
    session.start();
    for (let c = 0; c < 10; c++) session.print(floodChunk(30, c * 30));
    expect(classify.mock.calls.length).toBe(300);
  });
});

describe('flood mode', () => {
  it('a long flood is sampled only, and full classification returns once the output calms down', async () => {
    let clock = 0;
    const session = new FakeSession(['node', 'server.js']);
    const tracker = new ReadinessTracker(session, { port: 4321 }, undefined, {
      probeTcp: async ({ port }) => port === 4321,
      probeHttp: async ({ url }) => (new URL(url).port === '4321' ? { isOk: true, status: 200 } : { isOk: false, error: 'ECONNREFUSED' }),
      listPorts: async () => [4321],
      canTellPortOwner: true,
      clock: clockAt(() => clock),
    });
    trackers.push(tracker);
    const classify = vi.spyOn(LineClassifier.prototype, 'classify');
    session.start();
    for (let c = 0; c < 100; c++) session.print(floodChunk(100, c * 100)); // 10 000 lines in one second
    const afterFirstSecond = classify.mock.calls.length;
    // Next second, still flooding: only the newest lines of a chunk are sampled.
    clock = 1_100;
    for (let c = 0; c < 100; c++) session.print(floodChunk(100, 1e5 + c * 100));
    expect(classify.mock.calls.length - afterFirstSecond).toBeLessThanOrEqual(20);
    // A calm second later: a ready line followed by 29 more lines is read in full again.
    clock = 2_300;
    session.print('calm\n');
    clock = 3_400;
    session.print('Server listening on http://localhost:4321\n' + floodChunk(29, 0));
    const result = await tracker.waitForReady(5_000);
    expect(result).toMatchObject({ success: true, state: 'ready', port: 4321 });
  });
});

describe('entries flooding at once', () => {
  it('regression: ten flooding entries each spent a whole line budget; together they now classify about what one does', () => {
    const lineRate = new SharedLineRate();
    const sessions = Array.from({ length: 10 }, () => new FakeSession(['bash', 'flood.sh']));
    for (const session of sessions) {
      trackers.push(new ReadinessTracker(session, {}, undefined, { lineRate, clock: clockAt(() => 0), listPorts: async () => [] }));
      session.start();
    }
    const classify = vi.spyOn(LineClassifier.prototype, 'classify');
    // Within one second every entry prints 3 000 lines, interleaved as their PTY reads arrive.
    for (let c = 0; c < 30; c++) for (const [i, session] of sessions.entries()) session.print(floodChunk(100, i * 1e6 + c * 100));
    const perEntryBudgets = sessions.length * MAX_CLASSIFIED_LINES_PER_SECOND_BEFORE_READY;
    expect(classify.mock.calls.length).toBeLessThanOrEqual(
      MAX_CLASSIFIED_LINES_PER_SECOND_SHARED + sessions.length * (FAIR_SHARE_LINES_PER_SECOND + 100),
    );
    expect(classify.mock.calls.length).toBeLessThan(perEntryBudgets / 3);
  });

  it('a quiet entry still has every line read while the others flood', async () => {
    const lineRate = new SharedLineRate();
    const flooder = new FakeSession(['bash', 'flood.sh']);
    trackers.push(new ReadinessTracker(flooder, {}, undefined, { lineRate, listPorts: async () => [] }));
    flooder.start();
    for (let c = 0; c < 50; c++) flooder.print(floodChunk(100, c * 100));
    expect(lineRate.remaining(Date.now())).toBeLessThanOrEqual(0);
    const server = new FakeSession(['node', 'server.js']);
    const tracker = new ReadinessTracker(server, { port: 4321 }, undefined, {
      lineRate,
      probeTcp: async ({ port }) => port === 4321,
      probeHttp: async ({ url }) => (new URL(url).port === '4321' ? { isOk: true, status: 200 } : { isOk: false, error: 'ECONNREFUSED' }),
      listPorts: async () => [4321],
      canTellPortOwner: true,
    });
    trackers.push(tracker);
    server.start();
    // The ready line, then more than a flood sample's newest lines: only a full read sees it.
    server.print('Server listening on http://localhost:4321\n' + floodChunk(30, 0));
    await expect(tracker.waitForReady(5_000)).resolves.toMatchObject({ success: true, state: 'ready', port: 4321 });
  });
});
