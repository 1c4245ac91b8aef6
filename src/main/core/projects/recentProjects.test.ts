import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_RECENT_PROJECTS, RECENT_PROJECTS_FILE, RecentProjects } from './recentProjects';

const dataDir = () => mkdtempSync(join(tmpdir(), 'sb-recent-'));

describe('RecentProjects', () => {
  it('keeps the most recent first, once each, across instances', () => {
    const dir = dataDir();
    new RecentProjects(dir).touch('/work/a', 1);
    new RecentProjects(dir).touch('/work/b', 2);
    new RecentProjects(dir).touch('/work/a/', 3);
    expect(new RecentProjects(dir).list()).toEqual([
      { dir: '/work/a', name: 'a', openedAt: 3 },
      { dir: '/work/b', name: 'b', openedAt: 2 },
    ]);
  });

  it('caps the history and forgets on request', () => {
    const recent = new RecentProjects(dataDir());
    for (let i = 0; i < MAX_RECENT_PROJECTS + 5; i++) recent.touch(`/p/${i}`, i);
    expect(recent.list()).toHaveLength(MAX_RECENT_PROJECTS);
    expect(recent.list()[0].dir).toBe(`/p/${MAX_RECENT_PROJECTS + 4}`);
    recent.forget(`/p/${MAX_RECENT_PROJECTS + 4}`);
    expect(recent.list()[0].dir).toBe(`/p/${MAX_RECENT_PROJECTS + 3}`);
  });

  it('treats a corrupt or foreign file as an empty history and repairs it on the next open', () => {
    const dir = dataDir();
    writeFileSync(join(dir, RECENT_PROJECTS_FILE), '{ not json');
    const recent = new RecentProjects(dir);
    expect(recent.list()).toEqual([]);
    writeFileSync(join(dir, RECENT_PROJECTS_FILE), JSON.stringify([{ dir: 1 }, { dir: '/ok', name: 'ok', openedAt: 5 }]));
    expect(recent.list()).toEqual([{ dir: '/ok', name: 'ok', openedAt: 5 }]);
    recent.touch('/new', 6);
    expect(recent.list().map((p) => p.dir)).toEqual(['/new', '/ok']);
  });
});
