/**
 * Hostile folders through the real core (createCore, trust kept in a data directory, the real git):
 * before trust nothing of a folder runs and no git runs at all; after trust, the worktree list,
 * creation, diff, commit and merge run none of the programs the folder's git config, hooks or
 * attributes name. The corpus is proven armed first: a plain git runs its traps.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type CoreHandle } from '../../src/main/core/composition';
import { buildHostileFolders, type HostileFolders, type HostileName } from '../fixtures/hostileFolders';

let folders: HostileFolders;
let dataRoot: string;

beforeAll(() => {
  folders = buildHostileFolders();
  dataRoot = mkdtempSync(join(tmpdir(), 'sb-hostile-data-'));
});
afterAll(() => {
  folders.cleanup();
  rmSync(dataRoot, { recursive: true, force: true });
});

async function open(name: HostileName): Promise<CoreHandle> {
  return createCore({ projectDir: folders.projects[name], dataDir: join(dataRoot, name), watchConfig: false, killGraceMs: 500 });
}

const IDENTITY = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

function gitWithoutTraps(cwd: string, ...args: string[]): void {
  const disarm = [
    '-c',
    'core.hooksPath=/dev/null',
    '-c',
    'filter.trap.clean=',
    '-c',
    'filter.trap.process=',
    '-c',
    'filter.trap.required=false',
  ];
  execFileSync('git', [...disarm, ...args], { cwd, env: { ...process.env, ...IDENTITY } });
}

const GIT_REPOS: HostileName[] = ['fsmonitor', 'clean-filter', 'hooks-path', 'diff-external', 'pager'];

describe('hostile folders', () => {
  it('the corpus is armed: a plain git status, diff, add and commit run its programs', () => {
    const control = buildHostileFolders();
    try {
      for (const name of ['fsmonitor', 'embedded-bare', 'clean-filter', 'hooks-path', 'diff-external'] as const) {
        const dir = control.projects[name];
        writeFileSync(join(dir, 'README.md'), 'changed\n');
        for (const args of [['status'], ['diff'], ['add', 'README.md'], ['commit', '-qm', 'x']])
          try {
            execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { ...process.env, ...IDENTITY } });
          } catch {
            // A trap that breaks git (a filter process that does not speak the protocol) still ran.
          }
      }
      const fired = new Set(control.markers().map((marker) => marker.replace(/-payload\.sh-\d+$/, '')));
      for (const trap of [
        'fsmonitor',
        'embedded-bare',
        'clean-filter-process',
        'hooks-path-pre-commit',
        'hooks-path-post-commit',
        'diff-external',
      ])
        expect([...fired]).toContain(trap);
    } finally {
      control.cleanup();
    }
  });

  it('untrusted: no worktrees listed, the reason given, every git action refused, nothing of the folder run', async () => {
    for (const name of [...GIT_REPOS, 'embedded-bare'] as const) {
      const sb = await open(name);
      try {
        expect(sb.core.trustState()).toMatchObject({ trusted: false, folderTrusted: false });
        const overview = await sb.core.worktrees.manager.overview();
        expect(overview).toEqual({
          worktrees: [],
          untrusted: expect.stringMatching(/runs no git in a folder before you trust it/) as string,
        });
        await expect(sb.core.worktrees.createWorktree({ name: 'a' })).rejects.toMatchObject({ reason: 'not_trusted' });
      } finally {
        await sb.dispose();
      }
    }
    expect(folders.markers()).toEqual([]);
  });

  it('trusted: list, create, diff, commit and merge run none of the programs the folder names', async () => {
    for (const name of GIT_REPOS) {
      const sb = await open(name);
      try {
        await sb.core.grantTrust();
        const manager = sb.core.worktrees.manager;
        const { worktree } = await sb.core.worktrees.createWorktree({ name: 'a' });
        writeFileSync(join(worktree.path, 'work.txt'), `work in ${name}\n`);
        expect((await manager.overview()).worktrees.find((w) => w.id === 'a')).toMatchObject({ changedFiles: 1 });
        const diff = await manager.diff('a');
        expect(diff.files.map((f) => f.path)).toEqual(['work.txt']);
        expect(diff.files[0].patch).toContain(`+work in ${name}`);
        await manager.commit('a', `work in ${name}`);
        await manager.merge('a', 'merge');
        expect(readFileSync(join(folders.projects[name], 'work.txt'), 'utf8')).toBe(`work in ${name}\n`);
        expect(folders.markers()).toEqual([]);
      } finally {
        await sb.dispose();
      }
    }
  });

  it("a repository's merge driver is not run: the file it would merge is a conflict and nothing changes", async () => {
    const sb = await open('clean-filter');
    try {
      await sb.core.grantTrust();
      const { worktree } = await sb.core.worktrees.createWorktree({ name: 'both' });
      const main = folders.projects['clean-filter'];
      writeFileSync(join(main, 'README.md'), 'main side\n');
      // The base moves on too, committed by a git told not to run the trap.
      gitWithoutTraps(main, 'commit', '-qam', 'main side');
      writeFileSync(join(worktree.path, 'README.md'), 'worktree side\n');
      await sb.core.worktrees.manager.commit('both', 'worktree side');
      await expect(sb.core.worktrees.manager.merge('both', 'merge')).rejects.toMatchObject({ reason: 'conflict' });
      expect(readFileSync(join(main, 'README.md'), 'utf8')).toBe('main side\n');
      expect(folders.markers()).toEqual([]);
    } finally {
      await sb.dispose();
    }
  });

  it('an embedded bare repository opened as the project is not a repository to Switchboard, trusted or not', async () => {
    const sb = await open('embedded-bare');
    try {
      await sb.core.grantTrust();
      expect((await sb.core.worktrees.manager.overview()).worktrees.map((w) => w.id)).toEqual(['main']);
      await expect(sb.core.worktrees.createWorktree({ name: 'a' })).rejects.toMatchObject({ reason: 'not_a_repository' });
      expect(folders.markers()).toEqual([]);
    } finally {
      await sb.dispose();
    }
  });

  it("a worktrees.dir that escapes acts only once trusted: before, Switchboard's own folder and nothing copied", async () => {
    const sb = await open('escaping-dir');
    try {
      const request = sb.core.trustState().pending.find((r) => r.key === 'worktrees');
      expect(request).toMatchObject({ kind: 'worktrees', worktrees: { dir: folders.escapeTarget, dirEscapes: true, copy: ['.env*'] } });
      await sb.core.grantTrust(['folder']);
      const untrusted = await sb.core.worktrees.createWorktree({ name: 'first' });
      expect(untrusted.worktree.path.startsWith(join(dataRoot, 'escaping-dir'))).toBe(true);
      expect(existsSync(join(untrusted.worktree.path, '.env.local'))).toBe(false);
      expect(untrusted.setup).toMatchObject({ ok: false, message: expect.stringMatching(/not trusted yet/) as string });
      expect(existsSync(folders.escapeTarget)).toBe(false);

      await sb.core.grantTrust(['worktrees']);
      const trusted = await sb.core.worktrees.createWorktree({ name: 'second' });
      expect(trusted.worktree.path).toBe(join(folders.escapeTarget, 'second'));
      expect(readFileSync(join(trusted.worktree.path, '.env.local'), 'utf8')).toBe('SECRET=from-the-folder\n');
    } finally {
      await sb.dispose();
    }
  });
});
