/**
 * Which folders a typed path may open: the user's home and the directories given on the command
 * line. A browser tab can type any path, so every path is resolved fully (`~`, `..`, symlinks)
 * before the check — a link inside home that points at /etc is outside.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { InvalidArgumentError, SwitchboardError } from '../../../shared/errors';
import type { PathCompletion } from '../../../shared/workspace';

/** A completion list longer than this is no help to a person typing. */
const MAX_COMPLETIONS = 100;

export class FolderRoots {
  readonly roots: string[];

  constructor(
    roots: string[],
    private readonly home = homedir(),
  ) {
    const real = roots.map((root) => realOrSelf(resolve(root)));
    // A root inside another adds nothing; the outer one already allows it.
    this.roots = [...new Set(real)].filter((root) => !real.some((other) => other !== root && isInside(root, other)));
  }

  /** The real path of a folder a person typed, when it lies within a root; a clear error otherwise. */
  resolveFolder(typed: string): string {
    const absolute = this.absolute(typed);
    let real: string;
    try {
      real = realpathSync(absolute);
    } catch {
      throw new InvalidArgumentError(`No such folder: ${typed}`);
    }
    if (!this.allows(real)) throw outsideRoots(typed, real, this.roots);
    if (!statSync(real).isDirectory()) throw new InvalidArgumentError(`Not a folder: ${typed}`);
    return real;
  }

  allows(realPath: string): boolean {
    return this.roots.some((root) => isInside(realPath, root));
  }

  /**
   * Sub-folders whose names start with what follows the last `/` of `partial`. A partial path
   * outside every root completes only towards the roots themselves.
   */
  complete(partial: string): PathCompletion {
    if (partial.trim() === '') return { dir: '', folders: [...this.roots] };
    const absolute = this.absolute(partial);
    const endsWithSeparator = partial.endsWith('/') || partial === '~';
    const parent = endsWithSeparator ? absolute : dirname(absolute);
    const prefix = endsWithSeparator ? '' : basename(absolute);
    const realParent = realOrUndefined(parent);
    if (!realParent || !this.allows(realParent)) {
      return { dir: parent, folders: this.roots.filter((root) => root.startsWith(absolute)) };
    }
    return { dir: realParent, folders: this.childFolders(realParent, prefix) };
  }

  private childFolders(dir: string, prefix: string): string[] {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return []; // unreadable: nothing to offer, the open itself says why
    }
    const showHidden = prefix.startsWith('.');
    return names
      .filter((name) => name.startsWith(prefix) && (showHidden || !name.startsWith('.')))
      .map((name) => join(dir, name))
      .filter((path) => isFolderWithin(path, this))
      .sort((a, b) => a.localeCompare(b))
      .slice(0, MAX_COMPLETIONS);
  }

  private absolute(typed: string): string {
    const expanded = typed === '~' ? this.home : typed.startsWith('~/') ? join(this.home, typed.slice(2)) : typed;
    if (!isAbsolute(expanded)) throw new InvalidArgumentError(`Type a full path (starting with / or ~): ${typed}`);
    return resolve(expanded);
  }
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function isFolderWithin(path: string, roots: FolderRoots): boolean {
  const real = realOrUndefined(path);
  if (!real || !roots.allows(real)) return false;
  try {
    return statSync(real).isDirectory();
  } catch {
    return false;
  }
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function realOrSelf(path: string): string {
  return realOrUndefined(path) ?? path;
}

function outsideRoots(typed: string, real: string, roots: string[]): SwitchboardError {
  const resolvedNote = real === typed ? '' : ` (it resolves to ${real})`;
  return new SwitchboardError(
    'forbidden',
    `${typed} is outside the folders Switchboard may open here${resolvedNote}. Allowed: ${roots.join(', ')}. Start serve with --root DIR to allow another folder.`,
  );
}
