import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FileWorktreeStore, WorktreeManager, type WorktreeManagerOptions } from './index';
import { makeTestRepo, type TestRepo } from './testing/gitRepo';

let repo: TestRepo;
let inUse: Set<string>;

function manager(options: Partial<WorktreeManagerOptions> = {}): WorktreeManager {
  return new WorktreeManager({
    projectDir: repo.root,
    managedDir: join(repo.home, 'worktrees'),
    store: new FileWorktreeStore(join(repo.home, 'data', 'worktrees.json')),
    isInUse: (id) => inUse.has(id),
    ...options,
  });
}

function gitState(): string {
  return [repo.git('branch', '--list', '--all'), repo.git('worktree', 'list', '--porcelain'), repo.git('status', '--porcelain')].join('\n');
}

async function expectRefused(promise: Promise<unknown>, reason: string, message: RegExp): Promise<void> {
  await expect(promise).rejects.toMatchObject({ reason, message: expect.stringMatching(message) });
}

beforeEach(() => {
  repo = makeTestRepo({ 'README.md': 'hello\n', 'src/app.ts': 'export const a = 1;\n' });
  inUse = new Set();
});
afterEach(() => repo.cleanup());

describe('creating a worktree', () => {
  it('runs git worktree add on a new branch from the current branch, in the managed folder', async () => {
    const worktrees = manager();
    const info = await worktrees.create({});
    expect(info).toEqual({
      id: 'wt-1',
      name: 'wt-1',
      path: join(repo.home, 'worktrees', 'wt-1'),
      branch: 'switchboard/wt-1',
      base: 'main',
      isMain: false,
    });
    expect(repo.git('worktree', 'list', '--porcelain')).toContain(`worktree ${info.path}\n`);
    expect(readFileSync(join(info.path, 'src/app.ts'), 'utf8')).toBe('export const a = 1;\n');
    expect((await worktrees.create({})).id).toBe('wt-2');
    expect(worktrees.list().map((w) => [w.id, w.isMain])).toEqual([
      ['main', true],
      ['wt-1', false],
      ['wt-2', false],
    ]);
  });

  it('takes a name, base and branch', async () => {
    repo.git('branch', 'release');
    const info = await manager().create({ name: 'fix-login', base: 'release', branch: 'feat/login' });
    expect(info).toMatchObject({ id: 'fix-login', branch: 'feat/login', base: 'release' });
    expect(repo.git('rev-parse', 'feat/login')).toBe(repo.git('rev-parse', 'release'));
  });

  it('copies untracked files matching worktrees.copy, ignored ones included', async () => {
    repo.write('.gitignore', '.env*\nnode_modules/\n');
    repo.commitAll('ignore');
    repo.write('.env', 'SECRET=1\n');
    repo.write('.env.local', 'LOCAL=1\n');
    repo.write('config/.env.test', 'NESTED=1\n');
    repo.write('node_modules/x/index.js', 'x\n');
    const info = await manager({ copyGlobs: () => ['.env*', '**/.env.test'] }).create({});
    expect(readFileSync(join(info.path, '.env'), 'utf8')).toBe('SECRET=1\n');
    expect(readFileSync(join(info.path, '.env.local'), 'utf8')).toBe('LOCAL=1\n');
    expect(readFileSync(join(info.path, 'config/.env.test'), 'utf8')).toBe('NESTED=1\n');
    expect(existsSync(join(info.path, 'node_modules'))).toBe(false);
  });

  it('refuses bad input with the cause named, changing nothing', async () => {
    const worktrees = manager();
    await worktrees.create({ name: 'taken' });
    repo.git('branch', 'existing');
    const before = gitState();
    await expectRefused(worktrees.create({ name: 'taken' }), 'name_taken', /already exists/);
    await expectRefused(worktrees.create({ name: 'other', branch: 'existing' }), 'branch_exists', /Branch "existing" already exists/);
    await expectRefused(worktrees.create({ name: 'other', base: 'nope' }), 'bad_base', /"nope" is not a branch or commit/);
    await expectRefused(worktrees.create({ name: 'other', branch: 'bad..name' }), 'bad_branch', /not a valid branch name/);
    await expectRefused(worktrees.create({ name: 'Bad Name' }), 'name_taken', /not a usable worktree name/);
    repo.write('worktrees/occupied/file', 'x', repo.home);
    await expectRefused(worktrees.create({ name: 'occupied' }), 'folder_exists', /occupied already exists/);
    expect(gitState()).toBe(before);
    expect(worktrees.list().map((w) => w.id)).toEqual(['main', 'taken']);
  });

  it('refuses a folder that is not a repository, a detached HEAD without a base, and submodules', async () => {
    await expectRefused(manager({ projectDir: repo.home }).create({}), 'not_a_repository', /is not inside a git repository/);
    repo.git('checkout', '--quiet', '--detach');
    await expectRefused(manager().create({}), 'detached_head', /detached HEAD.*pass a base/);
    expect((await manager().create({ base: 'main' })).base).toBe('main');
    repo.write('.gitmodules', '[submodule "lib"]\n\tpath = lib\n\turl = ../lib\n');
    await expectRefused(manager().create({ name: 'sub' }), 'submodules', /submodules/);
  });

  it('refuses a managed folder inside the repository', async () => {
    await expectRefused(manager({ managedDir: '.worktrees' }).create({}), 'folder_exists', /inside the repository/);
    expect(existsSync(join(repo.root, '.worktrees'))).toBe(false);
  });

  it('comes back from its store after a restart', async () => {
    await manager().create({ name: 'kept', createdBy: 'agent-1' });
    const again = manager();
    expect(again.get('kept')).toMatchObject({ branch: 'switchboard/kept', base: 'main' });
    expect(again.creatorOf('kept')).toBe('agent-1');
  });
});

