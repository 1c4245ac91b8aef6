import { describe, expect, it } from 'vitest';
import { cleanDeviceName, pairingCodeOf, suggestedDeviceName } from './pairing';

describe('pairing', () => {
  it('reads the one-time code from the fragment only', () => {
    expect(pairingCodeOf('#code=K7Q-29X')).toBe('K7Q-29X');
    expect(pairingCodeOf('#other=1&code=abc')).toBe('abc');
    expect(pairingCodeOf('#code=')).toBeUndefined();
    expect(pairingCodeOf('')).toBeUndefined();
  });

  it('suggests a device name from the user agent, and keeps a typed one printable and short', () => {
    const iPhone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1';
    expect(suggestedDeviceName(iPhone)).toBe('iPhone');
    expect(suggestedDeviceName('Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari/537.36')).toBe('Android phone');
    expect(cleanDeviceName('  my\u0007 phone\n ')).toBe('my phone');
    expect(cleanDeviceName('x'.repeat(100))).toHaveLength(60);
  });
});
