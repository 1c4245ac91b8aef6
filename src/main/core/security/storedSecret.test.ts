import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateSecret } from './index';

describe('loadOrCreateSecret', () => {
  it('makes a secret once (owner-only) and returns the same one after a restart', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sb-secret-')), 'ui-secret');
    const first = loadOrCreateSecret(path);
    expect(first).toMatch(/^[\w-]{43}$/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecret(path)).toBe(first);
  });

  it('replaces a file that does not hold a secret of ours', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sb-secret-')), 'ui-secret');
    writeFileSync(path, 'short');
    expect(loadOrCreateSecret(path)).toMatch(/^[\w-]{43}$/);
  });
});
