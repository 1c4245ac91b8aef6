/** The timer file: round trip, atomic replacement, per-project keying, and a corrupt file set aside. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileTimerStore, TIMER_FILE_VERSION, TimerFileError, type TimerSnapshot } from './timerStore';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-timers-'));
  dirs.push(dir);
  return dir;
}

const snapshot: TimerSnapshot = {
  version: TIMER_FILE_VERSION,
  savedAt: 1_000,
  timers: [
    {
      id: 't_abc123',
      kind: 'idle_all',
      label: 'review',
      body: 'all workers are done\nreview their branches',
      owner: { id: 'p_111111', name: 'lead', configName: 'lead' },
      watched: [{ id: 'p_222222', name: 'worker' }],
      createdBy: 'p_111111',
      createdAt: 500,
      state: 'pending',
      remainingMs: 12_345,
    },
  ],
  history: [
    {
      id: 't_def456',
      kind: 'delay',
      ownerId: 'p_1',
      ownerName: 'lead',
      state: 'fired',
      reason: 'delay',
      endedAt: 900,
      bodyPreview: 'x',
      createdBy: 'external',
    },
  ],
};

describe('FileTimerStore', () => {
  it('round-trips a snapshot through an atomically replaced 0600 file, leaving no temp files', () => {
    const store = FileTimerStore.forProject(tempDir(), '/some/project');
    expect(store.load()).toBeUndefined();
    store.save(snapshot);
    store.save({ ...snapshot, savedAt: 2_000 });
    expect(store.load()).toEqual({ ...snapshot, savedAt: 2_000 });
    expect(readdirSync(dirname(store.path))).toEqual([store.path.split('/').pop()]);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
  });

  it('keys the file by project', () => {
    const data = tempDir();
    expect(FileTimerStore.forProject(data, '/a').path).not.toBe(FileTimerStore.forProject(data, '/b').path);
    expect(FileTimerStore.forProject(data, '/a/').path).toBe(FileTimerStore.forProject(data, '/a').path);
  });

  it('moves an unreadable file aside and says so', () => {
    const store = FileTimerStore.forProject(tempDir(), '/p');
    store.save(snapshot);
    writeFileSync(store.path, '{"version": 1, "timers": [');
    expect(() => store.load()).toThrow(TimerFileError);
    const left = readdirSync(dirname(store.path));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/\.json\.corrupt-\d+$/);
    expect(readFileSync(join(dirname(store.path), left[0]), 'utf8')).toContain('"timers": [');
    expect(store.load()).toBeUndefined();

    store.save(snapshot);
    writeFileSync(store.path, JSON.stringify({ ...snapshot, timers: [{ id: 't_1', kind: 'sometimes' }] }));
    expect(() => store.load()).toThrow(/timers\.0\.kind/);
  });
});
