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

interface RecentProjectRecord {
  dir: string;
  name: string;
  /** Epoch ms of the last open. */
  openedAt: number;
  /** Names of the entries that were running when the project was last closed. */
  lastRun?: string[];
  /** Entries that needed a person when the project was last closed. */
  needsAttention?: number;
}

/** What a project left behind when it closed, shown on the welcome view. */
interface ProjectCloseRecord {
  lastRun: string[];
  needsAttention: number;
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

  /** Moves `dir` to the top of the list (keeping what it left at its last close). */
  touch(dir: string, now = Date.now()): RecentProjectRecord[] {
    const full = resolve(dir);
    const previous = this.list().find((p) => p.dir === full);
    const next = [{ ...previous, dir: full, name: basename(full), openedAt: now }, ...this.list().filter((p) => p.dir !== full)].slice(
      0,
      MAX_RECENT_PROJECTS,
    );
    this.write(next);
    return next;
  }

  /** Remembers what ran and what waited for a person when `dir` closed; its place in the list stays. */
  recordClose(dir: string, record: ProjectCloseRecord): RecentProjectRecord[] {
    const full = resolve(dir);
    const next = this.list().map((p) => (p.dir === full ? { ...p, lastRun: record.lastRun, needsAttention: record.needsAttention } : p));
    this.write(next);
    return next;
  }

  forget(dir: string): RecentProjectRecord[] {
    const next = this.list().filter((p) => p.dir !== resolve(dir));
    this.write(next);
    return next;
  }

  private write(records: RecentProjectRecord[]): void {
    writeFileAtomic(this.path, `${JSON.stringify(records, null, 2)}\n`);
  }
}

function isRecord(value: unknown): value is RecentProjectRecord {
  const v = value as Partial<RecentProjectRecord> | null;
  return (
    typeof v?.dir === 'string' &&
    typeof v.name === 'string' &&
    typeof v.openedAt === 'number' &&
    (v.lastRun === undefined || (Array.isArray(v.lastRun) && v.lastRun.every((n) => typeof n === 'string'))) &&
    (v.needsAttention === undefined || typeof v.needsAttention === 'number')
  );
}
