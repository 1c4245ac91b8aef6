/**
 * A runner knows one headless agent CLI: how to launch a task on it, how to read its stream, and
 * which of its tools legitimately run long in silence. Claude Code is the first; another agent
 * (Codex `exec --json`, Gemini `-p --output-format stream-json`) is one more file like
 * claudeRunner.ts plus a line in RUNNERS (runners.ts).
 */
import type { TaskAgent, TaskLaunch } from '../../../shared/task';
import type { TaskStreamEvent } from './taskEvents';

/** A task request with defaults applied and the working directory resolved. */
export interface ResolvedTask extends TaskLaunch {
  model?: string;
  /** Replaces the agent's command (wrapper script, other install path). */
  command?: string[];
}

/**
 * A tool known to run long without output. `own_timeout`: the tool enforces a timeout of its own
 * (read from `timeoutField`, else `defaultTimeoutMs`, never above `maxTimeoutMs`), so silence is
 * legitimate until that has passed. `windows`: long by nature (a subagent), so it earns up to
 * `maxWindows` more windows of silence.
 */
export interface LongRunningTool {
  id: string;
  names: readonly string[];
  kind: 'own_timeout' | 'windows';
  timeoutField?: string;
  defaultTimeoutMs?: number;
  maxTimeoutMs?: number;
  /** Input flag that makes the call return at once (a background run), so it earns nothing. */
  backgroundField?: string;
  maxWindows?: number;
  /** Where the numbers come from. */
  source: string;
}

export interface TaskRunner {
  readonly agent: TaskAgent;
  readonly displayName: string;
  /** Program and arguments of one headless run (never the prompt: argv is public in `ps`). */
  argv(task: ResolvedTask): string[];
  /** What the run reads on stdin: the prompt. */
  stdin(task: ResolvedTask): string;
  /** Environment the runner adds to the project's (the task's own env wins). */
  env(task: ResolvedTask): Record<string, string>;
  /** One JSON message of the agent's stream → events. */
  decode(message: Record<string, unknown>): TaskStreamEvent[];
  /** One line describing a tool call ("sleep 4 && echo done", a path, a subagent's description). */
  summarizeTool(name: string, input: Record<string, unknown>): string;
  readonly longRunningTools: readonly LongRunningTool[];
}
