/**
 * Timers on disk, so they survive an app restart (docs/timers.md): one JSON file per project under the
 * app's data directory, replaced atomically (temp file, fsync, rename, fsync of the directory) so a
 * crash leaves the previous or the next snapshot, never a torn one. Writes are synchronous: the
 * file is small, changes are rare (a timer set, paused, fired), and the final write at quit must
 * finish before the process exits.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync } from 'node:fs';
import { writeFileAtomic } from '../base';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { TimerHistoryEntry } from '../../../shared/model';
import type { TimerRecord } from './timerTypes';
import { formatZodIssues } from '../../../shared/errors';

export const TIMER_FILE_VERSION = 1;

export interface TimerSnapshot {
  version: typeof TIMER_FILE_VERSION;
  /** Epoch ms of the snapshot; remaining times are as of this moment. */
  savedAt: number;
  timers: TimerRecord[];
  history: TimerHistoryEntry[];
}

export interface TimerStore {
  /** The last snapshot; undefined when there is none. Throws TimerFileError for an unreadable one. */
  load(): TimerSnapshot | undefined;
  save(snapshot: TimerSnapshot): void;
}

export class TimerFileError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`Timer file ${path} is unreadable (${problem}); it was moved aside and timers start empty.`);
  }
}

const EntryRefSchema = z.object({ id: z.string(), name: z.string(), configName: z.string().optional() });
const KindSchema = z.enum(['delay', 'idle_any', 'idle_all']);

const TimerRecordSchema = z.object({
  id: z.string().min(1),
  kind: KindSchema,
  label: z.string().optional(),
  body: z.string(),
  owner: EntryRefSchema,
  watched: z.array(EntryRefSchema),
  createdBy: z.string(),
  createdAt: z.number(),
  state: z.enum(['pending', 'paused', 'due']),
  remainingMs: z.number().min(0).optional(),
  firedBy: z.enum(['delay', 'idle', 'max_wait', 'fire_now']).optional(),
  whenBlocked: z.literal(true).optional(),
});

const HistorySchema = z.object({
  id: z.string(),
  kind: KindSchema,
  label: z.string().optional(),
  ownerId: z.string(),
  ownerName: z.string(),
  state: z.enum(['fired', 'cancelled', 'dropped']),
  reason: z.string(),
  endedAt: z.number(),
  bodyPreview: z.string(),
  createdBy: z.string(),
});

const SnapshotSchema = z.object({
  version: z.literal(TIMER_FILE_VERSION),
  savedAt: z.number(),
  timers: z.array(TimerRecordSchema),
  history: z.array(HistorySchema),
});

export class FileTimerStore implements TimerStore {
  constructor(readonly path: string) {}

  /** The file of one project under the app's data directory (as scratchpads are keyed). */
  static forProject(dataDir: string, projectDir: string): FileTimerStore {
    const key = createHash('sha256').update(resolve(projectDir)).digest('hex').slice(0, 16);
    return new FileTimerStore(join(dataDir, 'timers', `${key}.json`));
  }

  load(): TimerSnapshot | undefined {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    let parsed: ReturnType<typeof SnapshotSchema.safeParse>;
    try {
      parsed = SnapshotSchema.safeParse(JSON.parse(text));
    } catch (err) {
      this.moveAside();
      throw new TimerFileError(this.path, err instanceof Error ? err.message : String(err));
    }
    if (!parsed.success) {
      this.moveAside();
      throw new TimerFileError(this.path, formatZodIssues(parsed.error.issues));
    }
    return parsed.data;
  }

  save(snapshot: TimerSnapshot): void {
    writeFileAtomic(this.path, `${JSON.stringify(snapshot, null, 2)}\n`);
  }

  /** Keep an unreadable file for a person to look at instead of overwriting it. */
  private moveAside(): void {
    try {
      renameSync(this.path, `${this.path}.corrupt-${Date.now()}`);
    } catch {
      // Already gone or not ours to move: the next save replaces it either way.
    }
  }
}

/** In-memory store for tests and for cores without a data directory. */
export class MemoryTimerStore implements TimerStore {
  snapshot: TimerSnapshot | undefined;
  saves = 0;
  load(): TimerSnapshot | undefined {
    return this.snapshot && structuredClone(this.snapshot);
  }
  save(snapshot: TimerSnapshot): void {
    this.saves += 1;
    this.snapshot = structuredClone(snapshot);
  }
}
