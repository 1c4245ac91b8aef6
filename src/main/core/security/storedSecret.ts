/**
 * A secret kept in the app's data directory (0600), made on first use. `serve` keeps its UI secret
 * this way so a browser tab reconnects after serve restarts on the same port, instead of being
 * locked out by a new secret it was never shown.
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../base';
import { generateToken } from './tokens';

/** Tokens from generateToken: 32 random bytes in base64url. */
const STORED_SECRET = /^[\w-]{43}$/;

export function loadOrCreateSecret(path: string): string {
  try {
    const stored = readFileSync(path, 'utf8').trim();
    if (STORED_SECRET.test(stored)) return stored;
  } catch {
    // none yet: make one below
  }
  const secret = generateToken();
  writeFileAtomic(path, secret, 0o600);
  return secret;
}
