/**
 * The server on the host, driven through one SSH connection: probe what runs there, install our
 * exact version when it is missing, start it (or reuse the running one), open folders in it.
 */
import { createServer } from 'node:net';
import {
  hostAgentSource,
  HOST_BASE_DIR,
  HOST_FAILURE_PREFIX,
  type HostAgentRequest,
  type HostListener,
  type HostProbe,
  type HostProject,
  type HostServer,
} from './hostAgent';
import type { HostPlatform, ServerBundle } from './serverBundle';
import { SshError, type SshConnection } from './sshConnection';
import { describeSshFailure } from './sshFailures';

/** Runs the host agent for one request and parses its JSON line; its own failure line is shown as it is. */
async function runHostAgent<T>(connection: SshConnection, request: HostAgentRequest): Promise<T> {
  const result = await connection.exec('exec node -', hostAgentSource(request));
  const destination = connection.target.destination;
  if (result.code !== 0) {
    const own = result.stderr.split('\n').find((line) => line.startsWith(HOST_FAILURE_PREFIX));
    if (own) throw new SshError(`${destination}: ${own.slice(HOST_FAILURE_PREFIX.length)}`);
    throw new SshError(describeSshFailure(destination, result.stderr, result.code));
  }
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '') as T;
}

export function probeHost(connection: SshConnection, version: string): Promise<HostProbe> {
  return runHostAgent<HostProbe>(connection, { mode: 'probe', version });
}

/** Unpacks the bundle into `~/.switchboard-server/<version>` atomically: a failed install leaves no half folder. */
export async function installServer(connection: SshConnection, bundle: ServerBundle, host: HostPlatform): Promise<void> {
  if (!/^[0-9A-Za-z.+-]+$/.test(bundle.version)) throw new Error(`Unusable server version ${JSON.stringify(bundle.version)}`);
  const script = [
    'set -e',
    'umask 077',
    `base="$HOME/${HOST_BASE_DIR}"`,
    `final="$base/${bundle.version}"`,
    `tmp="$base/.install-${bundle.version}-$$"`,
    'mkdir -p "$base"',
    `trap 'rm -rf "$tmp"' EXIT`,
    'mkdir "$tmp"',
    'tar -xzf - -C "$tmp"',
    'touch "$tmp/.installed"',
    'rm -rf "$final"',
    'mv "$tmp" "$final"',
  ].join('; ');
  await connection.run(script, bundle.stream(host));
}

/** Starts the server on the host's loopback, on a port that is free here too (it is forwarded as the same number). */
export async function startServer(connection: SshConnection, version: string, dirs: string[], trust: boolean): Promise<HostServer> {
  const port = await freeLocalPort();
  return runHostAgent<HostServer>(connection, { mode: 'start', version, port, dirs, trust });
}

/** Opens the folders in the running server (or, with none, lists what it has open), with each project's MCP endpoint. */
export async function openProjects(connection: SshConnection, version: string, dirs: string[]): Promise<HostProject[]> {
  const { projects } = await runHostAgent<{ projects: HostProject[] }>(connection, { mode: 'open', version, dirs });
  return projects;
}

/** The address the host user's own process listens on at `port` (a forward's target); one line when none does. */
export async function hostListener(connection: SshConnection, version: string, port: number): Promise<string> {
  return (await runHostAgent<HostListener>(connection, { mode: 'listener', version, port })).address;
}

/** A port free on this machine's loopback now (the system picks it). */
export function freeLocalPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
