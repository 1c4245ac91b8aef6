/**
 * Push a worktree's branch and open a pull request with the user's own GitHub CLI (`gh`), where it
 * is installed and signed in; otherwise one line says why not, so the UI can show the button
 * disabled with that reason. Switchboard never holds a GitHub token of its own.
 */
import { execFile } from 'node:child_process';
import type { PullRequestAvailability } from '../../../shared/worktree';
import { git, hardenedGitEnv } from './gitCli';
import { WorktreeError } from './worktreeError';

interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number | 'missing';
}

/** `gh` runs git in the worktree itself: it inherits the same hardening through the environment. */
async function runGh(cwd: string, args: string[]): Promise<CommandResult> {
  const env = { ...(await hardenedGitEnv(cwd, 'push')), GH_PROMPT_DISABLED: '1', NO_COLOR: '1' };
  return new Promise((resolve) => {
    execFile('gh', args, { cwd, env }, (error, stdout, stderr) => {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      resolve({ stdout, stderr, exitCode: code === 'ENOENT' ? 'missing' : typeof code === 'number' ? code : error ? 1 : 0 });
    });
  });
}

/** Whether push + pull request can work here: a remote to push to, `gh` installed, and signed in (`gh auth status`). */
export async function pullRequestAvailability(worktreeDir: string): Promise<PullRequestAvailability> {
  const remote = (await git(worktreeDir, ['remote'])).split('\n').find((name) => name !== '');
  if (!remote) return { available: false, reason: 'This repository has no remote to push to (git remote add origin …).' };
  const auth = await runGh(worktreeDir, ['auth', 'status']);
  if (auth.exitCode === 'missing')
    return { available: false, reason: 'The GitHub CLI (gh) is not installed: install it and run gh auth login to open pull requests.' };
  if (auth.exitCode !== 0) return { available: false, reason: 'The GitHub CLI (gh) is not signed in: run gh auth login.' };
  return { available: true, remote };
}

/** `git push --set-upstream <remote> <branch>`, then `gh pr create` against the base; the pull request's URL comes back. */
export async function pushAndOpenPullRequest(worktreeDir: string, branch: string, base: string): Promise<string> {
  const availability = await pullRequestAvailability(worktreeDir);
  if (!availability.available) throw new WorktreeError('git_failed', availability.reason);
  await git(worktreeDir, ['push', '--quiet', '--set-upstream', availability.remote, branch]);
  const created = await runGh(worktreeDir, ['pr', 'create', '--base', base, '--head', branch, '--fill']);
  if (created.exitCode !== 0)
    throw new WorktreeError(
      'git_failed',
      `gh pr create failed: ${(created.stderr || created.stdout).trim().split('\n').slice(-2).join(' ')}`,
    );
  return created.stdout.trim().split('\n').pop() ?? '';
}
