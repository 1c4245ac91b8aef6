/**
 * Removes a worktree without losing work: uncommitted changes or commits its base lacks refuse the
 * removal unless forced, and a forced removal first saves everything to a branch it names.
 */
import { existsSync } from 'node:fs';
import { git, runGit } from './gitCli';
import { aheadBehind, branchExists, changedPaths, commitIdentityArgs } from './repository';
import { WorktreeError } from './worktreeError';
import type { WorktreeRecord } from './worktreeStore';

interface RemovalRequest {
  repoRoot: string;
  record: WorktreeRecord;
  force: boolean;
  /** Names the saved branch apart from earlier saves of the same worktree. */
  stamp: string;
}

/** Returns the branch the work was saved to, or null when there was nothing to save. */
export async function removeWorktreeSafely(request: RemovalRequest): Promise<string | null> {
  const { record, repoRoot } = request;
  const hasFolder = existsSync(record.path);
  const dirty = hasFolder ? await changedPaths(record.path) : [];
  const hasBranch = await branchExists(repoRoot, record.branch);
  const unmerged = hasBranch ? (await aheadBehind(repoRoot, record.branch, record.base)).ahead : 0;
  if (!request.force) assertNothingToLose(record, dirty, unmerged);
  const needsSave = dirty.length > 0 || unmerged > 0;
  const savedTo = needsSave ? `switchboard/saved/${record.id}-${request.stamp}` : null;
  if (savedTo) await saveWork(request, savedTo, dirty.length > 0);
  if (hasFolder) await git(repoRoot, ['worktree', 'remove', '--force', record.path]);
  else await git(repoRoot, ['worktree', 'prune']);
  if (hasBranch) await git(repoRoot, ['branch', '-D', record.branch]);
  return savedTo;
}

function assertNothingToLose(record: WorktreeRecord, dirty: string[], unmerged: number): void {
  if (dirty.length > 0)
    throw new WorktreeError(
      'dirty',
      `Worktree "${record.id}" has ${dirty.length} uncommitted file(s) (${dirty.slice(0, 5).join(', ')}): commit or merge them, or remove with force (the work is saved to a branch first).`,
      { files: dirty },
    );
  if (unmerged > 0)
    throw new WorktreeError(
      'unmerged',
      `Worktree "${record.id}" has ${unmerged} commit(s) not in "${record.base}": merge them, or remove with force (the branch is kept under a saved name first).`,
    );
}

/** Uncommitted work becomes a commit on the saved branch; the worktree's own branch is left as it was. */
async function saveWork(request: RemovalRequest, savedTo: string, hasUncommitted: boolean): Promise<void> {
  const { record } = request;
  if (!hasUncommitted) {
    await git(request.repoRoot, ['branch', savedTo, record.branch]);
    return;
  }
  const identity = await commitIdentityArgs(record.path);
  await git(record.path, ['switch', '--quiet', '-c', savedTo]);
  await git(record.path, ['add', '--all']);
  const result = await runGit(record.path, [
    ...identity,
    'commit',
    '--quiet',
    '--no-verify',
    '-m',
    `Work saved by Switchboard before removing worktree ${record.id}`,
  ]);
  if (result.exitCode !== 0)
    throw new WorktreeError('git_failed', `Could not save the work of "${record.id}" (nothing was removed): ${result.stderr.trim()}`);
}
