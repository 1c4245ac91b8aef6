/** Questions about the repository and its branches, each answered by one git command. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { git, runGit, splitNul } from './gitCli';
import { WorktreeError } from './worktreeError';

/** The main checkout's top-level folder; a clear error when `dir` is not in a git repository. */
export async function repositoryRoot(dir: string): Promise<string> {
  const result = await runGit(dir, ['rev-parse', '--show-toplevel']);
  if (result.exitCode !== 0)
    throw new WorktreeError('not_a_repository', `${dir} is not inside a git repository: worktrees need one (git init).`);
  return result.stdout.trim();
}

/** The checked-out branch's short name, or null on a detached HEAD. */
export async function currentBranch(dir: string): Promise<string | null> {
  const result = await runGit(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return result.exitCode === 0 ? result.stdout.trim() : null;
}

export async function resolveCommit(dir: string, rev: string): Promise<string | null> {
  const result = await runGit(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  return result.exitCode === 0 ? result.stdout.trim() : null;
}

export async function branchExists(dir: string, branch: string): Promise<boolean> {
  const result = await runGit(dir, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`]);
  return result.exitCode === 0;
}

export async function isValidBranchName(dir: string, branch: string): Promise<boolean> {
  return (await runGit(dir, ['check-ref-format', '--branch', branch])).exitCode === 0;
}

/** Paths with uncommitted changes, staged, unstaged or untracked. */
export async function changedPaths(dir: string): Promise<string[]> {
  const entries = splitNul(await git(dir, ['status', '--porcelain=v1', '-z', '--untracked-files=all']));
  const paths: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    paths.push(entry.slice(3));
    // A rename's entry is followed by its source path.
    if (entry[0] === 'R' || entry[0] === 'C') i++;
  }
  return paths;
}

export async function untrackedPaths(dir: string): Promise<string[]> {
  return splitNul(await git(dir, ['ls-files', '--others', '--exclude-standard', '-z']));
}

/** Commits `a` has that `b` lacks, and the other way round. */
export async function aheadBehind(dir: string, a: string, b: string): Promise<{ ahead: number; behind: number }> {
  const result = await runGit(dir, ['rev-list', '--left-right', '--count', `${a}...${b}`]);
  if (result.exitCode !== 0) return { ahead: 0, behind: 0 };
  const [ahead, behind] = result.stdout.trim().split(/\s+/).map(Number);
  return { ahead, behind };
}

/** Git's worktree support for submodules is incomplete (git help worktree, BUGS): refuse instead of half-working. */
export function assertNoSubmodules(root: string): void {
  if (existsSync(join(root, '.gitmodules')))
    throw new WorktreeError(
      'submodules',
      `${root} uses git submodules (.gitmodules): git's worktree support for submodules is incomplete, so Switchboard does not make worktrees of it.`,
    );
}

/** Where each branch is checked out (branch short name → folder), from `git worktree list`. */
export async function checkedOutBranches(dir: string): Promise<Map<string, string>> {
  const out = await git(dir, ['worktree', 'list', '--porcelain', '-z']);
  const byBranch = new Map<string, string>();
  let path = '';
  for (const field of out.split('\0')) {
    if (field.startsWith('worktree ')) path = field.slice('worktree '.length);
    else if (field.startsWith('branch refs/heads/')) byBranch.set(field.slice('branch refs/heads/'.length), path);
  }
  return byBranch;
}

/** Identity for commits Switchboard makes itself, used only where the user has none configured. */
export async function commitIdentityArgs(dir: string): Promise<string[]> {
  const name = await runGit(dir, ['config', 'user.name']);
  const email = await runGit(dir, ['config', 'user.email']);
  const args: string[] = [];
  if (name.exitCode !== 0 && !process.env.GIT_AUTHOR_NAME) args.push('-c', 'user.name=Switchboard');
  if (email.exitCode !== 0 && !process.env.GIT_AUTHOR_EMAIL) args.push('-c', 'user.email=switchboard@localhost');
  return args;
}
