/**
 * Browser sessions of `serve`'s UI: a cookie carries a random session value (never the UI secret),
 * which maps to a session and the principal it acts as. Sessions live in this process's memory
 * only, so a `serve` that ends takes every one with it (a cookie from an earlier run is worth
 * nothing to the next one, or to whatever binds the port later). A session ends when revoked, or
 * after `idleMs` without use (a request or a WebSocket message); at most `maxSessions` exist, the
 * least recently used going first.
 */
import { createHash, randomBytes } from 'node:crypto';

/** Who a session acts as: the holder of the UI secret (paired devices will add their own kind). */
type SessionPrincipal = { kind: 'uiSecret' };

export interface UiSession {
  readonly id: string;
  readonly principal: SessionPrincipal;
  readonly createdAt: number;
  lastUsedAt: number;
}

interface UiSessionsOptions {
  idleMs?: number;
  maxSessions?: number;
  now?: () => number;
}

/** A tab left alone for a day signs in again through the link serve printed. */
const DEFAULT_IDLE_MS = 24 * 60 * 60 * 1000;
/** Anyone holding the secret can make sessions; memory stays bounded. */
const DEFAULT_MAX_SESSIONS = 64;

export class UiSessions {
  /** sha256(cookie value) → session: the values themselves are kept nowhere. */
  private readonly byValueHash = new Map<string, UiSession>();
  private readonly revokedListeners = new Set<(session: UiSession) => void>();
  private readonly idleMs: number;
  private readonly maxSessions: number;
  private readonly now: () => number;

  constructor(options: UiSessionsOptions = {}) {
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.now = options.now ?? Date.now;
  }

  /** A new session for `principal`; the returned value goes into the cookie. */
  create(principal: SessionPrincipal): { value: string; session: UiSession } {
    const value = randomBytes(32).toString('base64url');
    const at = this.now();
    const session: UiSession = { id: randomBytes(9).toString('base64url'), principal, createdAt: at, lastUsedAt: at };
    this.byValueHash.set(hashOf(value), session);
    this.evictOverflow();
    return { value, session };
  }

  /** The live session of the first value that has one (several cookies of our name may arrive: any valid one counts). */
  resolve(values: readonly string[]): UiSession | undefined {
    for (const value of values) {
      const hash = hashOf(value);
      const session = this.byValueHash.get(hash);
      if (!session) continue;
      if (this.now() - session.lastUsedAt > this.idleMs) {
        this.drop(hash, session);
        continue;
      }
      session.lastUsedAt = this.now();
      return session;
    }
    return undefined;
  }

  /** Marks a session used (a message on its socket), so an open tab does not expire while in use. */
  touch(session: UiSession): void {
    session.lastUsedAt = this.now();
  }

  /** Whether the session is still live (not revoked, not expired). */
  isLive(session: UiSession): boolean {
    return [...this.byValueHash.values()].includes(session) && this.now() - session.lastUsedAt <= this.idleMs;
  }

  list(): UiSession[] {
    return [...this.byValueHash.values()];
  }

  /** Ends one session; its open sockets are closed by whoever listens. */
  revoke(id: string): boolean {
    for (const [hash, session] of this.byValueHash) {
      if (session.id !== id) continue;
      this.drop(hash, session);
      return true;
    }
    return false;
  }

  revokeAll(): void {
    for (const [hash, session] of [...this.byValueHash]) this.drop(hash, session);
  }

  /** Called with each session that ends (revoked, expired, evicted). */
  onRevoked(listener: (session: UiSession) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  private evictOverflow(): void {
    while (this.byValueHash.size > this.maxSessions) {
      const [hash, session] = [...this.byValueHash].reduce((oldest, entry) =>
        entry[1].lastUsedAt < oldest[1].lastUsedAt ? entry : oldest,
      );
      this.drop(hash, session);
    }
  }

  private drop(hash: string, session: UiSession): void {
    this.byValueHash.delete(hash);
    for (const listener of this.revokedListeners) listener(session);
  }
}

function hashOf(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
