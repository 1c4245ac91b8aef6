import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pullRequestAvailability, pushAndOpenPullRequest } from './pullRequest';
import { makeTestRepo, type TestRepo } from './testing/gitRepo';

let repo: TestRepo;
const originalPath = process.env.PATH;

/** A PATH holding the real git and nothing else: `gh` is not installed there, whatever this machine has. */
function pathWithGitOnly(): string {
  const bin = join(repo.home, 'bin');
  mkdirSync(bin);
  symlinkSync(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(), join(bin, 'git'));
  return bin;
}

beforeEach(() => {
  repo = makeTestRepo();
});
afterEach(() => {
  process.env.PATH = originalPath;
  repo.cleanup();
});

describe('push + pull request availability', () => {
  it('says there is no remote to push to', async () => {
    expect(await pullRequestAvailability(repo.root)).toEqual({
      available: false,
      reason: expect.stringMatching(/no remote to push to/) as string,
    });
  });

  it('says gh is not installed when a remote exists but gh is not on PATH, and pushes nothing', async () => {
    execFileSync('git', ['init', '--quiet', '--bare', join(repo.home, 'origin.git')]);
    repo.git('remote', 'add', 'origin', join(repo.home, 'origin.git'));
    process.env.PATH = pathWithGitOnly();
    expect(await pullRequestAvailability(repo.root)).toEqual({
      available: false,
      reason: expect.stringMatching(/GitHub CLI \(gh\) is not installed/) as string,
    });
    await expect(pushAndOpenPullRequest(repo.root, 'main', 'main')).rejects.toThrow(/not installed/);
    expect(execFileSync('git', ['branch', '--list'], { cwd: join(repo.home, 'origin.git'), encoding: 'utf8' })).toBe('');
  });
});
