/**
 * The config git would read in a folder, listed once per repository and kept while none of its
 * files changes: the hardening (gitHardening.ts) needs to know which program-running keys the
 * repository defines, and listing them before every call would double the processes a status
 * costs. The listing itself runs with the fixed hardening: `git config` runs nothing.
 */
import { execFile } from 'node:child_process';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileStamp, readCommonDir, worktreeGitDir } from './gitLayout';
import { FIXED_GIT_SETTINGS, GIT_ENV, parseConfigList, settingsEnv, type ConfigEntry } from './gitHardening';

interface Listing {
  entries: ConfigEntry[];
  /** Every file the listing came from (includes and the user's files too), with its stamp then. */
  stamps: Map<string, string>;
}

/** Repositories remembered at once (a project has one; a workspace a handful). */
const MAX_CACHED = 32;
const cache = new Map<string, Listing>();

/** The config entries git sees in `cwd`, from the cache while the repository's config files are unchanged. */
export async function repositoryConfig(cwd: string): Promise<ConfigEntry[]> {
  const key = repositoryKey(cwd);
  const cached = key === null ? undefined : cache.get(key);
  if (cached && [...cached.stamps].every(([file, stamp]) => fileStamp(file) === stamp)) return cached.entries;
  const listing = await listConfig(cwd);
  if (key !== null) remember(key, listing);
  return listing.entries;
}

/**
 * The repository's own config files and their stamps (the common `config`, both `config.worktree`
 * files, present or not): a file created or edited there changes the key. Null outside a checkout
 * git can be found in without running it (a bare or unusual layout is listed at every call).
 */
function repositoryKey(cwd: string): string | null {
  const gitDir = findGitDir(resolve(cwd));
  if (gitDir === null) return null;
  const common = readCommonDir(gitDir);
  const files = [join(common, 'config'), join(common, 'config.worktree'), join(gitDir, 'config.worktree')];
  return `${gitDir}\0${files.map((file) => `${file}=${fileStamp(file)}`).join('\0')}`;
}

function findGitDir(dir: string): string | null {
  for (let current = dir; ; current = dirname(current)) {
    const gitDir = worktreeGitDir(current);
    if (gitDir !== null) return gitDir;
    if (dirname(current) === current) return null;
  }
}

function remember(key: string, listing: Listing): void {
  // One entry per repository: a stale key of the same git folder goes.
  const gitDir = key.slice(0, key.indexOf('\0'));
  for (const other of cache.keys()) if (other.startsWith(`${gitDir}\0`)) cache.delete(other);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, listing);
}

function listConfig(cwd: string): Promise<Listing> {
  const env = {
    ...process.env,
    ...GIT_ENV,
    ...settingsEnv(
      FIXED_GIT_SETTINGS.map((s) => [s.key, s.value]),
      process.env,
    ),
  };
  return new Promise((done) => {
    execFile('git', ['--no-pager', 'config', '--list', '--show-scope', '--show-origin', '-z'], { cwd, env }, (error, stdout) => {
      // Not a repository, or git missing: no repository settings (the call itself reports the cause).
      const entries = error && !stdout ? [] : parseConfigList(stdout);
      const stamps = new Map<string, string>();
      for (const entry of entries) {
        if (!entry.origin.startsWith('file:')) continue;
        const file = entry.origin.slice('file:'.length);
        const path = isAbsolute(file) ? file : resolve(cwd, file);
        stamps.set(path, fileStamp(path));
      }
      done({ entries: entries.map(({ scope, key, value }) => ({ scope, key, value })), stamps });
    });
  });
}
