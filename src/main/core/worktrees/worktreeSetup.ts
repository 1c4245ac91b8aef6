/** What a new worktree gets from the main checkout before anything runs in it. */
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git, splitNul } from './gitCli';

/**
 * Copies files git does not track (ignored ones included: `.env*` usually is) that match the
 * project's `worktrees.copy` globs. Git matches them (`:(glob)` pathspecs: `*` stays in one folder,
 * `**` crosses folders), so the rules are git's own. Returns the copied paths.
 */
export async function copyUntrackedFiles(fromRoot: string, toRoot: string, globs: readonly string[]): Promise<string[]> {
  if (globs.length === 0) return [];
  const pathspecs = globs.map((glob) => `:(glob)${glob}`);
  const paths = splitNul(await git(fromRoot, ['ls-files', '--others', '-z', '--', ...pathspecs]));
  for (const path of paths) {
    mkdirSync(dirname(join(toRoot, path)), { recursive: true });
    cpSync(join(fromRoot, path), join(toRoot, path), { verbatimSymlinks: true, errorOnExist: false, force: false });
  }
  return paths;
}