describe('status and diff', () => {
  it('counts commits ahead and behind its base and changed files', async () => {
    const worktrees = manager();
    const info = await worktrees.create({ name: 'a' });
    repo.write('new.ts', 'one\n', info.path);
    repo.commitAll('work', info.path);
    repo.write('README.md', 'changed\n', info.path);
    repo.write('untracked.txt', 'u\n', info.path);
    repo.write('other.txt', 'o\n');
    repo.commitAll('base moves');
    const [main, a] = await worktrees.status();
    expect(main).toMatchObject({ id: 'main', branch: 'main', isMain: true, changedFiles: 0 });
    expect(a).toMatchObject({ id: 'a', ahead: 1, behind: 1, changedFiles: 2, isMissing: false });
  });

  it('shows committed and uncommitted changes against the base, marked, with +/- and a patch per file', async () => {
    const worktrees = manager();
    const info = await worktrees.create({ name: 'a' });
    repo.write('src/app.ts', 'export const a = 2;\nexport const b = 3;\n', info.path);
    repo.commitAll('change app', info.path);
    repo.write('README.md', 'hello\nworld\n', info.path);
    repo.write('notes with space.md', 'n\n', info.path);
    repo.write('base-only.txt', 'b\n');
    repo.commitAll('base moves on');
    const diff = await worktrees.diff('a');
    expect(diff.base).toBe('main');
    expect(diff.files.map(({ path, added, removed, isUncommitted }) => ({ path, added, removed, isUncommitted }))).toEqual([
      { path: 'notes with space.md', added: 1, removed: 0, isUncommitted: true },
      { path: 'README.md', added: 1, removed: 0, isUncommitted: true },
      { path: 'src/app.ts', added: 2, removed: 1, isUncommitted: false },
    ]);
    const app = diff.files.find((file) => file.path === 'src/app.ts')!;
    expect(app.patch).toContain('-export const a = 1;\n+export const a = 2;\n+export const b = 3;');
    expect(diff.files.find((file) => file.path === 'notes with space.md')!.patch).toContain('+n');
  });
});

describe('commit and merge', () => {
  async function worktreeWithCommit(name: string, file: string, text: string): Promise<string> {
    const worktrees = manager();
    const info = await worktrees.create({ name });
    repo.write(file, text, info.path);
    await worktrees.commit(name, `add ${file}`);
    return info.path;
  }

  it('commits everything in the worktree and fast-forwards the base', async () => {
    await worktreeWithCommit('a', 'feature.ts', 'f\n');
    const result = await manager().merge('a', 'ff');
    expect(result.commit).toBe(repo.git('rev-parse', 'switchboard/a').trim());
    expect(readFileSync(join(repo.root, 'feature.ts'), 'utf8')).toBe('f\n');
  });

  it('makes a merge commit, or rebases first, when the base moved on', async () => {
    await worktreeWithCommit('a', 'a.ts', 'a\n');
    await worktreeWithCommit('b', 'b.ts', 'b\n');
    const worktrees = manager();
    await worktrees.merge('a', 'ff');
    await expectRefused(worktrees.merge('b', 'ff'), 'not_fast_forward', /has moved on/);
    await worktrees.merge('b', 'rebase');
    expect(repo.git('log', '--format=%s', 'main')).toBe('add b.ts\nadd a.ts\ninitial\n');
    await worktreeWithCommit('c', 'c.ts', 'c\n');
    repo.write('d.ts', 'd\n');
    repo.commitAll('base work');
    await manager().merge('c', 'merge');
    expect(repo.git('log', '-1', '--format=%s %p', 'main')).toMatch(/^Merge worktree c \(switchboard\/c\) \w+ \w+\n$/);
  });

  it('stops at a conflict, names the files and leaves both sides intact', async () => {
    const path = await worktreeWithCommit('a', 'README.md', 'from worktree\n');
    repo.write('README.md', 'from base\n');
    repo.commitAll('base edit');
    const baseHead = repo.git('rev-parse', 'main');
    const branchHead = repo.git('rev-parse', 'switchboard/a');
    for (const strategy of ['merge', 'rebase'] as const) {
      await expectRefused(manager().merge('a', strategy), 'conflict', /conflicts in README\.md; nothing was changed/);
      expect(repo.git('rev-parse', 'main')).toBe(baseHead);
      expect(repo.git('rev-parse', 'switchboard/a')).toBe(branchHead);
      expect(repo.git('status', '--porcelain')).toBe('');
      expect(readFileSync(join(path, 'README.md'), 'utf8')).toBe('from worktree\n');
    }
  });

  it('refuses a dirty base or an uncommitted worktree', async () => {
    const path = await worktreeWithCommit('a', 'x.ts', 'x\n');
    repo.write('README.md', 'local edit\n');
    await expectRefused(manager().merge('a'), 'dirty_base', /base "main" has uncommitted changes.*README\.md/);
    repo.git('checkout', '--', 'README.md');
    repo.write('y.ts', 'y\n', path);
    await expectRefused(manager().merge('a'), 'dirty', /uncommitted changes/);
    await expectRefused(manager().commit('main', 'x'), 'main_worktree', /not a managed worktree/);
  });
});

