import { describe, expect, it } from 'vitest';
import { TURN_ERROR_SAMPLES, turnErrorDetail } from './turnErrors';

describe('turn errors', () => {
  it.each(TURN_ERROR_SAMPLES.map((r) => [r.detail, r.sample] as const))('a real %s report reads as its own rule', (detail, sample) => {
    expect(turnErrorDetail(sample)).toBe(detail);
  });

  it('reads a key opencode could not load (ProviderAuthError, no HTTP status) as not signed in, any other error as api_error', () => {
    expect(turnErrorDetail({ errorName: 'ProviderAuthError' })).toBe('login');
    expect(turnErrorDetail({ statusCode: 429, errorName: 'APIError' })).toBe('api_error');
    expect(turnErrorDetail({})).toBe('api_error');
  });
});
