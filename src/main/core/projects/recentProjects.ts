/**
 * Projects opened before, most recent first, kept in the app's data directory (not in any project,
 * which agents and clones can write). Feeds File › Open Recent and the welcome view.
 */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { writeFileAtomic } from '../base';

export const RECENT_PROJECTS_FILE = 'recent-projects.json';
/** Older entries fall off the list. */
export const MAX_RECENT_PROJECTS = 30;

export interface RecentProjectRecord {
  dir: string;
  name: string;
  /** Epoch ms of the last open. */
  openedAt: number;
}

export class RecentProjects {
  private readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, RECENT_PROJECTS_FILE);
  }

  list(): RecentProjectRecord[] {
    try {
      const value = JSON.parse(readFileSync(this.path, 'utf8')) as unknown;
      return Array.isArray(value) ? value.filter(isRecord) : [];
    } catch {
      return []; // absent or corrupt: an empty history, rewritten on the next open
    }
  }

  /** Moves `dir` to the top of the list. */
  touch(dir: string, now = Date.now()): RecentProjectRecord[] {
    const full = resolve(dir);
    const next = [{ dir: full, name: basename(full), openedAt: now }, ...this.list().filter((p) => p.dir !== full)].slice(
      0,
      MAX_RECENT_PROJECTS,
    );
    writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`);
    return next;
  }

  forget(dir: string): RecentProjectRecord[] {
    const next = this.list().filter((p) => p.dir !== resolve(dir));
    writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`);
    return next;
  }
}

function isRecord(value: unknown): value is RecentProjectRecord {
  const v = value as Partial<RecentProjectRecord> | null;
  return typeof v?.dir === 'string' && typeof v.name === 'string' && typeof v.openedAt === 'number';
}
