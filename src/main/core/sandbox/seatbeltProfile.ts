/**
 * macOS: a Seatbelt (sandbox-exec) profile for one run, generated as text. Reads are allowed except
 * the home folder (only the state folders and working tree inside it), writes only where the
 * plan says, and the network only to loopback ports Switchboard listens on (its egress proxy, MCP
 * endpoint, key proxies: on macOS they are TCP ports, as there is no network namespace to relay
 * into). It cannot be run on Linux: it is tested as text (docs/sandbox.md).
 */
import type { SandboxMounts } from './sandboxMounts';

interface SeatbeltPlan {
  mounts: SandboxMounts;
  /** Switchboard's data folder and other paths hidden beyond the home folder. */
  alwaysHidden: string[];
  /** Loopback ports the run may connect to. */
  loopbackPorts: number[];
}

export function seatbeltProfile(plan: SeatbeltPlan): string {
  const { mounts } = plan;
  const readable = [...mounts.rw, ...mounts.ro];
  return [
    '(version 1)',
    '(deny default)',
    '(allow process-fork process-exec)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read mach-lookup ipc-posix-shm iokit-open)',
    '(allow file-read*)',
    `(deny file-read* ${[subpath(mounts.home), ...plan.alwaysHidden.map(subpath), ...mounts.hidden.map(subpath)].join(' ')})`,
    ...(readable.length > 0 ? [`(allow file-read* ${readable.map(subpath).join(' ')})`] : []),
    `(allow file-write* ${[...mounts.rw.map(subpath), subpath('/private/tmp'), subpath('/private/var/folders'), literal('/dev/null'), literal('/dev/tty'), regex('^/dev/ttys[0-9]+$')].join(' ')})`,
    ...(mounts.ro.length > 0 ? [`(deny file-write* ${mounts.ro.map(subpath).join(' ')})`] : []),
    ...(mounts.hidden.length > 0 ? [`(deny file-read* file-write* ${mounts.hidden.map(subpath).join(' ')})`] : []),
    ...plan.loopbackPorts.map((port) => `(allow network-outbound (remote ip "localhost:${port}"))`),
    '(allow network-bind network-inbound (local ip "localhost:*"))',
    '',
  ].join('\n');
}

function subpath(path: string): string {
  return `(subpath ${quoted(path)})`;
}

function literal(path: string): string {
  return `(literal ${quoted(path)})`;
}

function regex(pattern: string): string {
  return `(regex #"${pattern}")`;
}

/** A Scheme string: backslashes and quotes escaped, so a path cannot end the rule early. */
export function quoted(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
