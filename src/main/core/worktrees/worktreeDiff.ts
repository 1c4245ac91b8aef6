/**
 * A worktree's changes against its base, as a reviewer reads them: everything the branch changed
 * since it left the base (the merge base, as a pull request shows it) plus what is not committed
 * yet, each file marked, with +/− counts and its unified diff.
 */
import type { DiffFile } from '../../../shared/worktree';
import { git, runGit, splitNul } from './gitCli';
import { changedPaths, untrackedPaths } from './repository';

/** Names as they are (no octal quoting of non-ASCII paths), so they match `status` and `numstat -z`. */
const DIFF_FLAGS = ['-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--no-renames', '--no-textconv'];

export async function diffAgainstBase(dir: string, base: string): Promise<DiffFile[]> {
  const mergeBase = (await git(dir, ['merge-base', base, 'HEAD'])).trim();
  const uncommitted = new Set(await changedPaths(dir));
  const counts = await numstat(dir, mergeBase);
  const patches = await patchesByFile(dir, mergeBase);
  const files: DiffFile[] = [...counts].map(([path, count]) => ({
    path,
    ...count,
    isUncommitted: uncommitted.has(path),
    patch: patches.get(path) ?? '',
  }));
  for (const path of await untrackedPaths(dir)) files.push(await untrackedFile(dir, path));
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

type LineCounts = Pick<DiffFile, 'added' | 'removed'>;

/** Tracked changes (committed, staged and unstaged) between the merge base and the working tree. */
async function numstat(dir: string, mergeBase: string): Promise<Map<string, LineCounts>> {
  const fields = splitNul(await git(dir, [...DIFF_FLAGS, '--numstat', '-z', mergeBase, '--']));
  const counts = new Map<string, LineCounts>();
  for (const field of fields) {
    const [added, removed, path] = field.split('\t');
    counts.set(path, toCounts(added, removed));
  }
  return counts;
}

/** One `git diff` call, cut at each file header; the file is named by the `+++`/`---` lines git writes. */
async function patchesByFile(dir: string, mergeBase: string): Promise<Map<string, string>> {
  const text = await git(dir, [...DIFF_FLAGS, '--src-prefix=a/', '--dst-prefix=b/', mergeBase, '--']);
  const patches = new Map<string, string>();
  for (const chunk of text.split(/^(?=diff --git )/m)) {
    const path = patchPath(chunk);
    if (path !== null) patches.set(path, chunk);
  }
  return patches;
}

function patchPath(chunk: string): string | null {
  const header = /^diff --git a\/(.*) b\/(.*)$/m.exec(chunk);
  if (!header) return null;
  const target = /^\+\+\+ b\/(.*)$/m.exec(chunk) ?? /^--- a\/(.*)$/m.exec(chunk);
  // Git ends a name holding a space with a tab on these lines.
  return (target ? target[1] : header[2]).replace(/\t$/, '');
}

async function untrackedFile(dir: string, path: string): Promise<DiffFile> {
  // `--no-index` exits 1 when the files differ, which they always do here.
  const patch = (await runGit(dir, [...DIFF_FLAGS, '--no-index', '--', '/dev/null', path])).stdout;
  const stat = (await runGit(dir, [...DIFF_FLAGS, '--no-index', '--numstat', '--', '/dev/null', path])).stdout;
  const [added, removed] = stat.split('\t');
  return { path, ...toCounts(added, removed), isUncommitted: true, patch };
}

/** Binary files count as `-` in numstat. */
function toCounts(added: string | undefined, removed: string | undefined): LineCounts {
  return {
    added: added === '-' || added === undefined ? null : Number(added),
    removed: removed === '-' || removed === undefined ? null : Number(removed),
  };
}
