/** Where git keeps a checkout's files, read from disk without running git (git help gitrepository-layout). */
import { readFileSync, statSync, type BigIntStats } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/** The checkout's git folder: `.git` itself in the main checkout, the folder its `.git` file points to in a linked worktree. */
export function worktreeGitDir(path: string): string | null {
  const dotGit = join(path, '.git');
  const stat = statOrNull(dotGit);
  if (stat === null) return null;
  if (stat.isDirectory()) return dotGit;
  const pointer = /^gitdir: (.+)$/m.exec(readText(dotGit) ?? '')?.[1]?.trim();
  if (!pointer) return null;
  return isAbsolute(pointer) ? pointer : resolve(path, pointer);
}

/** The repository's shared folder (refs, objects), named by the worktree's `commondir`. */
export function readCommonDir(gitDir: string): string {
  const common = readText(join(gitDir, 'commondir'))?.trim();
  if (!common) return gitDir;
  return isAbsolute(common) ? common : resolve(gitDir, common);
}

/** A file's identity and last change, `-` when it does not exist. */
export function fileStamp(file: string): string {
  const stat = statOrNull(file);
  return stat === null ? '-' : `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
}

function statOrNull(file: string): BigIntStats | null {
  try {
    return statSync(file, { bigint: true });
  } catch {
    return null;
  }
}

export function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
