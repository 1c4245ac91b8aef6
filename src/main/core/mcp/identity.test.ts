import { describe, expect, it } from 'vitest';
import { IdentityRegistry, callerKey } from './identity';

describe('IdentityRegistry', () => {
  it('keeps the app token and per-process tokens distinct and stable per entry', () => {
    const identity = new IdentityRegistry();
    const a = identity.tokenFor('p_aaaaaa');
    const b = identity.tokenFor('p_bbbbbb');
    expect(new Set([identity.appToken, a, b]).size).toBe(3);
    expect(identity.tokenFor('p_aaaaaa')).toBe(a);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
    expect(identity.resolve(identity.appToken)).toEqual({ kind: 'external' });
    expect(identity.resolve(a)).toEqual({ kind: 'process', processId: 'p_aaaaaa' });
    expect(identity.resolve(b)).toEqual({ kind: 'process', processId: 'p_bbbbbb' });
  });

  it('rejects unknown, empty and revoked tokens', () => {
    const identity = new IdentityRegistry('app-token');
    const a = identity.tokenFor('p_aaaaaa');
    expect(identity.resolve(undefined)).toBeUndefined();
    expect(identity.resolve('')).toBeUndefined();
    expect(identity.resolve(`${a}x`)).toBeUndefined();
    identity.revoke('p_aaaaaa');
    expect(identity.resolve(a)).toBeUndefined();
    expect(identity.resolve('app-token')).toEqual({ kind: 'external' });
  });

  it('names callers for ownership records', () => {
    expect(callerKey({ kind: 'external' })).toBe('external');
    expect(callerKey({ kind: 'process', processId: 'p_123456' })).toBe('p_123456');
  });
});
