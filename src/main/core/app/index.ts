/** The façade: SwitchboardCore, the one set of methods the UI, MCP and `serve` call, and the entry decorations it composes. */
export { SwitchboardCore, type SwitchboardCoreOptions, type SpawnOrigin, type EntryRestorer, configKey } from './switchboardCore';
export { entryDecoratorCapability, type Capability } from './capability';
export { agentSessionDecorator } from './agentSession';
export { agentStatusDecorator, presetOf } from './agentEntries';
export { readinessDecorator } from './readinessEntries';
export { autoRestartDecorator } from './autoRestart';
