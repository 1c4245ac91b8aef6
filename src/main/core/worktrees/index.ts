/** Git worktrees per agent (docs/worktrees.md): create, review, land and remove them with the real git CLI. */
export { WorktreeManager, type WorktreeManagerOptions } from './worktreeManager';
export { FileWorktreeStore } from './worktreeStore';
export { WorktreeService, WORKTREES } from './worktreeService';
export { worktreeCapability, type WorktreeCapabilityOptions } from './worktreeCapability';
export { worktreesTrustRequest } from './worktreeTrust';
