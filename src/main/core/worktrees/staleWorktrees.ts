/**
 * The prune view: worktrees that have likely done their job or been forgotten — their folder is
 * gone, their branch is merged into the base, or nothing ran in them for N days — each with its
 * disk use, so a person can clear them (removal still refuses unsaved work unless forced).
 */
import { execFile } from 'node:child_process';
import type { StaleReason, StaleWorktree, WorktreeStatus } from '../../../shared/worktree';
import { resolveCommit } from './repository';
import type { WorktreeRecord } from './worktreeStore';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function staleReasons(record: WorktreeRecord, status: WorktreeStatus, unusedDays: number, now: Date): Promise<StaleReason[]> {
  const reasons: StaleReason[] = [];
  if (status.isMissing) reasons.push('folder-gone');
  else if (status.ahead === 0 && status.changedFiles === 0 && (await resolveCommit(record.path, 'HEAD')) !== record.startCommit)
    // Work was done (HEAD moved from where it started) and all of it is in the base.
    reasons.push('branch-merged');
  if (now.getTime() - Date.parse(record.lastUsedAt) >= unusedDays * DAY_MS) reasons.push('unused');
  return reasons;
}

/** Bytes on disk under `path` (`du`, which counts what the filesystem really holds); 0 when it cannot tell. */
export function diskBytes(path: string): Promise<number> {
  return new Promise((resolve) => {
    execFile('du', ['-sk', path], (error, stdout) => resolve(error ? 0 : Number(stdout.split('\t')[0]) * 1024 || 0));
  });
}

export function staleEntry(status: WorktreeStatus, reasons: StaleReason[], bytes: number, record: WorktreeRecord): StaleWorktree {
  return { worktree: status, reasons, diskBytes: bytes, lastUsedAt: record.lastUsedAt };
}
