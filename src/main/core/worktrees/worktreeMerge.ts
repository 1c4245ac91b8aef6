/**
 * Lands a worktree's branch on its base. The base is merged where it is checked out (normally the
 * main checkout), which must be clean; a conflict is aborted at once, so both sides stay exactly
 * as they were, and the error names the files.
 */
import type { MergeStrategy } from '../../../shared/worktree';
import { git, gitFailure, runGit } from './gitCli';
import { changedPaths, checkedOutBranches, commitIdentityArgs, resolveCommit } from './repository';
import { WorktreeError } from './worktreeError';

interface MergeRequest {
  repoRoot: string;
  worktreeDir: string;
  worktreeId: string;
  branch: string;
  base: string;
  strategy: MergeStrategy;
}

/** Returns the base's commit after the merge. */
export async function mergeIntoBase(request: MergeRequest): Promise<string> {
  const { worktreeDir, base } = request;
  if ((await changedPaths(worktreeDir)).length > 0)
    throw new WorktreeError(
      'dirty',
      `Worktree "${request.worktreeId}" has uncommitted changes: commit them (commit_worktree) before merging.`,
    );
  const baseDir = (await checkedOutBranches(request.repoRoot)).get(base);
  if (baseDir === undefined)
    throw new WorktreeError(
      'base_not_checked_out',
      `The base branch "${base}" is not checked out anywhere: check it out in the main checkout to merge into it.`,
    );
  const dirty = await changedPaths(baseDir);
  if (dirty.length > 0)
    throw new WorktreeError(
      'dirty_base',
      `The base "${base}" has uncommitted changes in ${baseDir} (${preview(dirty)}): commit or stash them before merging.`,
      { files: dirty },
    );
  if (request.strategy === 'rebase') await rebaseOnto(worktreeDir, request.worktreeId, base);
  await mergeIn(baseDir, request);
  return (await resolveCommit(baseDir, 'HEAD')) ?? '';
}

async function mergeIn(baseDir: string, request: MergeRequest): Promise<void> {
  const identity = await commitIdentityArgs(baseDir);
  const args =
    request.strategy === 'merge'
      ? [...identity, 'merge', '--no-ff', '--no-edit', '-m', `Merge worktree ${request.worktreeId} (${request.branch})`, request.branch]
      : ['merge', '--ff-only', request.branch];
  const result = await runGit(baseDir, args);
  if (result.exitCode === 0) return;
  const conflicts = await conflictedFiles(baseDir);
  if (conflicts.length > 0) {
    await git(baseDir, ['merge', '--abort']);
    throw conflictError(request.worktreeId, request.base, conflicts);
  }
  if (request.strategy !== 'merge')
    throw new WorktreeError(
      'not_fast_forward',
      `"${request.base}" has moved on since "${request.branch}" left it: merge with strategy "merge" or "rebase".`,
    );
  throw gitFailure(['merge', request.branch], result);
}

async function rebaseOnto(worktreeDir: string, worktreeId: string, base: string): Promise<void> {
  const identity = await commitIdentityArgs(worktreeDir);
  const result = await runGit(worktreeDir, [...identity, 'rebase', base]);
  if (result.exitCode === 0) return;
  const conflicts = await conflictedFiles(worktreeDir);
  await runGit(worktreeDir, ['rebase', '--abort']);
  if (conflicts.length > 0) throw conflictError(worktreeId, base, conflicts);
  throw gitFailure(['rebase', base], result);
}

async function conflictedFiles(dir: string): Promise<string[]> {
  const out = await git(dir, ['diff', '--name-only', '--diff-filter=U', '-z']);
  return out.split('\0').filter(Boolean);
}

function conflictError(worktreeId: string, base: string, files: string[]): WorktreeError {
  return new WorktreeError(
    'conflict',
    `Merging worktree "${worktreeId}" into "${base}" conflicts in ${preview(files)}; nothing was changed (merge aborted). Resolve in the worktree (e.g. merge "${base}" there) and try again.`,
    { files },
  );
}

function preview(files: string[]): string {
  const shown = files.slice(0, 5).join(', ');
  return files.length > 5 ? `${shown} and ${files.length - 5} more` : shown;
}
