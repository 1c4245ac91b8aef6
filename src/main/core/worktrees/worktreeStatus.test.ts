import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { makeTestRepo, type TestRepo } from './testing/gitRepo';
import { AheadBehindCounts } from './aheadBehind';
import { readWorktreeStatus, WorktreeStatusCache, type WorktreeGitStatus } from './worktreeStatus';

let repo: TestRepo;
let wt: string;
let reads: number;
let clock: number;

function cache(): WorktreeStatusCache {
  return new WorktreeStatusCache(
    (path, base): Promise<WorktreeGitStatus> => {
      reads++;
      return readWorktreeStatus(path, base);
    },
    10_000,
    () => clock,
  );
}

beforeEach(() => {
  repo = makeTestRepo({ 'README.md': 'hello\n' });
  wt = join(repo.home, 'wt');
  execFileSync('git', ['worktree', 'add', '--quiet', '-b', 'feature', wt, 'main'], { cwd: repo.root });
  reads = 0;
  clock = 0;
});
afterEach(() => repo.cleanup());

describe('WorktreeStatusCache', () => {
  it('reuses an answer while nothing git tracks changed, and reads again when the index, HEAD or base move', async () => {
    const statuses = cache();
    expect(await statuses.get('wt', wt, 'main')).toEqual({ branch: 'feature', changedFiles: 0, ahead: 0, behind: 0 });
    await statuses.get('wt', wt, 'main');
    expect(reads).toBe(1);

    repo.write('new.txt', 'n\n', wt);
    repo.git('-C', wt, 'add', 'new.txt');
    expect(await statuses.get('wt', wt, 'main')).toMatchObject({ changedFiles: 1 });
    expect(reads).toBe(2);

    repo.git('-C', wt, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'work');
    expect(await statuses.get('wt', wt, 'main')).toMatchObject({ changedFiles: 0, ahead: 1, behind: 0 });
    expect(reads).toBe(3);

    repo.write('base.txt', 'b\n');
    repo.commitAll('base moves');
    expect(await statuses.get('wt', wt, 'main')).toMatchObject({ ahead: 1, behind: 1 });
    expect(reads).toBe(4);
  });

  it('sees working-tree edits git does not record once the answer is older than its maximum age, or when forgotten', async () => {
    const statuses = cache();
    await statuses.get('wt', wt, 'main');
    repo.write('README.md', 'edited\n', wt);
    expect(await statuses.get('wt', wt, 'main')).toMatchObject({ changedFiles: 0 });
    clock = 10_000;
    expect(await statuses.get('wt', wt, 'main')).toMatchObject({ changedFiles: 1 });
    repo.write('other.txt', 'o\n', wt);
    statuses.forget('wt');
    expect(await statuses.get('wt', wt, 'main')).toMatchObject({ changedFiles: 2 });
    expect(reads).toBe(3);
  });

  it('names a detached HEAD as no branch', async () => {
    repo.git('-C', wt, 'checkout', '--quiet', '--detach');
    expect(await cache().get('wt', wt, 'main')).toMatchObject({ branch: null, ahead: 0, behind: 0 });
  });
});

describe('AheadBehindCounts', () => {
  it('counts a pair of commits once, and a HEAD at its base with no git at all', async () => {
    repo.write('work.txt', 'w\n', wt);
    repo.commitAll('work', wt);
    const [head, base] = repo.git('rev-parse', 'feature', 'main').trim().split('\n');
    const counts = new AheadBehindCounts();
    const first = counts.of(wt, head, base);
    expect(counts.of(wt, head, base)).toBe(first);
    expect(await first).toEqual({ ahead: 1, behind: 0 });
    // No git can run in a folder that does not exist: an even pair is answered without it.
    expect(await counts.of(join(repo.home, 'no-such-folder'), base, base)).toEqual({ ahead: 0, behind: 0 });
  });
});
