import { describe, expect, it } from 'vitest';
import { bearerToken, generateToken, isAllowedHost, isAllowedOrigin, tokensEqual } from './tokens';

describe('tokens and origin checks', () => {
  it('generates 256-bit tokens and compares them exactly', () => {
    const token = generateToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(tokensEqual(token, token)).toBe(true);
    expect(tokensEqual(token.slice(0, -1), token)).toBe(false);
    expect(tokensEqual(undefined, token)).toBe(false);
    expect(tokensEqual('', token)).toBe(false);
  });

  it.each([
    ['127.0.0.1:4000', true],
    ['localhost:4000', true],
    ['[::1]:4000', true],
    ['127.0.0.1:4001', false],
    ['evil.example:4000', false],
    ['127.0.0.1.nip.io:4000', false],
    [undefined, false],
  ])('Host %s → %s', (host, allowed) => {
    expect(isAllowedHost(host, 4000)).toBe(allowed);
  });

  it.each([
    [undefined, true],
    ['http://127.0.0.1:4000', true],
    ['http://localhost:4000', true],
    ['http://evil.example', false],
    ['http://127.0.0.1:9999', false],
    ['null', false],
  ])('Origin %s → %s', (origin, allowed) => {
    expect(isAllowedOrigin(origin, 4000)).toBe(allowed);
  });

  it('reads bearer tokens', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
  });
});
