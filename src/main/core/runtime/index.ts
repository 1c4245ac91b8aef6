/** Every worktree runs its own app: per-worktree instances of `processes`, their ports and references. */
export { planInstances, cwdInWorktree, WORKTREE_ENV, type RuntimeWorktree, type InstancePlan } from './instancePlan';
export { PortAllocator, JsonPortStore, isPortFree } from './portAllocator';
export { WorktreeRuntime, type WorktreeRuntimePlan } from './worktreeRuntime';
export { idleStopCapability } from './idleStopCapability';
