/** The façade: SwitchboardCore, the one set of methods the UI, MCP and `serve` call, and the keys of the services it reads. */
export { SwitchboardCore, type SwitchboardCoreOptions } from './switchboardCore';
export { type SpawnOrigin } from './entryLauncher';
export { configKey } from './configKey';
export { ENTRY_RESTORER, MCP_CONNECTION, type EntryRestorer } from './coreServices';
export { entryDecoratorCapability } from './capability';
