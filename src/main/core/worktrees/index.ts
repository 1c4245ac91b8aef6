/** Git worktrees per agent (docs/worktrees.md): create, review, land and remove them with the real git CLI. */
export { WorktreeManager, type WorktreeManagerOptions, type CreateWorktreeRequest } from './worktreeManager';
export type { WorktreeDirectory } from './worktreeDirectory';
export { WorktreeError, type WorktreeErrorReason } from './worktreeError';
export { FileWorktreeStore, MemoryWorktreeStore, type WorktreeStore, type WorktreeRecord } from './worktreeStore';
export { WorktreeService, WORKTREES, type AgentInWorktreeRequest, type AgentInWorktreeResult } from './worktreeService';
export { worktreeCapability, type WorktreeCapabilityOptions } from './worktreeCapability';
export { SETUP_TRUST_KEY } from './worktreeSetupRun';
