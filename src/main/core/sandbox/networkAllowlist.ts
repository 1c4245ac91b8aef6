/**
 * Which destinations a sandboxed run may connect to: `host` (any port), `*.domain` (its
 * subdomains), `host:port` (that port only). Names compare case-insensitively; an IPv6 address
 * is written in brackets.
 */
import { BlockList, isIPv6 } from 'node:net';
import { portOf } from '../../../shared/sandbox';

/**
 * Addresses of this machine or its local network: loopback, unspecified, link-local, private and
 * shared (CGNAT) ranges, unique-local IPv6. An allowed name resolving there (DNS rebinding, names
 * like `localtest.me`) would reach the host's own services.
 */
const LOCAL_RANGES: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
];
const localAddresses = new BlockList();
for (const [network, prefix, type] of LOCAL_RANGES) localAddresses.addSubnet(network, prefix, type);

/** Whether `address` (an IP address) is one of this machine's or its local network's. */
export function isLocalAddress(address: string): boolean {
  const plain = normalHost(address);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped) return localAddresses.check(mapped[1], 'ipv4');
  return localAddresses.check(plain, isIPv6(plain) ? 'ipv6' : 'ipv4');
}

/** Whether the allowlist names exactly `address:port` (a local address is reached only that way). */
export function namesAddressAndPort(allow: readonly string[], address: string, port: number): boolean {
  const plain = normalHost(address);
  return allow.some((entry) => {
    const entryPort = portOf(entry);
    return entryPort === port && normalHost(entry.slice(0, entry.lastIndexOf(':'))) === plain;
  });
}

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
