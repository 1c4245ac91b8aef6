/**
 * A file path the user clicked in a terminal, checked before any editor sees it: it must name an
 * existing file inside the project (after following symlinks), whatever `..` or links it contains.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { InvalidArgumentError, SwitchboardError } from '../../../shared/errors';

/** The real path of `path` (relative to `baseDir`) when it is a file inside `projectDir`. */
export function resolveProjectFile(projectDir: string, baseDir: string, path: string): string {
  const root = realOrSelf(projectDir);
  const candidate = resolve(baseDir, path);
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    throw new SwitchboardError('not_found', `No file ${path} in the project`);
  }
  if (!isInside(root, real))
    throw new InvalidArgumentError(`${path} is outside the project (${root}): only project files open in the editor`);
  if (!statSync(real).isFile()) throw new InvalidArgumentError(`${path} is not a file`);
  return real;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
