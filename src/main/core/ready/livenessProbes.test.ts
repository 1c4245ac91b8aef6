import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HttpProbeResult } from '../ports';
import { probeOnce } from './livenessProbes';

const settings = { periodMs: 1_000, failureThreshold: 3, timeoutMs: 100 };

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Probes that record what was asked, in order, and when (fake clock). */
function probes(world: { http?: HttpProbeResult; accepts?: boolean; queued?: number }) {
  const asked: string[] = [];
  return {
    asked,
    probeHttp: async ({ url }: { url: string }) => (asked.push(`http ${url}`), world.http ?? { isOk: false, error: 'ECONNREFUSED' }),
    probeTcp: async ({ port }: { port: number }) => (asked.push(`connect ${port}`), world.accepts ?? true),
    acceptQueueLength: async (port: number) => (asked.push(`queue ${port} at ${Date.now()}`), world.queued),
  };
}

async function settle<T>(promise: Promise<T>): Promise<T> {
  await vi.runAllTimersAsync();
  return promise;
}

describe('liveness probe of a port', () => {
  it("connects, gives the server the timeout to accept, then reads the listener's accept queue", async () => {
    const p = probes({ queued: 0 });
    const startedAt = Date.now();
    const outcome = await settle(probeOnce({ port: 4000, settings }, p));
    expect(p.asked).toEqual(['connect 4000', `queue 4000 at ${startedAt + settings.timeoutMs}`]);
    expect(outcome).toEqual({ isAlive: true, reason: 'port 4000 accepts connections' });
  });

  it('connections left in the accept queue are a stopped server (the kernel accepted them, the process did not)', async () => {
    const outcome = await settle(probeOnce({ port: 4000, settings }, probes({ queued: 2 })));
    expect(outcome).toEqual({ isAlive: false, reason: 'port 4000 did not answer (2 connections not accepted within 100 ms)' });
  });

  it('a refused connect is a failure, without waiting or reading the queue', async () => {
    const p = probes({ accepts: false, queued: 0 });
    const outcome = await probeOnce({ port: 4000, settings }, p);
    expect(p.asked).toEqual(['connect 4000']);
    expect(outcome).toEqual({ isAlive: false, reason: 'port 4000 refuses connections' });
  });

  it('where the queue cannot be read (no /proc, or no listener row) an accepted connect counts', async () => {
    const outcome = await settle(probeOnce({ port: 4000, settings }, probes({ queued: undefined })));
    expect(outcome.isAlive).toBe(true);
  });

  it('never sends the server a request (no line in its request log, no app code run)', async () => {
    const p = probes({ queued: 0 });
    await settle(probeOnce({ port: 4000, settings }, p));
    expect(p.asked.filter((a) => a.startsWith('http'))).toEqual([]);
  });
});

describe('liveness probe of a url', () => {
  const url = 'http://localhost:4000/health';

  it('asks only the url; any status is an answer', async () => {
    const p = probes({ http: { isOk: false, status: 500, error: 'HTTP 500' } });
    const outcome = await probeOnce({ port: 4000, httpUrl: url, settings }, p);
    expect(p.asked).toEqual([`http ${url}`]);
    expect(outcome).toEqual({ isAlive: true, reason: `${url} answered HTTP 500` });
  });

  it('silence is a failure with its reason', async () => {
    const outcome = await probeOnce({ port: 4000, httpUrl: url, settings }, probes({ http: { isOk: false, error: 'timeout' } }));
    expect(outcome).toEqual({ isAlive: false, reason: `${url} did not answer (timeout)` });
  });
});
