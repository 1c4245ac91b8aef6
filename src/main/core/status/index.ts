/** Agent status detection (docs/agent-status.md): the public surface of core/status. */
export {
  StatusTracker,
  DEFAULT_STATUS_THRESHOLDS,
  STUCK_THRESHOLD_MS,
  IDLE_DEBOUNCE_MS,
  STRONG_IDLE_DEBOUNCE_MS,
  DRIFT_AFTER_MS,
  STARTUP_GRACE_MS,
  RECOMPUTE_COALESCE_MS,
  type StatusThresholds,
  type DetectionProfile,
  type StatusTrackerOptions,
  type StatusExplanation,
} from './statusTracker';
export { classify, type Classification, type ClassifyContext, type RuleEvaluation, type ScreenLike } from './classifier';
export { loadRuleSet, RuleSetError, type RuleSet, type RuleSetInput, type StatusRule, type StatusRuleInput } from './ruleSchema';
export { REGION_NAMES, parseRegion, RegionReader, type RegionName } from './regions';
export { HealthMachine, RECOVERED_HOLD_MS, type HealthEvent } from './healthMachine';
export { HOOK_FRESH_MS } from './hookState';
export { meaningfulRow } from './progress';
export { toSnapshot } from './classifier';
export { BUILTIN_RULE_SETS, ruleSetFor } from './rules';
export { benchClassifier, type ClassifierBenchResult } from './classifierBench';
export { benchReactionLatency, type ReactionBenchResult } from './reactionBench';
export { listRecordingSets, scoreRecordingSet, versionOf, type RecordingSet, type RecordingSetScore } from './replay/recordingSets';
export { probeLateCounterStalls, type StallProbeResult } from './replay/stallProbe';
export { loadRecording, recordingsRoot } from './replay/asciicast';
