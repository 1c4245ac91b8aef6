/** The composition root: builds a SwitchboardCore with every capability wired in. */
export { createCore, type CreateCoreOptions, type CoreHandle } from './createCore';
export { projectKey } from './projectKey';
export { coreCapabilities, buildCore, type CapabilityOptions } from './capabilities';
