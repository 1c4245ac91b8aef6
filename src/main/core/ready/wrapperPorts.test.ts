/** A sandbox's own relays listen inside the run's tree: the tracker never takes them for the server's port. */
import { afterEach, describe, expect, it } from 'vitest';
import { ReadinessTracker } from './readinessTracker';
import { FakeSession } from './testing/fakeSession';

const trackers: ReadinessTracker[] = [];
afterEach(() => trackers.splice(0).forEach((t) => t.dispose()));

function listeningAfterScan(tracker: ReadinessTracker): Promise<readonly number[]> {
  return new Promise((resolve) => {
    const sub = tracker.onDidChangePorts((info) => {
      sub.dispose();
      resolve(info.listening);
    });
  });
}

describe("a wrapper's own ports", () => {
  it('are left out of the listening ports and readiness; the program’s port counts', async () => {
    const session = new FakeSession(['npm', 'run', 'dev']);
    const tracker = new ReadinessTracker(session, {}, undefined, {
      listPorts: async () => [3128, 4100, 5173],
      probeTcp: async ({ port }) => port === 5173,
      probeHttp: async ({ url }) => (new URL(url).port === '5173' ? { isOk: true, status: 200 } : { isOk: false, error: 'ECONNREFUSED' }),
      canTellPortOwner: true,
    });
    trackers.push(tracker);
    const scanned = listeningAfterScan(tracker);
    session.start(4242, [3128, 4100]);
    expect(await scanned).toEqual([5173]);
    expect(await tracker.waitForReady(5_000)).toMatchObject({ success: true, port: 5173 });
  });

  it('count as any other port in a run without a wrapper', async () => {
    const session = new FakeSession(['npm', 'run', 'dev']);
    const tracker = new ReadinessTracker(session, {}, undefined, { listPorts: async () => [3128, 5173], canTellPortOwner: true });
    trackers.push(tracker);
    const scanned = listeningAfterScan(tracker);
    session.start(4242);
    expect(await scanned).toEqual([3128, 5173]);
  });
});
