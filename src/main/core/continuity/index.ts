/** Continuity across app restarts and crashes (docs/continuity.md): the capability's public surface. */
export { continuityCapability, type ContinuityCapability } from './continuityCapability';
export { type RestoreReport } from './continuityService';
export { StateStore } from './stateStore';
