/** Dev-server readiness (SPEC §3): framework table, detection, state machine, tracker. */
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
  displayUrl,
  formatSeconds,
  type ProbeTarget,
  type PortOwnership,
  type ReadinessMachineOptions,
} from './readinessMachine';
export {
  resolveReadinessConfig,
  DEFAULT_STABILITY_DELAY_MS,
  DEFAULT_READY_TIMEOUT_MS,
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
