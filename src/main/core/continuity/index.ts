export { ContinuityService, continuityOf, type RestoreReport } from './continuityService';
export { StateStore } from './stateStore';
