/**
 * `DEST[:DIR]` as `serve --remote` takes it. DEST is whatever the user's `ssh` understands (a
 * `~/.ssh/config` alias, `user@host`, `[v6addr]`); DIR, when given, is a folder on the host to
 * open as a project (`~/…` or relative: from the host user's home). The destination must have the
 * shape of a host (`sshDestinationProblem`) and goes to `ssh` as one argv element after `--`.
 */
import { hasControlCharacter, sshDestinationProblem } from '../../../shared/workspace';

export interface RemoteSpec {
  /** The SSH destination, passed to `ssh` unchanged. */
  destination: string;
  /** Folders on the host to open as projects. */
  dirs: string[];
}

/** An `ssh://[user@]host[:port]` destination: the colon after it starts DIR. */
const SSH_URI_PREFIX = /^ssh:\/\/(?:[^@/\s]*@)?(?:\[[^\]]*\]|[^:/\s]*)(?::[0-9]*)?/;

/** Parses one `DEST[:DIR]`; throws a one-line error naming what is wrong. */
export function parseRemoteSpec(text: string): RemoteSpec {
  const trimmed = text.trim();
  // A bracketed IPv6 address carries colons of its own, an ssh:// URI its port.
  const uri = SSH_URI_PREFIX.exec(trimmed)?.[0];
  const hostEnd = uri ? uri.length : trimmed.startsWith('[') || trimmed.includes('@[') ? trimmed.indexOf(']') + 1 : 0;
  const colon = trimmed.indexOf(':', hostEnd);
  const destination = colon < 0 ? trimmed : trimmed.slice(0, colon);
  const dir = colon < 0 ? '' : trimmed.slice(colon + 1);
  if (!destination) throw new Error(`--remote ${JSON.stringify(text)}: no host before the ":"`);
  checkDestination(destination, `--remote ${JSON.stringify(text)}`);
  if (hasControlCharacter(dir)) throw new Error(`--remote ${JSON.stringify(text)}: the folder contains control characters`);
  return { destination, dirs: dir ? [dir] : [] };
}

/** Throws one line when `destination` is not the shape of a host (checked before any ssh runs). */
function checkDestination(destination: string, label = destination): void {
  const problem = sshDestinationProblem(destination);
  if (problem) throw new Error(`${label}: ${problem}`);
}

/** Several `--remote` values: the folders of one destination gathered under it, in order. */
export function groupRemoteSpecs(texts: readonly string[]): RemoteSpec[] {
  const byDestination = new Map<string, RemoteSpec>();
  for (const text of texts) {
    const spec = parseRemoteSpec(text);
    const known = byDestination.get(spec.destination);
    if (!known) byDestination.set(spec.destination, spec);
    else for (const dir of spec.dirs) if (!known.dirs.includes(dir)) known.dirs.push(dir);
  }
  return [...byDestination.values()];
}
