import { describe, expect, it } from 'vitest';
import { benchClassifier } from './classifierBench';

// Timings belong in bench/ (docs/testing.md); this only proves the helper runs and reports sanely.
describe('benchClassifier', () => {
  it('classifies every recorded screen and reports µs percentiles', async () => {
    const r = await benchClassifier({ rounds: 1 });
    expect(r.screens).toBeGreaterThan(100);
    expect(r.classifications).toBe(r.screens);
    expect(r.p50Us).toBeGreaterThan(0);
    expect(r.p99Us).toBeGreaterThanOrEqual(r.p50Us);
  });
});
