import { describe, expect, it } from 'vitest';
import { applicationServerKey } from './pushSubscription';

describe('applicationServerKey', () => {
  it('decodes a base64url VAPID key (no padding, - and _) to its bytes', () => {
    const bytes = Uint8Array.from({ length: 65 }, (_, i) => (i * 37 + 250) % 256);
    const base64url = Buffer.from(bytes).toString('base64url');
    expect(base64url).toMatch(/[-_]/);
    expect(Array.from(applicationServerKey(base64url))).toEqual(Array.from(bytes));
  });
});
