import { SwitchboardError } from '../../../shared/errors';

/** Why a worktree operation was refused; the message names the cause and what to do. */
type WorktreeErrorReason =
  | 'git_missing'
  | 'not_a_repository'
  | 'submodules'
  | 'detached_head'
  | 'branch_exists'
  | 'folder_exists'
  | 'name_taken'
  | 'bad_base'
  | 'bad_branch'
  | 'unknown_worktree'
  | 'main_worktree'
  | 'in_use'
  | 'dirty'
  | 'unmerged'
  | 'dirty_base'
  | 'base_not_checked_out'
  | 'not_fast_forward'
  | 'conflict'
  | 'nothing_to_commit'
  | 'git_failed'
  | 'no_agent'
  | 'already_asked'
  | 'not_asked'
  | 'no_answer'
  | 'not_trusted';

export class WorktreeError extends SwitchboardError {
  constructor(
    readonly reason: WorktreeErrorReason,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(reason === 'unknown_worktree' ? 'not_found' : 'invalid_argument', message, { reason, ...details });
    this.name = 'WorktreeError';
  }
}
