/** Every worktree runs its own app: per-worktree instances of `processes`, their ports and references. */
export {
  planInstances,
  WORKTREE_ENV,
  type RuntimeWorktree,
  type Instance,
  type InstancePlan,
  type InstancePlanInput,
} from './instancePlan';
export { PortAllocator, JsonPortStore, isPortFree, DEFAULT_PORT_RANGE, type PortStore, type PortAssignments } from './portAllocator';
export { passPort, type PortPassing } from './passPort';
export { PORT_PASSING_RULES, type PortPassingRule } from './portPassing';
export { agentEnvFor } from './agentEnv';
export { IdleStop, type IdleStopOptions } from './idleStop';
export { WorktreeRuntime, type WorktreeRuntimePlan } from './worktreeRuntime';
