/**
 * Linux: bubblewrap. Every namespace unshared (its own network with only a loopback, its own pids,
 * so nothing outside can be seen or signalled), no capabilities, no new privileges (bwrap sets
 * PR_SET_NO_NEW_PRIVS), gone with its parent. Inside, `socat` relays fixed loopback ports to the
 * host's Unix sockets (egress proxy, MCP endpoint, API key proxy) before the program starts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { InboundRelay, SandboxBackend, SandboxRunPlan, SpareLink } from './sandboxBackend';

/** How long the relays get to listen before the program starts anyway (they take a few ms). */
const RELAY_WAIT_TRIES = 300;

function findOnPath(program: string, env: Readonly<Record<string, string>>): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, program);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

const probeResults = new Map<string, string | undefined>();

/** Whether bwrap can make its namespaces here (user namespaces may be off): asked once per binary. */
function probeBwrap(bwrap: string): string | undefined {
  if (probeResults.has(bwrap)) return probeResults.get(bwrap);
  let reason: string | undefined;
  try {
    execFileSync(bwrap, ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '--cap-drop', 'ALL', 'true'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 10_000,
    });
  } catch (err) {
    const stderr =
      String((err as { stderr?: Buffer }).stderr ?? '')
        .trim()
        .split('\n')[0] || String(err);
    reason =
      `Sandbox unavailable: bubblewrap cannot create namespaces (${stderr}). ` +
      'Enable unprivileged user namespaces: sudo sysctl -w kernel.unprivileged_userns_clone=1 (Ubuntu 24.04+: kernel.apparmor_restrict_unprivileged_userns=0)';
  }
  probeResults.set(bwrap, reason);
  return reason;
}

export const bwrapBackend: SandboxBackend = {
  name: 'bubblewrap',
  unavailableReason(env) {
    const bwrap = findOnPath('bwrap', env);
    if (!bwrap)
      return 'Sandbox unavailable: bubblewrap (bwrap) is not installed. Install it: sudo apt install bubblewrap (Fedora: sudo dnf install bubblewrap)';
    if (!findOnPath('socat', env))
      return 'Sandbox unavailable: socat (the sandbox network relay) is not installed. Install it: sudo apt install socat (Fedora: sudo dnf install socat)';
    return probeBwrap(bwrap);
  },
  wrap(plan, argv, env) {
    return [
      'bwrap',
      ...bwrapArgs(plan),
      '--',
      '/bin/sh',
      '-c',
      innerScript(plan, findOnPath('socat', env) ?? 'socat'),
      'switchboard-sandbox',
      ...argv,
    ];
  },
};

/** bwrap's options for `plan`; the order matters (a later mount lands on top of an earlier one). */
export function bwrapArgs(plan: SandboxRunPlan): string[] {
  const { mounts } = plan;
  return [
    '--die-with-parent',
    '--unshare-all',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    ...hide(mounts.home),
    ...plan.alwaysHidden.flatMap(hide),
    ...mounts.rw.flatMap((path) => ['--bind-try', path, path]),
    ...mounts.ro.flatMap((path) => ['--ro-bind-try', path, path]),
    ...mounts.hidden.flatMap(hide),
    '--ro-bind',
    plan.socketDir,
    plan.socketDir,
    '--chdir',
    plan.cwd,
  ];
}

/** A folder becomes an empty tmpfs, a file an empty read-only one; a missing path needs nothing. */
function hide(path: string): string[] {
  if (!existsSync(path)) return [];
  return statSync(path).isDirectory() ? ['--tmpfs', path] : ['--ro-bind', '/dev/null', path];
}

/**
 * Starts each relay, waits until all their ports listen, then becomes the program (`exec`), under
 * the configured limits.
 */
export function innerScript(plan: SandboxRunPlan, socat: string): string {
  const relays = plan.relays.map((relay) => `${quote(socat)} ${relaySpec(relay)} 2>/dev/null &`);
  const spare = plan.spareLink ? [`${quote(socat)} ${spareSpec(plan.spareLink, socat)} </dev/null >/dev/null 2>&1 &`] : [];
  const wait = plan.relays.length > 0 ? [relaysListening(plan.relays.map((relay) => relay.port))] : [];
  return [...relays, ...spare, ...wait, `exec ${limitsPrefix(plan)}"$@"`].join('\n');
}

/**
 * One loop over the sandbox's /proc/net/tcp (its own network: only the relays' lines) with the
 * shell's own `read`, counting listening sockets on the relay ports: a check forks nothing, which
 * matters on a loaded machine where every fork is slow.
 */
function relaysListening(ports: number[]): string {
  const match = ports.map((port) => `*:${hexPort(port)}`).join('|');
  const count = `up=0; while read -r _ local remote state _; do [ "$remote $state" = '00000000:0000 0A' ] && case $local in ${match}) up=$((up+1)) ;; esac; done </proc/net/tcp`;
  return `n=0; while [ $n -lt ${RELAY_WAIT_TRIES} ]; do ${count}; [ $up -ge ${ports.length} ] && break; n=$((n+1)); sleep 0.01; done`;
}

/** `nodelay`: socat relays what it reads as it reads it; Nagle's delay on top would hold a response's tail back. */
function relaySpec(relay: InboundRelay): string {
  return quote(`TCP-LISTEN:${relay.port},bind=127.0.0.1,fork,reuseaddr,nodelay`) + ' ' + quote(`UNIX-CONNECT:${relay.socket}`);
}

function spareSpec(link: SpareLink, socat: string): string {
  return quote(`UNIX-CONNECT:${link.socket}`) + ' ' + quote(`EXEC:/bin/sh ${link.script} ${socat} ${link.socket}`);
}

function limitsPrefix(plan: SandboxRunPlan): string {
  const limits = [
    ...(plan.maxProcesses !== undefined ? [`--nproc=${plan.maxProcesses}`] : []),
    ...(plan.memoryMb !== undefined ? [`--data=${plan.memoryMb * 1024 * 1024}`] : []),
  ];
  return limits.length > 0 ? `prlimit ${limits.join(' ')} -- ` : '';
}

function hexPort(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, '0');
}

/** Single-quoted for sh. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