describe('removing a worktree', () => {
  it('refuses uncommitted work without force, and the files survive', async () => {
    const worktrees = manager();
    const info = await worktrees.create({ name: 'a' });
    repo.write('work.ts', 'precious\n', info.path);
    await expectRefused(worktrees.remove('a'), 'dirty', /1 uncommitted file\(s\) \(work\.ts\)/);
    expect(readFileSync(join(info.path, 'work.ts'), 'utf8')).toBe('precious\n');
    expect(worktrees.get('a')).toBeDefined();
  });

  it('refuses commits the base lacks without force', async () => {
    const worktrees = manager();
    const info = await worktrees.create({ name: 'a' });
    repo.write('work.ts', 'w\n', info.path);
    await worktrees.commit('a', 'work');
    await expectRefused(worktrees.remove('a'), 'unmerged', /1 commit\(s\) not in "main"/);
  });

  it('with force saves the work to a named branch first', async () => {
    const worktrees = manager({ now: () => new Date('2026-11-27T19:00:00Z') });
    const info = await worktrees.create({ name: 'a' });
    repo.write('committed.ts', 'c\n', info.path);
    await worktrees.commit('a', 'committed work');
    repo.write('uncommitted.ts', 'u\n', info.path);
    const result = await worktrees.remove('a', true);
    expect(result).toEqual({ worktree: 'a', savedTo: 'switchboard/saved/a-20261127-190000' });
    expect(existsSync(info.path)).toBe(false);
    expect(repo.git('show', `${result.savedTo}:committed.ts`)).toBe('c\n');
    expect(repo.git('show', `${result.savedTo}:uncommitted.ts`)).toBe('u\n');
    expect(repo.git('branch', '--list', 'switchboard/a')).toBe('');
    expect(worktrees.get('a')).toBeUndefined();
  });

  it('removes a clean, merged worktree with nothing saved, and one whose folder is gone', async () => {
    const worktrees = manager();
    await worktrees.create({ name: 'clean' });
    expect(await worktrees.remove('clean')).toEqual({ worktree: 'clean', savedTo: null });
    const gone = await worktrees.create({ name: 'gone' });
    rmSync(gone.path, { recursive: true });
    expect((await worktrees.status()).find((w) => w.id === 'gone')?.isMissing).toBe(true);
    expect(await worktrees.remove('gone')).toEqual({ worktree: 'gone', savedTo: null });
    expect(repo.git('worktree', 'list', '--porcelain')).not.toContain('gone');
  });

  it('never removes a worktree while an entry runs in it', async () => {
    const worktrees = manager();
    const info = await worktrees.create({ name: 'busy' });
    inUse.add('busy');
    await expectRefused(worktrees.remove('busy', true), 'in_use', /entries running in it/);
    expect(existsSync(info.path)).toBe(true);
  });
});

describe('the prune view', () => {
  it('lists worktrees whose folder is gone, whose branch is merged, or unused for N days, with disk use', async () => {
    let now = new Date('2026-11-01T00:00:00Z');
    const worktrees = manager({ now: () => now });
    const merged = await worktrees.create({ name: 'merged' });
    repo.write('done.ts', 'd\n', merged.path);
    await worktrees.commit('merged', 'done');
    await worktrees.merge('merged', 'ff');
    const gone = await worktrees.create({ name: 'gone' });
    rmSync(gone.path, { recursive: true });
    now = new Date('2026-11-05T00:00:00Z');
    const fresh = await worktrees.create({ name: 'fresh' });
    repo.write('wip.ts', 'w\n', fresh.path);
    const stale = await worktrees.stale(3);
    expect(stale.map((s) => [s.worktree.id, s.reasons])).toEqual([
      ['merged', ['branch-merged', 'unused']],
      ['gone', ['folder-gone', 'unused']],
    ]);
    expect(stale[0].diskBytes).toBeGreaterThan(0);
    expect(stale[1].diskBytes).toBe(0);
    expect((await worktrees.stale(30)).map((s) => s.worktree.id)).toEqual(['merged', 'gone']);
  });
});
