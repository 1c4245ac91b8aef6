/**
 * What a sandboxed run sees of the file system: system folders read-only, a private /tmp, the home
 * folder hidden (an empty tmpfs) except the agent CLI's own state folders, the project folder (or
 * worktree) read-write, and the configured extras. Pure: the backends turn it into their syntax.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { SandboxOptions } from '../../../shared/sandbox';
import type { StateFolder } from '../agents';

export interface SandboxMounts {
  home: string;
  /** Read-write, in order (a later one may sit inside an earlier one). */
  rw: string[];
  /** Read-only on top of everything read-write (git hooks and config: they run outside later). */
  ro: string[];
  /** Made empty (folders) or unreadable (files) inside. */
  hidden: string[];
}

interface MountInputs {
  cwd: string;
  env: Readonly<Record<string, string>>;
  options: SandboxOptions;
  /** The agent CLI's state folders (none for commands). */
  stateFolders: readonly StateFolder[];
  projectDir: string;
}

export function sandboxMounts(input: MountInputs): SandboxMounts {
  const home = input.env.HOME || '/nonexistent';
  const pathOf = (path: string) => expandPath(path, home, input.projectDir);
  const work = workingTree(input.cwd);
  const rw = [work.root, ...(work.gitDir ? [work.gitDir] : []), ...stateFolderPaths(input.stateFolders, input.env, home)];
  const ro = work.gitDir ? gitExecutables(work.gitDir) : [];
  return {
    home,
    rw: unique([...rw, ...(input.options.fs?.rw ?? []).map(pathOf)]),
    ro: unique([...ro, ...(input.options.fs?.ro ?? []).map(pathOf)]),
    hidden: unique((input.options.fs?.hidden ?? []).map(pathOf)),
  };
}

/** `~/x` under the home folder, relative paths under the project root. */
function expandPath(path: string, home: string, projectDir: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(projectDir, path);
}

/** Each state folder: the variable's folder when it is set, else the home paths. */
export function stateFolderPaths(folders: readonly StateFolder[], env: Readonly<Record<string, string>>, home: string): string[] {
  return folders.flatMap((folder) => {
    const fromEnv = folder.env ? env[folder.env] : undefined;
    return fromEnv ? [resolve(fromEnv)] : folder.home.map((path) => join(home, path));
  });
}

/**
 * The checkout the run works in: the folder holding `.git` above its cwd (or the cwd), and, for a
 * linked worktree, the repository's git folder it commits into.
 */
function workingTree(cwd: string): { root: string; gitDir?: string } {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    if (existsSync(dotGit)) return { root: dir, gitDir: statSync(dotGit).isDirectory() ? dotGit : commonGitDir(dotGit) };
    if (dirname(dir) === dir) return { root: resolve(cwd) };
  }
}

/** A linked worktree's `.git` file names its folder in the repository, whose `commondir` names the repository's. */
function commonGitDir(dotGitFile: string): string | undefined {
  const match = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGitFile, 'utf8'));
  if (!match) return undefined;
  const worktreeGitDir = resolve(dirname(dotGitFile), match[1].trim());
  const commonFile = join(worktreeGitDir, 'commondir');
  if (!existsSync(commonFile)) return worktreeGitDir;
  return resolve(worktreeGitDir, readFileSync(commonFile, 'utf8').trim());
}

/** What git runs or obeys outside the sandbox later: an agent must not plant a hook or an alias there. */
function gitExecutables(gitDir: string): string[] {
  return [join(gitDir, 'hooks'), join(gitDir, 'config')].filter((path) => existsSync(path));
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
