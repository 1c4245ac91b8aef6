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
/** What the identity key is derived for (the host program derives it too). */
export const IDENTITY_LABEL = 'switchboard server identity v1';

/** The key a server with `uiSecret` proves itself with (base64url). */
export function identityKeyOf(uiSecret: string): string {
  return createHmac('sha256', uiSecret).update(IDENTITY_LABEL).digest('base64url');
}

/** The answer to `nonce` for the identity `key`. */
export function identityProof(key: string, nonce: string): string {
  return createHmac('sha256', Buffer.from(key, 'base64url')).update(nonce).digest('base64url');
}

/**
 * What the server at `origin` (`http://127.0.0.1:P`) is: the holder of `uiSecret` (`proved`),
 * nothing reachable (`unreachable`), or something else (`other`). Sends no cookie and no secret.
 */
export async function checkServerIdentity(
  origin: string,
  uiSecret: string,
  timeoutMs = 10_000,
): Promise<'proved' | 'unreachable' | 'other'> {
  const nonce = randomBytes(32).toString('base64url');
  let res: Response;
  try {
    res = await fetch(`${origin}${IDENTITY_PATH}?nonce=${nonce}`, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    return 'unreachable';
  }
  try {
    const body = (await res.json()) as { proof?: unknown };
    const proved = res.ok && typeof body.proof === 'string' && tokensEqual(body.proof, identityProof(identityKeyOf(uiSecret), nonce));
    return proved ? 'proved' : 'other';
  } catch {
    return 'other';
  }
}
