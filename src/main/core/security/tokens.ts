/** Bearer tokens and request-origin checks shared by the `serve` bridge and the MCP endpoint. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256-bit random token, URL-safe. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison (hashing first makes the lengths equal, so length leaks nothing). */
export function tokensEqual(given: string | undefined | null, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** DNS-rebinding guard: the Host header must name a loopback host with our port. */
export function isAllowedHost(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostHeader.trim().toLowerCase());
  if (!match) return false;
  return LOOPBACK_NAMES.has(match[1]) && Number(match[2] ?? 80) === port;
}

/** A present Origin must be our own loopback origin (browser pages elsewhere must not call us). */
export function isAllowedOrigin(origin: string | undefined, port: number, extra: readonly string[] = []): boolean {
  if (origin === undefined) return true;
  if (extra.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && isAllowedHost(url.host, port);
}

export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return match?.[1];
}
