/**
 * One running Switchboard per data dir and project. Two instances on the same pair would fork the
 * scratchpad revisions and overwrite each other's timers, so the second one refuses to start and
 * names the pid that holds the lock. A lock left by a dead pid (a crash, SIGKILL) is taken over.
 */
import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export class InstanceLockedError extends Error {
  constructor(
    readonly holderPid: number,
    readonly lockPath: string,
    projectDir: string,
    dataDir: string,
  ) {
    super(
      `Switchboard is already running for ${projectDir} with data dir ${dataDir} (pid ${holderPid}; lock ${lockPath}). Stop that instance, or use another --data-dir.`,
    );
    this.name = 'InstanceLockedError';
  }
}

interface LockContent {
  pid: number;
  projectDir: string;
  startedAt: string;
}

interface InstanceLock {
  readonly path: string;
  /** Removes the lock if it is still ours; synchronous so a fatal exit can call it. Idempotent. */
  release(): void;
}

export function lockPathFor(dataDir: string, projectDir: string): string {
  const key = createHash('sha256').update(resolve(projectDir)).digest('hex').slice(0, 16);
  return join(dataDir, 'locks', `${key}.lock`);
}

/** True when `pid` names a live process (EPERM: alive, owned by someone else). */
export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireInstanceLock(dataDir: string, projectDir: string, pid = process.pid): InstanceLock {
  const path = lockPathFor(dataDir, projectDir);
  mkdirSync(join(dataDir, 'locks'), { recursive: true, mode: 0o700 });
  const content: LockContent = { pid, projectDir: resolve(projectDir), startedAt: new Date().toISOString() };
  // Written aside and hard-linked into place: link fails if the lock exists, so the check and the
  // take are one atomic step, and a reader never sees a half-written lock.
  const pending = `${path}.${pid}.pending`;
  writeFileSync(pending, JSON.stringify(content), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(pending, path);
        return ownLock(path, pid);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = readHolder(path);
      if (holder !== undefined && holder !== pid && isPidAlive(holder))
        throw new InstanceLockedError(holder, path, resolve(projectDir), dataDir);
      removeStaleLock(path, holder, pid);
    }
    const holder = readHolder(path) ?? 0;
    throw new InstanceLockedError(holder, path, resolve(projectDir), dataDir);
  } finally {
    rmSync(pending, { force: true });
  }
}

function ownLock(path: string, pid: number): InstanceLock {
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      if (readHolder(path) === pid) rmSync(path, { force: true });
    },
  };
}

function readHolder(path: string): number | undefined {
  try {
    const { pid } = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockContent>;
    return Number.isInteger(pid) && (pid as number) > 0 ? pid : undefined;
  } catch {
    return undefined; // unreadable or garbage: treated as stale
  }
}

/**
 * Moves a dead holder's lock out of the way. Another newcomer may have taken the lock between our
 * read and the move; then the moved file is not the stale one and goes back.
 */
function removeStaleLock(path: string, staleHolder: number | undefined, pid: number): void {
  const aside = `${path}.${pid}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return; // already gone: the next attempt links
  }
  const moved = readHolder(aside);
  if (moved !== staleHolder && moved !== undefined && isPidAlive(moved)) {
    try {
      linkSync(aside, path);
    } catch {
      // someone took the slot meanwhile; the next attempt reports whoever holds it
    }
  }
  rmSync(aside, { force: true });
}
