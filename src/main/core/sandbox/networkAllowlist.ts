/**
 * Which destinations a sandboxed run may connect to: `host` (any port), `*.domain` (its
 * subdomains), `host:port` (that port only). Names compare case-insensitively; an IPv6 address
 * is written in brackets.
 */
import { portOf } from '../../../shared/sandbox';

export function isAllowed(allow: readonly string[], host: string, port: number): boolean {
  const name = normalHost(host);
  return allow.some((entry) => {
    const entryPort = portOf(entry);
    if (entryPort !== undefined && entryPort !== port) return false;
    const pattern = normalHost(entryPort !== undefined ? entry.slice(0, entry.lastIndexOf(':')) : entry);
    return pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === pattern;
  });
}

/** Lower case, without an IPv6 address's brackets. */
function normalHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}

/** `host:port` of a CONNECT target or URL authority; undefined when it is not one. */
export function splitAuthority(authority: string, defaultPort?: number): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(authority);
  if (!match) return undefined;
  const port = match[2] !== undefined ? Number(match[2]) : defaultPort;
  if (port === undefined || port < 1 || port > 65_535) return undefined;
  return { host: normalHost(match[1]), port };
}
