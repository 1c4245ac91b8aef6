/**
 * Claude Code as a headless task runner:
 * `claude -p --output-format stream-json --verbose --include-partial-messages [options]` with the
 * prompt on stdin. `--verbose` is required for stream-json in print mode; partial messages give the
 * text deltas and the tool_use block starts the phase machine follows.
 *
 * The prompt never appears on a command line, which every local user can read in `ps`: it is the
 * run's stdin (see ProcessSpec.stdin), and `-p` reads the prompt from stdin when that is not a
 * terminal, which also keeps a prompt starting with "-" a prompt.
 */
import { AGENT_TERM } from '../agents';
import { decodeClaudeMessage } from './claudeStream';
import type { LongRunningTool, ResolvedTask, TaskRunner } from './taskRunner';

/** Longest one-line tool summary. */
const TOOL_SUMMARY_CHARS = 160;

/**
 * Claude Code tools that run long in silence (2.1.197). Its Bash tool takes `timeout` in ms
 * (default 2 min, at most 10 min; BASH_DEFAULT_TIMEOUT_MS / BASH_MAX_TIMEOUT_MS change them) and
 * returns at once with `run_in_background`. The subagent tool is `Task` (`Agent` in newer
 * versions); a subagent's own messages reset the idle timer, so its silence is one slow model call
 * or tool, and a few more windows cover that.
 */
export const CLAUDE_LONG_RUNNING_TOOLS: readonly LongRunningTool[] = [
  {
    id: 'bash-own-timeout',
    names: ['Bash'],
    kind: 'own_timeout',
    timeoutField: 'timeout',
    defaultTimeoutMs: 120_000,
    maxTimeoutMs: 600_000,
    backgroundField: 'run_in_background',
    source: 'Claude Code 2.1.197 Bash tool input schema (timeout: ms, max 600000; default 120000)',
  },
  {
    id: 'subagent',
    names: ['Task', 'Agent'],
    kind: 'windows',
    maxWindows: 3,
    source: 'Claude Code 2.1.197 Task tool (subagents); messages inside carry parent_tool_use_id',
  },
];

export const claudeRunner: TaskRunner = {
  agent: 'claude',
  displayName: 'Claude Code',
  argv(task: ResolvedTask): string[] {
    const argv = [...(task.command ?? ['claude']), '-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages'];
    if (task.maxTurns !== undefined) argv.push('--max-turns', String(task.maxTurns));
    if (task.maxBudgetUsd !== undefined) argv.push('--max-budget-usd', String(task.maxBudgetUsd));
    if (task.permissionMode) argv.push('--permission-mode', task.permissionMode);
    if (task.model) argv.push('--model', task.model);
    if (task.resumeSessionId) argv.push('--resume', task.resumeSessionId);
    if (task.allowedTools && task.allowedTools.length > 0) argv.push('--allowedTools', ...task.allowedTools);
    return argv;
  },
  stdin(task: ResolvedTask): string {
    return task.prompt;
  },
  env(): Record<string, string> {
    // The same terminal the agent presets use; nothing in -p mode draws, but a tool might ask.
    return { TERM: AGENT_TERM };
  },
  decode: decodeClaudeMessage,
  summarizeTool: summarizeClaudeTool,
  longRunningTools: CLAUDE_LONG_RUNNING_TOOLS,
};

/** The input field that says what a call does, per Claude Code tool. */
const SUMMARY_FIELDS: Readonly<Record<string, string>> = {
  Bash: 'command',
  Read: 'file_path',
  Write: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
  Grep: 'pattern',
  Glob: 'pattern',
  Task: 'description',
  Agent: 'description',
  WebFetch: 'url',
  WebSearch: 'query',
};

export function summarizeClaudeTool(name: string, input: Record<string, unknown>): string {
  const field = SUMMARY_FIELDS[name];
  const value = field !== undefined ? input[field] : Object.values(input).find((v) => typeof v === 'string');
  if (typeof value !== 'string') return '';
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > TOOL_SUMMARY_CHARS ? `${line.slice(0, TOOL_SUMMARY_CHARS - 1)}…` : line;
}
