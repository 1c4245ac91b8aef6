import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProbeLoop } from './probeLoop';

afterEach(() => vi.useRealTimers());

/** A probe the test resolves by hand, recording how many attempts ran at once. */
function manualProbe() {
  const pending: Array<{ resolve: (v: number) => void; signal: AbortSignal }> = [];
  let concurrent = 0;
  let maxConcurrent = 0;
  let calls = 0;
  const probe = (signal: AbortSignal) =>
    new Promise<number>((resolve) => {
      calls += 1;
      concurrent += 1;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      pending.push({
        signal,
        resolve: (v) => {
          concurrent -= 1;
          resolve(v);
        },
      });
    });
  return { probe, pending, stats: () => ({ calls, maxConcurrent }) };
}

/** A started loop (fake timers) over a {@link manualProbe}, collecting what it reports. */
function startedLoop() {
  vi.useFakeTimers();
  const manual = manualProbe();
  const loop = new ProbeLoop({ intervalMs: 100, probe: manual.probe });
  const results: number[] = [];
  loop.onDidProbe((r) => results.push(r));
  loop.start();
  return { ...manual, loop, results };
}

describe('ProbeLoop', () => {
  it('probes at once, then once per interval, never two at a time', async () => {
    const { loop, pending, stats, results } = startedLoop();
    loop.probeNow(); // in flight: queued, not a second concurrent attempt
    expect(stats().calls).toBe(1);
    pending.shift()!.resolve(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(results).toEqual([1]);
    expect(stats().calls).toBe(2); // the queued probeNow ran without waiting for the interval
    pending.shift()!.resolve(2);
    await vi.advanceTimersByTimeAsync(99);
    expect(stats().calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(stats().calls).toBe(3);
    expect(stats().maxConcurrent).toBe(1);
    loop.dispose();
  });

  it('aborts the attempt in flight on stop and drops its late result', async () => {
    const { loop, pending, stats, results } = startedLoop();
    const attempt = pending.shift()!;
    loop.stop();
    expect(attempt.signal.aborted).toBe(true);
    attempt.resolve(42);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(results).toEqual([]);
    expect(stats().calls).toBe(1);
    loop.dispose();
  });

  it('keeps going after a probe throws, and reports the failure', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const loop = new ProbeLoop({
      intervalMs: 10,
      probe: async () => {
        calls += 1;
        if (calls === 1) throw new Error('scan failed');
        return calls;
      },
    });
    const failures: unknown[] = [];
    const results: number[] = [];
    loop.onDidFail((e) => failures.push(e));
    loop.onDidProbe((r) => results.push(r));
    loop.start();
    await vi.advanceTimersByTimeAsync(25);
    expect(failures).toHaveLength(1);
    expect(results.length).toBeGreaterThanOrEqual(1);
    loop.dispose();
    const after = calls;
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(after); // disposed: no timer left
  });
});
