import { describe, expect, it } from 'vitest';
import type { HttpProbeOptions, HttpProbeResult } from '../ports';
import { probeOnce } from './livenessProbes';

const settings = { periodMs: 1_000, failureThreshold: 3, timeoutMs: 100 };

function probes(answers: Record<string, HttpProbeResult>) {
  const asked: string[] = [];
  return {
    asked,
    probeHttp: async ({ url }: HttpProbeOptions) => (asked.push(url), answers[url] ?? { isOk: false, error: 'ECONNREFUSED' }),
    probeTcp: async () => true,
  };
}

describe('liveness probe of a server that answered before', () => {
  const v4 = 'http://127.0.0.1:4000/';
  const v6 = 'http://[::1]:4000/';

  it('asks both loopbacks while it does not know which one answers, and remembers the one that did', async () => {
    const p = probes({ [v4]: { isOk: true, status: 200 } });
    const outcome = await probeOnce({ port: 4000, settings }, 'unknown', p);
    expect(p.asked.sort()).toEqual([v4, v6].sort());
    expect(outcome).toMatchObject({ isAlive: true, answeringUrl: v4, protocol: 'http' });
  });

  it('asks only the loopback that answered last (one connection a probe, not two)', async () => {
    const p = probes({ [v4]: { isOk: true, status: 404 } });
    const outcome = await probeOnce({ port: 4000, settings }, 'http', p, v4);
    expect(p.asked).toEqual([v4]);
    expect(outcome.isAlive).toBe(true);
  });

  it('falls back to both when the known loopback refuses (the server rebound on the other one)', async () => {
    const p = probes({ [v6]: { isOk: true, status: 200 } });
    const outcome = await probeOnce({ port: 4000, settings }, 'http', p, v4);
    expect(p.asked).toEqual([v4, v4, v6]);
    expect(outcome).toMatchObject({ isAlive: true, answeringUrl: v6 });
  });

  it('silence from the known loopback is a failure at once (a stopped server), without a second wait', async () => {
    const p = probes({ [v4]: { isOk: false, error: 'timeout' } });
    const outcome = await probeOnce({ port: 4000, settings }, 'http', p, v4);
    expect(p.asked).toEqual([v4]);
    expect(outcome.isAlive).toBe(false);
    expect(outcome.reason).toContain('timeout');
  });
});
