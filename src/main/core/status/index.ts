/** Agent status detection (docs/agent-status.md): the public surface of core/status. */
export {
  StatusTracker,
  DEFAULT_STATUS_THRESHOLDS,
  STUCK_THRESHOLD_MS,
  type StatusThresholds,
  type DetectionProfile,
  type StatusTrackerOptions,
} from './statusTracker';
export { classify, UNRECOGNISED_DIALOG, type ScreenLike } from './classifier';
export { readUnknownDialog } from './unknownDialog';
export { type RuleSet } from './ruleSchema';
export { RegionReader } from './regions';
export { promptRows } from './promptRows';
export { meaningfulRow } from './progress';
export { toSnapshot } from './classifier';
export { ruleSetFor } from './rules';
export { benchClassifier } from './classifierBench';
export { benchReactionLatency } from './reactionBench';
export { listRecordingSets, scoreRecordingSet, type RecordingSetScore } from './replay/recordingSets';
export { probeLateCounterStalls } from './replay/stallProbe';
export { loadRecording, recordingsRoot } from './replay/asciicast';
