/**
 * Git worktrees (docs/worktrees.md): the main checkout and every Switchboard-managed worktree of a
 * project. The zod schemas are the single source of truth for the control API and MCP.
 */
import { z } from 'zod';
import { SandboxConfigSchema } from './sandbox';

/** The main checkout's worktree id. */
export const MAIN_WORKTREE_ID = 'main';

/** A worktree id: a short slug, safe in a folder name, a branch name and an environment value. */
export const WorktreeIdSchema = z
  .string()
  .min(1)
  .max(48)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'worktree names use lowercase letters, digits and "-", starting with a letter or digit');

/** One worktree of a project; the main checkout is the one with id "main" and isMain. */
export interface WorktreeInfo {
  id: string;
  name: string;
  /** Absolute path of the worktree's folder. */
  path: string;
  /** Checked-out branch (short name); null on a detached HEAD. */
  branch: string | null;
  /** What it was branched from and merges into; null for the main checkout. */
  base: string | null;
  isMain: boolean;
}

/** A worktree with its state against its base (list_worktrees). */
export interface WorktreeStatus extends WorktreeInfo {
  /** Commits on the branch that the base lacks, and the other way round. */
  ahead: number;
  behind: number;
  /** Files with uncommitted changes (tracked or untracked). */
  changedFiles: number;
  /** The folder no longer exists (removed outside Switchboard). */
  isMissing: boolean;
  /** Id of the entry that created it (an agent's MCP call), if any. */
  createdBy: string | null;
  createdAt: string;
}

export interface DiffFile {
  path: string;
  /** Null for binary files. */
  added: number | null;
  removed: number | null;
  /** The change is not committed yet (working tree or index). */
  isUncommitted: boolean;
  /** Unified diff of this file against the base. */
  patch: string;
}

export interface WorktreeDiff {
  worktree: string;
  base: string;
  files: DiffFile[];
}

const MERGE_STRATEGIES = ['ff', 'merge', 'rebase'] as const;
export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];

export const CreateWorktreeArgsSchema = z.strictObject({
  name: WorktreeIdSchema.optional(),
  base: z.string().min(1).optional(),
  branch: z.string().min(1).optional(),
});
export type CreateWorktreeArgs = z.infer<typeof CreateWorktreeArgsSchema>;

export const MergeWorktreeArgsSchema = z.strictObject({
  worktree: z.string().min(1),
  strategy: z.enum(MERGE_STRATEGIES).optional(),
});

export const RemoveWorktreeArgsSchema = z.strictObject({
  worktree: z.string().min(1),
  force: z.boolean().optional(),
});

export const CommitWorktreeArgsSchema = z.strictObject({
  worktree: z.string().min(1),
  message: z.string().min(1),
});

export const AgentInWorktreeArgsSchema = CreateWorktreeArgsSchema.extend({
  preset: z.string().min(1),
  agentName: z.string().min(1).max(200).optional(),
  argv: z.array(z.string()).min(1).optional(),
  instructions: z.string().optional(),
  /** Run the agent in a sandbox (docs/sandbox.md). */
  sandbox: SandboxConfigSchema.optional(),
});
export type AgentInWorktreeArgs = z.infer<typeof AgentInWorktreeArgsSchema>;

/** Start the config entry `name` in a worktree on demand (MCP `start_process`, a click in the UI); "main" is the main checkout. */
export const StartInstanceArgsSchema = z.strictObject({
  worktree: z.string().min(1),
  name: z.string().min(1).max(200),
});
export type StartInstanceArgs = z.infer<typeof StartInstanceArgsSchema>;

/** How a new worktree's `worktrees.setup` went. */
export interface SetupOutcome {
  ok: boolean;
  /** The one-shot entries that ran, in order. */
  entries: string[];
  /** Why it stopped, for whoever asked (an agent's instructions wait on it). */
  message?: string;
}

export interface MergeResult {
  worktree: string;
  base: string;
  strategy: MergeStrategy;
  /** The base's commit after the merge. */
  commit: string;
}

export interface RemoveResult {
  worktree: string;
  /** Where forced removal saved uncommitted or unmerged work: a branch name. */
  savedTo: string | null;
}

/** Whether "push and open a pull request" can work here (the user's `gh` installed and signed in, a remote), or why not. */
export type PullRequestAvailability = { available: true; remote: string } | { available: false; reason: string };

/** The prune view's default for "unused for N days". */
export const DEFAULT_UNUSED_DAYS = 7;

/** Why the prune view lists a worktree. */
export type StaleReason = 'folder-gone' | 'branch-merged' | 'unused';

export interface StaleWorktree {
  worktree: WorktreeStatus;
  reasons: StaleReason[];
  /** Bytes on disk (0 when the folder is gone). */
  diskBytes: number;
  lastUsedAt: string;
}

// --- MCP tool inputs (registered in src/shared/mcp.ts's McpToolInput) ---
const WorktreeRef = z.string().min(1).max(100).describe('Worktree id (list_worktrees)');

export const WORKTREE_TOOL_INPUT = {
  create_worktree: {
    name: WorktreeIdSchema.optional().describe('Id and folder name (default wt-N)'),
    base: z.string().min(1).max(200).optional().describe('Branch or commit to start from (default: the current branch)'),
    branch: z.string().min(1).max(200).optional().describe('New branch (default switchboard/<name>)'),
  },
  list_worktrees: {},
  worktree_diff: { worktree: WorktreeRef },
  merge_worktree: {
    worktree: WorktreeRef,
    strategy: z.enum(MERGE_STRATEGIES).optional().describe('ff, merge (default: a merge commit) or rebase'),
  },
  remove_worktree: {
    worktree: WorktreeRef,
    force: z.boolean().optional().describe('Remove despite uncommitted or unmerged work, saved first to a branch'),
  },
  propose_commit_message: {
    message: z.string().trim().min(1).max(10_000).describe('The commit message: a subject line, then optionally a blank line and a body'),
  },
} as const;

/** `worktree` on spawn_process / spawn_agent. */
export const WorktreeArg = z.string().min(1).max(100).describe('Worktree id to run in (default: the main checkout)');
