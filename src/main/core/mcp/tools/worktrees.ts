/** Worktree tools (docs/worktrees.md): an orchestrating agent fans work out into worktrees and brings it back. */
import type { WorktreeDiff } from '../../../../shared/worktree';
import { defineTool, spawnOrigin, type AnyToolDefinition } from '../toolContext';

/**
 * The repository's files are the caller's to read anyway (every agent runs as the same user in the
 * same checkout): branches, counts and diffs need no right; changing another's worktree does.
 */
const REPOSITORY_READ = "the repository's branches and files, which every process of the project can read on disk";

const createWorktree = defineTool({
  name: 'create_worktree',
  title: 'Create a worktree',
  summary: 'New git worktree on a new branch, copied and set up; returns its id.',
  description:
    "New git worktree on a new branch, with the project's copy and set-up done. Returns id, path, branch, setup. Then spawn_agent/spawn_process with worktree.",
  requires: { open: 'a new worktree of its own (the caller is its creator)' },
  run: async (args, call, ctx) => {
    const { worktree, setup } = await ctx.core.worktrees.createWorktree(args, spawnOrigin(call));
    return { ...worktree, setup };
  },
});

const listWorktrees = defineTool({
  name: 'list_worktrees',
  title: 'List worktrees',
  summary: 'Every worktree: branch, base, ahead/behind, changed files, creator.',
  description:
    'Every worktree (main included): branch, base, commits ahead/behind, changed files, creator. Empty with `untrusted` (the reason) until the project folder is trusted.',
  annotations: { readOnlyHint: true },
  requires: { open: REPOSITORY_READ },
  run: (_args, _call, ctx) => ctx.core.worktrees.manager.overview(),
});

const worktreeDiff = defineTool({
  name: 'worktree_diff',
  title: 'Worktree diff',
  summary: "A worktree's changes against its base, uncommitted included.",
  description: 'Changes against the base, uncommitted included (marked): per file +/- and unified diff.',
  annotations: { readOnlyHint: true },
  requires: { open: REPOSITORY_READ },
  run: async ({ worktree }, _call, ctx): Promise<WorktreeDiff> => ctx.core.worktrees.manager.diff(worktree),
});

const mergeWorktree = defineTool({
  name: 'merge_worktree',
  title: 'Merge a worktree',
  summary: "Land a worktree's branch on its base; a conflict changes nothing.",
  description: 'Land the worktree branch on its base. A conflict changes nothing and names the files.',
  requires: { perCall: ({ worktree }) => [{ worktree, action: 'Merging' }] },
  run: ({ worktree, strategy }, _call, ctx) => ctx.core.worktrees.manager.merge(worktree, strategy),
});

const removeWorktree = defineTool({
  name: 'remove_worktree',
  title: 'Remove a worktree',
  summary: 'Delete a worktree and its branch; unsaved work refuses it unless force.',
  description: 'Delete the worktree and its branch. Refused with unsaved work unless force, which saves it to a named branch first.',
  annotations: { destructiveHint: true },
  requires: { perCall: ({ worktree }) => [{ worktree, action: 'Removing' }] },
  run: ({ worktree, force }, _call, ctx) => ctx.core.worktrees.manager.remove(worktree, force),
});

const proposeCommitMessage = defineTool({
  name: 'propose_commit_message',
  title: 'Propose a commit message',
  summary: 'Answer a request for a commit message for your worktree.',
  description:
    'Hand back the commit message Switchboard asked you for (the review\'s "Ask the agent"), for the uncommitted work in your worktree. Only answers an open request; it does not commit.',
  requires: { open: 'answers only a request made to the caller itself, for its own worktree' },
  run: ({ message }, call, ctx) =>
    ctx.core.worktrees.proposeCommitMessage(call.caller.kind === 'process' ? call.caller.processId : undefined, message),
});

export const worktreeTools: readonly AnyToolDefinition[] = [
  createWorktree,
  listWorktrees,
  worktreeDiff,
  mergeWorktree,
  removeWorktree,
  proposeCommitMessage,
];
