/**
 * A worktree's status for `list_worktrees` and the sidebar: its branch, changed files and commits
 * ahead/behind its base. One `git status` per worktree, a `git rev-list` only for a pair of HEAD and
 * base commits not counted before (`aheadBehind.ts`), a bounded number at once, and a cache per worktree keyed by file stats git changes whenever the answer can
 * change (HEAD, the branch and base refs, the index). Edits to the working tree that touch none of
 * these are not seen by the key: a cached answer is reused for at most `maxAgeMs` (docs/worktrees.md,
 * "How fresh the list is"). Diff, commit, merge and remove never read this cache.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { git, splitNul } from './gitCli';
import { fileStamp, readCommonDir, readText, worktreeGitDir } from './gitLayout';
import { AheadBehindCounts, baseCommitsIn, type BaseCommits } from './aheadBehind';

/** How long a working tree's answer may be reused while nothing git tracks has changed (ms). */
const WORKTREE_STATUS_MAX_AGE_MS = 10_000;

export interface WorktreeGitStatus {
  /** Checked-out branch, or null on a detached HEAD. */
  branch: string | null;
  changedFiles: number;
  ahead: number;
  behind: number;
}

/**
 * Reads a worktree's status: one `git status` (its branch, HEAD commit and changed files), then the
 * commits ahead/behind its base, from `counts`.
 */
export async function readWorktreeStatus(
  path: string,
  base: string | null,
  // By default resolved in the worktree itself.
  baseCommits: BaseCommits = baseCommitsIn(path),
  counts = new AheadBehindCounts(),
): Promise<WorktreeGitStatus> {
  const fields = splitNul(await git(path, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all']));
  let branch: string | null = null;
  let headCommit: string | null = null;
  let changedFiles = 0;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    if (field.startsWith('# branch.head ')) {
      const head = field.slice('# branch.head '.length);
      branch = head === '(detached)' ? null : head;
    } else if (field.startsWith('# branch.oid ')) {
      const oid = field.slice('# branch.oid '.length);
      headCommit = oid === '(initial)' ? null : oid;
    } else if (!field.startsWith('#') && !field.startsWith('! ')) {
      changedFiles++;
      // A rename or copy's entry is followed by its source path.
      if (field.startsWith('2 ')) i++;
    }
  }
  const baseCommit = base && branch && headCommit ? await baseCommits(base) : null;
  const commits = baseCommit && headCommit ? await counts.of(path, headCommit, baseCommit) : { ahead: 0, behind: 0 };
  return { branch, changedFiles, ...commits };
}

interface CachedStatus {
  key: string;
  readAt: number;
  status: WorktreeGitStatus;
}

type StatusRead = (path: string, base: string | null, baseCommits?: BaseCommits) => Promise<WorktreeGitStatus>;

export class WorktreeStatusCache {
  private readonly entries = new Map<string, CachedStatus>();
  private readonly counts = new AheadBehindCounts();

  constructor(
    private readonly read: StatusRead = (path, base, baseCommits) => readWorktreeStatus(path, base, baseCommits, this.counts),
    private readonly maxAgeMs = WORKTREE_STATUS_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The cached answer while its key holds and it is younger than `maxAgeMs`, else a fresh read.
   * `baseCommits`: one listing's shared resolution of base branches to commits.
   */
  async get(id: string, path: string, base: string | null, baseCommits?: BaseCommits): Promise<WorktreeGitStatus> {
    const key = statusKey(path, base);
    const cached = this.entries.get(id);
    if (cached && key !== null && cached.key === key && this.now() - cached.readAt < this.maxAgeMs) return cached.status;
    const readAt = this.now();
    const status = await this.read(path, base, baseCommits);
    if (key !== null) this.entries.set(id, { key, readAt, status });
    return status;
  }

  /** Switchboard changed the worktree itself (commit, merge, removal): the next read goes to git. */
  forget(id: string): void {
    this.entries.delete(id);
  }
}

/**
 * Stats of what git rewrites when HEAD, the branch, the base or the index change (each is written
 * to a new file and renamed, so the inode changes too); null when the layout is not the usual one,
 * which then is never cached.
 */
function statusKey(path: string, base: string | null): string | null {
  const gitDir = worktreeGitDir(path);
  if (gitDir === null) return null;
  const commonDir = readCommonDir(gitDir);
  const head = readText(join(gitDir, 'HEAD'));
  if (head === null) return null;
  const headRef = /^ref: (\S+)/.exec(head)?.[1];
  const parts = [head.trim(), fileStamp(join(gitDir, 'index')), fileStamp(join(commonDir, 'packed-refs'))];
  if (headRef) parts.push(fileStamp(join(commonDir, headRef)));
  if (base) for (const ref of candidateRefs(base)) parts.push(fileStamp(join(commonDir, ref)));
  return parts.join('|');
}

/** Reads `items` through `task`, at most `limit` at once, keeping their order. */
export async function mapLimited<T, R>(items: readonly T[], task: (item: T) => Promise<R>, limit = gitConcurrency()): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** git status is CPU-bound (it stats every tracked file): one per core keeps the machine responsive. */
function gitConcurrency(): number {
  return Math.max(2, availableParallelism());
}

/** A branch name as git resolves it (git help revisions: refs/, refs/tags/, refs/heads/, refs/remotes/). */
function candidateRefs(name: string): string[] {
  return [name, `refs/tags/${name}`, `refs/heads/${name}`, `refs/remotes/${name}`];
}
