/**
 * `DEST[:DIR]` as `serve --remote` takes it. DEST is whatever the user's `ssh` understands (a
 * `~/.ssh/config` alias, `user@host`, `[v6addr]`); DIR, when given, is a folder on the host to
 * open as a project (`~/…` or relative: from the host user's home). The destination goes to `ssh`
 * as one argv element after `--`, so it can never be read as an option.
 */
import { hasControlCharacter } from '../../../shared/workspace';

export interface RemoteSpec {
  /** The SSH destination, passed to `ssh` unchanged. */
  destination: string;
  /** Folders on the host to open as projects. */
  dirs: string[];
}

/** Parses one `DEST[:DIR]`; throws a one-line error naming what is wrong. */
export function parseRemoteSpec(text: string): RemoteSpec {
  const trimmed = text.trim();
  // A bracketed IPv6 address carries colons of its own.
  const hostEnd = trimmed.startsWith('[') || trimmed.includes('@[') ? trimmed.indexOf(']') + 1 : 0;
  const colon = trimmed.indexOf(':', hostEnd);
  const destination = colon < 0 ? trimmed : trimmed.slice(0, colon);
  const dir = colon < 0 ? '' : trimmed.slice(colon + 1);
  if (!destination) throw new Error(`--remote ${JSON.stringify(text)}: no host before the ":"`);
  if (destination.startsWith('-')) throw new Error(`--remote ${JSON.stringify(text)}: a host cannot start with "-"`);
  if (/\s/.test(destination) || hasControlCharacter(destination))
    throw new Error(`--remote ${JSON.stringify(text)}: the host contains spaces or control characters`);
  if (hasControlCharacter(dir)) throw new Error(`--remote ${JSON.stringify(text)}: the folder contains control characters`);
  return { destination, dirs: dir ? [dir] : [] };
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
