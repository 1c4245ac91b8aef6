import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireInstanceLock, InstanceLockedError, lockPathFor } from './instanceLock';

const dirs = () => {
  const root = mkdtempSync(join(tmpdir(), 'sb-lock-'));
  return { dataDir: join(root, 'data'), project: join(root, 'project') };
};

/** A pid that existed and is now dead. */
function deadPid(): number {
  const child = spawnSync('sh', ['-c', 'echo $$']);
  return Number(child.stdout.toString().trim());
}

describe('instance lock per data dir and project', () => {
  it('the second holder is refused with a message naming the pid that holds the lock', () => {
    const { dataDir, project } = dirs();
    const first = acquireInstanceLock(dataDir, project);
    const error = (() => {
      try {
        acquireInstanceLock(dataDir, project, process.pid + 1_000_000);
      } catch (err) {
        return err as InstanceLockedError;
      }
    })();
    expect(error).toBeInstanceOf(InstanceLockedError);
    expect(error?.holderPid).toBe(process.pid);
    expect(error?.message).toContain(`pid ${process.pid}`);
    expect(error?.message).toContain(project);
    first.release();
    expect(existsSync(first.path)).toBe(false);
    acquireInstanceLock(dataDir, project, process.pid + 1_000_000).release();
  });

  it('another project in the same data dir, or the same project in another data dir, is not blocked', () => {
    const a = dirs();
    const b = dirs();
    const locks = [
      acquireInstanceLock(a.dataDir, a.project),
      acquireInstanceLock(a.dataDir, b.project),
      acquireInstanceLock(b.dataDir, a.project),
    ];
    expect(new Set(locks.map((l) => l.path)).size).toBe(3);
    for (const lock of locks) lock.release();
  });

  it('a lock left by a dead pid, or holding garbage, is taken over', () => {
    const { dataDir, project } = dirs();
    const path = lockPathFor(dataDir, project);
    mkdirSync(dirname(path), { recursive: true });
    for (const stale of [JSON.stringify({ pid: deadPid(), projectDir: project }), '{not json', '']) {
      writeFileSync(path, stale);
      const lock = acquireInstanceLock(dataDir, project);
      expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid, projectDir: project });
      lock.release();
    }
  });

  it('release leaves a lock that is not ours alone', () => {
    const { dataDir, project } = dirs();
    const lock = acquireInstanceLock(dataDir, project);
    writeFileSync(lock.path, JSON.stringify({ pid: 1, projectDir: project }));
    lock.release();
    expect(existsSync(lock.path)).toBe(true);
  });
});
