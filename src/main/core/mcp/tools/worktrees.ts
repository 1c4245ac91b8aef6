/** Worktree tools (docs/worktrees.md): an orchestrating agent fans work out into worktrees and brings it back. */
import { MissingScopeError } from '../../../../shared/errors';
import type { WorktreeDiff } from '../../../../shared/worktree';
import { defineTool, spawnOrigin, type AnyToolDefinition, type ToolCall, type ToolContext } from '../toolContext';

/** A process may merge and remove the worktrees it created; others need the scope. */
function assertManages(ctx: ToolContext, call: ToolCall, worktree: string, action: string): void {
  if (call.caller.kind !== 'process') return;
  const callerId = call.caller.processId;
  if (ctx.core.worktrees.manager.creatorOf(worktree) === callerId) return;
  if (!ctx.core.scopesOf(callerId).includes('worktrees:manage-all'))
    throw new MissingScopeError('worktrees:manage-all', `${action} worktree "${worktree}", which you did not create, needs it`);
}

const createWorktree = defineTool({
  name: 'create_worktree',
  title: 'Create a worktree',
  summary: 'New git worktree on a new branch, copied and set up; returns its id.',
  description:
    "New git worktree on a new branch, with the project's copy and set-up done. Returns id, path, branch, setup. Then spawn_agent/spawn_process with worktree.",
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
  run: (_args, _call, ctx) => ctx.core.worktrees.manager.overview(),
});

const worktreeDiff = defineTool({
  name: 'worktree_diff',
  title: 'Worktree diff',
  summary: "A worktree's changes against its base, uncommitted included.",
  description: 'Changes against the base, uncommitted included (marked): per file +/- and unified diff.',
  annotations: { readOnlyHint: true },
  run: async ({ worktree }, _call, ctx): Promise<WorktreeDiff> => ctx.core.worktrees.manager.diff(worktree),
});

const mergeWorktree = defineTool({
  name: 'merge_worktree',
  title: 'Merge a worktree',
  summary: "Land a worktree's branch on its base; a conflict changes nothing.",
  description: 'Land the worktree branch on its base. A conflict changes nothing and names the files.',
  run: ({ worktree, strategy }, call, ctx) => {
    assertManages(ctx, call, worktree, 'Merging');
    return ctx.core.worktrees.manager.merge(worktree, strategy);
  },
});

const removeWorktree = defineTool({
  name: 'remove_worktree',
  title: 'Remove a worktree',
  summary: 'Delete a worktree and its branch; unsaved work refuses it unless force.',
  description: 'Delete the worktree and its branch. Refused with unsaved work unless force, which saves it to a named branch first.',
  annotations: { destructiveHint: true },
  run: ({ worktree, force }, call, ctx) => {
    assertManages(ctx, call, worktree, 'Removing');
    return ctx.core.worktrees.manager.remove(worktree, force);
  },
});

const proposeCommitMessage = defineTool({
  name: 'propose_commit_message',
  title: 'Propose a commit message',
  summary: 'Answer a request for a commit message for your worktree.',
  description:
    'Hand back the commit message Switchboard asked you for (the review\'s "Ask the agent"), for the uncommitted work in your worktree. Only answers an open request; it does not commit.',
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
