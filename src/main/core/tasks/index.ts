/** Headless agent tasks with a stall watchdog: the capability's public surface. */
export { TaskService, NotATaskError, type TaskHost } from './taskService';
export { TaskDecoration, taskDecorator } from './taskDecoration';
export { taskCapability } from './taskCapability';
export { TaskSupervisor, RESULT_EXIT_GRACE_MS, type TaskConfig, type TaskSession, type TaskSupervisorOptions } from './taskSupervisor';
export { TaskWatchdog } from './taskWatchdog';
export { TaskStateMachine } from './taskState';
export { NdjsonReader, parseLine, MAX_LINE_CHARS, type NdjsonItem } from './ndjsonReader';
export { assessSilence, TOOL_TIMEOUT_MARGIN_MS, type Assessment, type SilenceContext } from './stallAssessment';
export { runnerFor } from './runners';
export type { TaskRunner, ResolvedTask, LongRunningTool } from './taskRunner';
export { claudeRunner, CLAUDE_LONG_RUNNING_TOOLS } from './claudeRunner';
export { decodeClaudeMessage } from './claudeStream';
export {
  anthropicSecondOpinion,
  parseVerdict,
  DEFAULT_SECOND_OPINION_MODEL,
  SECOND_OPINION_MAX_EXTENSIONS,
  type SecondOpinionProvider,
  type SecondOpinionRequest,
  type SecondOpinionVerdict,
} from './secondOpinion';
export { waitForTaskEnd, TASK_PROGRESS_INTERVAL_MS } from './taskWait';
export type { TaskStreamEvent } from './taskEvents';
