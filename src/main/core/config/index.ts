export { loadConfig, type LoadedConfig } from './configLoader';
export { ConfigWatcher } from './configWatcher';
export { processSpecFromConfig, sameSpec, sameDefinition } from './specFromConfig';
