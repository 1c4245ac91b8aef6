/** Readiness of command entries: framework table, detection, state machine, tracker, liveness. */
export { ReadinessTracker } from './readinessTracker';
export { NO_READINESS_MESSAGE } from './readinessMachine';
export { detectFramework, scriptNameOf, readFirstPackageJson, PACKAGE_RUNNERS } from './detectFramework';
export { FRAMEWORK_NAMES } from './frameworkPatterns';
export { readinessDecorator, READINESS, type ReadinessDecoration } from './readinessDecoration';
export { ReadinessCommands, type RestartAndWaitOptions } from './readinessCommands';
