/** Readiness of command entries: framework table, detection, state machine, tracker, liveness. */
export {
  ReadinessTracker,
  LOG_TAIL_LINES,
  PROGRESS_INTERVAL_MS,
  AWAITING_PORT_PROBE_INTERVAL_MS,
  type ReadinessTrackerOptions,
  type WaitForReadyOptions,
} from './readinessTracker';
export {
  ReadinessMachine,
  NO_READINESS_MESSAGE,
  ONE_SHOT_RUNNING_MESSAGE,
  type PortOwnership,
  type ReadinessMachineOptions,
  type RunExpectation,
} from './readinessMachine';
export { selectProbeTarget, type ProbeTarget, type ProbeTargetInput } from './probeTarget';
export { formatSeconds } from './formatSeconds';
export { waitForReadiness, ERROR_SETTLE_MS, MAX_ERROR_SETTLE_MS, type ReadinessWaitSource } from './readinessWaiter';
export { LogTail, FLOOD_TEXT_KEEP_BYTES } from './logTail';
export { LineBudget } from './lineBudget';
export {
  LivenessScheduler,
  sharedLivenessScheduler,
  probeOnce,
  DEFAULT_LIVENESS_PERIOD_MS,
  DEFAULT_LIVENESS_FAILURE_THRESHOLD,
  DEFAULT_LIVENESS_TIMEOUT_MS,
  type LivenessSettings,
  type LivenessWatch,
} from './livenessProbes';
export {
  resolveReadinessConfig,
  DEFAULT_STABILITY_DELAY_MS,
  DEFAULT_PORT_TIMEOUT_MS,
  DEFAULT_PROBE_INTERVAL_MS,
  STARTUP_SCAN_INTERVAL_MS,
  MAX_WAIT_MS,
  type ResolvedReadinessConfig,
} from './readyConfig';
export { detectFramework, resolveCommandLine, type FrameworkDetection, type DetectFrameworkInput } from './detectFramework';
export { FRAMEWORK_PATTERNS, FRAMEWORK_NAMES } from './frameworkPatterns';
export { PRIORITY, type FrameworkPattern, type PatternKind, type PatternSample, type DetailSource } from './patternTypes';
export { LineClassifier, type Classification, type LineMatch, type PlaceHint } from './lineClassifier';
export { ErrorMessageComposer, type ErrorReport } from './errorMessages';
export { renderTemplate } from './messageTemplate';
