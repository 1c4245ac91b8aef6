export { loadConfig, parseConfigText, type LoadedConfig } from './configLoader';
export { ConfigWatcher, CONFIG_DEBOUNCE_MS } from './configWatcher';
export { processSpecFromConfig, commandArgv, sameSpec, sameDefinition } from './specFromConfig';
