import type { Event } from '../base';
import type { WorktreeInfo } from '../../../shared/worktree';

/** The read side of a project's worktrees (the main checkout included, id "main"), for the runtime and the UI. */
export interface WorktreeDirectory {
  list(): WorktreeInfo[];
  get(id: string): WorktreeInfo | undefined;
  onDidChange: Event<void>;
}
