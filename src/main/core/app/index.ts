/** The façade: SwitchboardCore, the one set of methods the UI, MCP and `serve` call, and the entry decorations it composes. */
export {
  SwitchboardCore,
  CHANGE_COALESCE_MS,
  INSTRUCTIONS_READY_TIMEOUT_MS,
  type SwitchboardCoreOptions,
  type SpawnOrigin,
  type EntryRestorer,
  configKey,
} from './switchboardCore';
export { entryDecoratorCapability, type Capability } from './capability';
export { AgentSessionDecoration, agentSessionDecorator } from './agentSession';
export { AgentStatusDecoration, agentStatusDecorator, presetOf, agentSpec, agentWiringForRun } from './agentEntries';
export { ReadinessDecoration, readinessDecorator } from './readinessEntries';
export {
  AutoRestart,
  autoRestartDecorator,
  RESTART_BACKOFF_BASE_MS,
  RESTART_BACKOFF_MAX_MS,
  MAX_RESTARTS_PER_WINDOW,
  RESTART_WINDOW_MS,
  HEALTHY_RUN_MS,
} from './autoRestart';
