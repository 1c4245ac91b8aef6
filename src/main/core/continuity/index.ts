export {
  ContinuityService,
  continuityOf,
  DEFAULT_SAVED_SCROLLBACK_BYTES,
  SCROLLBACK_SAVE_INTERVAL_MS,
  type RestoreReport,
} from './continuityService';
export { StateStore, type SavedEntry, type SavedState } from './stateStore';
export { persistableSpec, isSecretEnvName } from './persistedSpec';
export { boundSerialized, serializeWithin } from './scrollbackBound';
