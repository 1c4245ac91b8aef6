/**
 * The registry of a project's managed worktrees, kept in the app's data directory (never in the
 * project, which agents can write). Git knows the folders; this adds what git does not: the base,
 * who created it, when, and when it was last used.
 */
import { readFileSync, renameSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../base';

const WorktreeRecordSchema = z.object({
  id: z.string(),
  path: z.string(),
  branch: z.string(),
  base: z.string(),
  /** The commit the branch started at: a branch still there has done no work of its own. */
  startCommit: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
});
export type WorktreeRecord = z.infer<typeof WorktreeRecordSchema>;

const StoreFileSchema = z.object({ version: z.literal(1), worktrees: z.array(WorktreeRecordSchema) });

export interface WorktreeStore {
  load(): WorktreeRecord[];
  save(records: WorktreeRecord[]): void;
}

export class FileWorktreeStore implements WorktreeStore {
  constructor(readonly path: string) {}

  /** A missing file is an empty registry; an unreadable one is moved aside (kept for the user), never overwritten. */
  load(): WorktreeRecord[] {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return [];
    }
    try {
      return StoreFileSchema.parse(JSON.parse(text)).worktrees;
    } catch {
      renameSync(this.path, `${this.path}.corrupt-${Date.now()}`);
      return [];
    }
  }

  save(records: WorktreeRecord[]): void {
    writeFileAtomic(this.path, JSON.stringify({ version: 1, worktrees: records }, null, 2));
  }
}
