/**
 * How devices reach this machine, from `--public-url` / `--listen` / `--tls-cert` / `--tls-key`.
 * Loopback alone is the default; beyond it only HTTPS: either our own listener with the person's
 * certificate, or their HTTPS front (tailscale serve, Caddy) forwarding to a loopback port. Any
 * other combination is refused with one line saying what to give.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

const DEFAULT_LISTEN_PORT = 8443;

interface PublicAccessFlags {
  publicUrl?: string;
  listen?: string;
  tlsCert?: string;
  tlsKey?: string;
}

interface PublicAccess {
  /** The origin devices open (pairing links and notification actions point here). */
  origin: string;
  /** `--listen`: our own HTTPS listener. Absent: loopback HTTP for the person's front. */
  tls?: { host: string; port: number; cert: Buffer; key: Buffer };
}

/** undefined: loopback only. Throws an Error whose message is the one line to print. */
export function parsePublicAccess(flags: PublicAccessFlags): PublicAccess | undefined {
  const { publicUrl, listen, tlsCert, tlsKey } = flags;
  if (!listen && (tlsCert || tlsKey)) throw new Error('--tls-cert and --tls-key go with --listen ADDR[:PORT]');
  const origin = publicUrl === undefined ? undefined : httpsOrigin(publicUrl);
  if (!listen) return origin ? { origin } : undefined;
  if (!tlsCert || !tlsKey)
    throw new Error('--listen serves HTTPS only: give --tls-cert FILE and --tls-key FILE (plain HTTP never leaves loopback)');
  const { host, port } = parseListen(listen);
  const tls = { host, port, cert: readPem(tlsCert, '--tls-cert'), key: readPem(tlsKey, '--tls-key') };
  return { origin: origin ?? `https://${host.includes(':') ? `[${host}]` : host}:${port}`, tls };
}

function httpsOrigin(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (err) {
    throw new Error(`--public-url must be an https:// URL, got ${JSON.stringify(url)}`, { cause: err });
  }
  if (parsed.protocol !== 'https:')
    throw new Error(`--public-url must be an https:// URL (devices reach it over HTTPS only), got ${parsed.protocol}`);
  if (parsed.pathname !== '/' || parsed.search || parsed.hash)
    throw new Error('--public-url is an origin only (https://HOST[:PORT]), without a path');
  return parsed.origin;
}

function parseListen(listen: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(listen.trim());
  const host = match?.[1] ?? match?.[2];
  const port = match?.[3] === undefined ? DEFAULT_LISTEN_PORT : Number(match[3]);
  if (!host || !isIP(host) || port < 1 || port > 65535)
    throw new Error(`--listen takes an IP address and optional port (ADDR[:PORT], [v6addr]:PORT), got ${JSON.stringify(listen)}`);
  return { host, port };
}

function readPem(file: string, flag: string): Buffer {
  let pem: Buffer;
  try {
    pem = readFileSync(file);
  } catch (err) {
    throw new Error(`${flag} ${file}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`, { cause: err });
  }
  if (!pem.toString('latin1').includes('-----BEGIN ')) throw new Error(`${flag} ${file} is not a PEM file`);
  return pem;
}
