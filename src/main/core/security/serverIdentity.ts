/**
 * A server proving it is the one a client knew, without the client sending it anything secret
 * first: the client picks a random nonce, the server answers `HMAC-SHA256(identity key, nonce)`,
 * and the client checks it. The identity key is derived from the server's UI secret, so a server
 * that rotates its secret (each `serve` run) is a different server, and a program that merely
 * binds the old port (another user's, a dev server) cannot answer. A browser tab gets the key when
 * it signs in; a remote host's laptop and host program derive it from the secret they read over ssh.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { tokensEqual } from './tokens';

/** Where a server answers the challenge (no secret needed: the answer proves, it grants nothing). */
export const IDENTITY_PATH = '/identity';
/** A nonce: 16–64 bytes in base64url (the client's random challenge). */
export const IDENTITY_NONCE = /^[\w-]{22,86}$/;
const IDENTITY_LABEL = 'switchboard server identity v1';

/** The key a server with `uiSecret` proves itself with (base64url). */
export function identityKeyOf(uiSecret: string): string {
  return createHmac('sha256', uiSecret).update(IDENTITY_LABEL).digest('base64url');
}

/** The answer to `nonce` for the identity `key`. */
export function identityProof(key: string, nonce: string): string {
  return createHmac('sha256', Buffer.from(key, 'base64url')).update(nonce).digest('base64url');
}

/**
 * Whether the server at `origin` (`http://127.0.0.1:P`) proves the identity of `uiSecret`. Sends no
 * cookie and no secret; a server that does not answer, or answers wrong, is not ours.
 */
export async function serverProvesIdentity(origin: string, uiSecret: string, timeoutMs = 10_000): Promise<boolean> {
  const nonce = randomBytes(32).toString('base64url');
  try {
    const res = await fetch(`${origin}${IDENTITY_PATH}?nonce=${nonce}`, {
      credentials: 'omit',
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return false;
    const body = (await res.json()) as { proof?: unknown };
    return typeof body.proof === 'string' && tokensEqual(body.proof, identityProof(identityKeyOf(uiSecret), nonce));
  } catch {
    return false;
  }
}
