/**
 * A new worktree's index, refreshed once. Right after `git worktree add` its files were written in
 * the same second as the index, so git treats them as "racily clean" and re-reads every file's
 * content on each `git status` (git's racy-git documentation, Documentation/technical/racy-git.txt);
 * Switchboard's reads run with optional locks off, so they never write the refreshed index back.
 * One `git update-index --refresh` once the clock has left the index's second records the files'
 * stats as clean, and later reads only stat them.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from './gitCli';
import { worktreeGitDir } from './gitLayout';

/** Resolves once the worktree's index has been refreshed (or could not be: nothing depends on it). */
export async function refreshIndexOnceSettled(path: string): Promise<void> {
  const gitDir = worktreeGitDir(path);
  if (gitDir === null) return;
  try {
    const indexSecond = Math.floor(statSync(join(gitDir, 'index')).mtimeMs / 1000);
    await untilClockPasses((indexSecond + 1) * 1000);
    await runGit(path, ['update-index', '-q', '--refresh']);
  } catch {
    // The worktree was removed meanwhile, or git holds the index for someone else, who refreshes it then.
  }
}

function untilClockPasses(epochMs: number): Promise<void> {
  const wait = epochMs - Date.now();
  if (wait <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, wait).unref());
}
