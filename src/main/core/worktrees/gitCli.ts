/**
 * The one way this capability runs git: the real CLI, never a reimplementation. Output is read in
 * the C locale so messages are stable, git never prompts (no terminal to answer it), and every call
 * is hardened (gitHardening.ts): nothing the repository's own config or hooks name runs.
 */
import { execFile } from 'node:child_process';
import { WorktreeError } from './worktreeError';
import { GIT_ENV, hardeningSettings, refusalFor, settingsEnv, subcommandOf, withDiffSwitches } from './gitHardening';
import { repositoryConfig } from './repositoryConfig';

/** Large diffs of a 5,000-file repository stay well under this (bytes). */
const GIT_MAX_BUFFER_BYTES = 256 * 1024 * 1024;

interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The environment a hardened git (or a program that runs git, like `gh`) gets in `cwd`. */
export async function hardenedGitEnv(cwd: string, subcommand = ''): Promise<NodeJS.ProcessEnv> {
  const config = await repositoryConfig(cwd);
  const refusal = refusalFor(config, subcommand);
  if (refusal !== null) throw new WorktreeError('git_failed', `Switchboard does not run git ${subcommand} here: ${refusal}.`);
  return { ...process.env, ...GIT_ENV, ...settingsEnv(hardeningSettings(config), process.env) };
}

/** Runs git in `cwd`; resolves with its exit code instead of throwing when git itself ran. */
export async function runGit(cwd: string, args: string[]): Promise<GitResult> {
  const env = await hardenedGitEnv(cwd, subcommandOf(args));
  return new Promise((resolve, reject) => {
    execFile('git', ['--no-pager', ...withDiffSwitches(args)], { cwd, maxBuffer: GIT_MAX_BUFFER_BYTES, env }, (error, stdout, stderr) => {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      if (code === 'ENOENT') {
        reject(new WorktreeError('git_missing', 'git is not installed or not on PATH: worktrees need the git command line.'));
        return;
      }
      if (error && typeof code !== 'number') {
        reject(new WorktreeError('git_failed', `git ${args[0]} failed: ${error.message}`));
        return;
      }
      resolve({ stdout, stderr, exitCode: typeof code === 'number' ? code : 0 });
    });
  });
}

/** Runs git and returns its stdout; a non-zero exit throws with git's own message. */
export async function git(cwd: string, args: string[]): Promise<string> {
  const result = await runGit(cwd, args);
  if (result.exitCode !== 0) throw gitFailure(args, result);
  return result.stdout;
}

export function gitFailure(args: string[], result: GitResult): WorktreeError {
  const message = (result.stderr || result.stdout).trim().split('\n').slice(-3).join(' ');
  return new WorktreeError('git_failed', `git ${args.slice(0, 2).join(' ')} failed: ${message}`);
}

/** Splits NUL-separated output (`-z`), dropping the trailing empty field. */
export function splitNul(text: string): string[] {
  return text.split('\0').filter((field) => field !== '');
}
