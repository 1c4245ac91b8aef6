/** The composition root: builds a SwitchboardCore with every capability wired in. */
export { createCore, type CoreHandle } from './createCore';
export { projectKey } from './projectKey';
export { buildCore } from './capabilities';
