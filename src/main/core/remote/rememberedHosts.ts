/**
 * The hosts the user connected to, in `remote-hosts.json` of the data directory (never in a
 * project): destination, the folders opened there and the ssh config used. No secret is stored;
 * the system's ssh and agent hold those.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../base';

const HOSTS_FILE = 'remote-hosts.json';
/** The list keeps the most recent hosts only. */
const MAX_HOSTS = 50;

export interface RememberedHost {
  destination: string;
  dirs: string[];
  configFile?: string;
  /** Epoch ms of the last successful connect. */
  connectedAt: number;
}

export function readRememberedHosts(dataDir: string): RememberedHost[] {
  try {
    const value = JSON.parse(readFileSync(join(dataDir, HOSTS_FILE), 'utf8')) as unknown;
    return Array.isArray(value) ? value.filter(isRememberedHost) : [];
  } catch {
    return []; // none yet, or unreadable: start a new list
  }
}

/** Records a successful connect, most recent first; returns the list as written. */
export function rememberHost(dataDir: string, host: RememberedHost): RememberedHost[] {
  const others = readRememberedHosts(dataDir).filter((h) => h.destination !== host.destination || h.configFile !== host.configFile);
  const hosts = [host, ...others].slice(0, MAX_HOSTS);
  writeFileAtomic(join(dataDir, HOSTS_FILE), `${JSON.stringify(hosts, null, 2)}\n`, 0o600);
  return hosts;
}

/** Removes a host from the list; returns the list as written. */
export function forgetRememberedHost(dataDir: string, destination: string, configFile: string | undefined): RememberedHost[] {
  const hosts = readRememberedHosts(dataDir).filter((h) => h.destination !== destination || h.configFile !== configFile);
  writeFileAtomic(join(dataDir, HOSTS_FILE), `${JSON.stringify(hosts, null, 2)}\n`, 0o600);
  return hosts;
}

function isRememberedHost(value: unknown): value is RememberedHost {
  const host = value as RememberedHost;
  return typeof host?.destination === 'string' && Array.isArray(host.dirs) && typeof host.connectedAt === 'number';
}
