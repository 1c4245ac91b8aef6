/**
 * Headless agent tasks: start_task, get_task, cancel_task, wait_for_task. Each calls the
 * same SwitchboardCore method the UI's task commands call; the logic lives in core/tasks.
 */
import { DEFAULT_TASK_WAIT_SECONDS, type TaskRequest, type TaskView } from '../../../../shared/task';
import { defineTool, spawnOrigin, type Requirement, type ToolContext } from '../toolContext';

/** The compact view for tool results: everything get_task promises, the text tail and decisions included. */
function taskResult(view: TaskView): Record<string, unknown> {
  return {
    task_id: view.taskId,
    name: view.name,
    phase: view.phase,
    message: view.message,
    is_ended: view.isEnded,
    state: view.state,
    ...(view.currentTools.length > 0 ? { current_tools: view.currentTools } : {}),
    ...(view.lastActivity ? { last_activity: view.lastActivity } : {}),
    ...(view.stallWarning ? { stall_warning: view.stallWarning } : {}),
    ...(view.result ? { result: view.result } : {}),
    ...(view.error ? { error: view.error } : {}),
    turns: view.turns,
    ...(view.costUsd !== undefined ? { cost_usd: view.costUsd } : {}),
    ...(view.usage ? { usage: view.usage } : {}),
    ...(view.sessionId ? { session_id: view.sessionId } : {}),
    ...(view.model ? { model: view.model } : {}),
    ...(view.startedAt !== undefined ? { started_at: view.startedAt, elapsed_ms: (view.endedAt ?? Date.now()) - view.startedAt } : {}),
    tool_calls: view.toolCallCount,
    recent_tools: view.recentTools.slice(-5),
    text: view.text,
    decisions: view.decisions,
    timeouts: { idle_ms: view.timeouts.idleMs, turn_ms: view.timeouts.turnMs, wall_clock_ms: view.timeouts.wallClockMs },
    ...(view.noiseLineCount > 0 ? { noise_lines: view.noiseLineCount, noise_tail: view.noiseTail } : {}),
  };
}

/**
 * Resuming a session loads its conversation: the caller must be allowed to read the entry whose
 * session it is (its own, one it spawned, or any with entries:read-all). A session no entry has
 * (an entry closed since, or a conversation started outside Switchboard) needs the scope.
 */
function readsSession(ctx: ToolContext, sessionId: string): Requirement {
  const holder = ctx.core.listProcesses().find((p) => p.session?.id === sessionId || p.task?.sessionId === sessionId);
  return holder
    ? { entry: holder.id, right: 'read', action: 'resuming the session of' }
    : { scope: 'entries:read-all', action: 'resuming a session that belongs to no entry you may read needs it' };
}

const startTask = defineTool({
  name: 'start_task',
  title: 'Start a headless agent task',
  summary: 'Run a prompt in headless Claude Code under a stall watchdog; returns task_id.',
  description:
    'Hand a prompt to a headless Claude Code run (claude -p, stream-json) watched by a stall watchdog. Returns at once with task_id; ' +
    'then wait_for_task (blocks until it ends, with progress) or get_task. It ends done (result, turns, cost), failed (why), ' +
    'stalled (what it was doing when it went silent) or cancelled; its process tree never outlives it. A tool known to run long ' +
    '(Bash within its own timeout, a subagent, parallel tools) earns more time before a silence counts as a stall.',
  requires: {
    perCall: ({ permission_mode, resume_session_id }, _call, ctx) => [
      ...(permission_mode === 'bypassPermissions'
        ? [{ scope: 'tasks:bypass-permissions' as const, action: 'starting a task with permission_mode "bypassPermissions" needs it' }]
        : []),
      ...(resume_session_id !== undefined ? [readsSession(ctx, resume_session_id)] : []),
    ],
  },
  run: async (args, call, ctx) => {
    const request: TaskRequest = {
      prompt: args.prompt,
      ...(args.working_dir ? { cwd: args.working_dir } : {}),
      ...(args.name ? { name: args.name } : {}),
      ...(args.max_turns !== undefined ? { maxTurns: args.max_turns } : {}),
      ...(args.max_budget_usd !== undefined ? { maxBudgetUsd: args.max_budget_usd } : {}),
      ...(args.allowed_tools ? { allowedTools: args.allowed_tools } : {}),
      ...(args.permission_mode ? { permissionMode: args.permission_mode } : {}),
      ...(args.resume_session_id ? { resumeSessionId: args.resume_session_id } : {}),
      ...(args.second_opinion ? { secondOpinion: { enabled: true } } : {}),
      ...(args.timeouts
        ? {
            timeouts: {
              idleSeconds: args.timeouts.idle_seconds,
              turnSeconds: args.timeouts.turn_seconds,
              wallClockSeconds: args.timeouts.wall_clock_seconds,
            },
          }
        : {}),
    };
    return taskResult(await ctx.core.startTask(request, spawnOrigin(call)));
  },
});

const getTask = defineTool({
  name: 'get_task',
  title: 'Task status',
  summary: "A task's phase, progress and result now.",
  description:
    'A task now: phase (starting, generating, tool_executing, done, failed, stalled, cancelled), current tools, last activity, live stall warning, ' +
    'result or error, turns, cost, the tail of its text, and every watchdog decision with its reason. Does not wait.',
  annotations: { readOnlyHint: true },
  requires: { perCall: ({ task_id }) => [{ entry: task_id, right: 'read', action: 'reading the task' }] },
  run: ({ task_id }, _call, ctx) => taskResult(ctx.core.getTask(task_id)),
});

const cancelTask = defineTool({
  name: 'cancel_task',
  title: 'Cancel a task',
  summary: 'Cancel a task and end its process tree.',
  description:
    'Cancel a task: its whole process tree is ended (SIGTERM, then SIGKILL). Returns once nothing of it is left, with the task (phase cancelled). A task that already ended is returned as it was.',
  annotations: { destructiveHint: true },
  requires: { perCall: ({ task_id }) => [{ entry: task_id, right: 'control', action: 'cancelling the task' }] },
  run: async ({ task_id }, _call, ctx) => taskResult(await ctx.core.cancelTask(task_id)),
});

const waitForTask = defineTool({
  name: 'wait_for_task',
  title: 'Wait for a task',
  summary: 'Block until a task ends or a timeout.',
  description:
    `Block until the task ends (done, failed, stalled, cancelled; its process tree gone) or timeout_seconds pass (default ${DEFAULT_TASK_WAIT_SECONDS}); ` +
    'returns { is_ended, reason, message, elapsed_ms, task }. Sends progress notifications (phase and current tool, stall warnings) when given a progress token. ' +
    'Cancelling the call stops the wait, not the task.',
  annotations: { readOnlyHint: true },
  requires: { perCall: ({ task_id }) => [{ entry: task_id, right: 'read', action: 'waiting on the task' }] },
  run: async ({ task_id, timeout_seconds }, call, ctx) => {
    const timeoutMs = Math.round((timeout_seconds ?? DEFAULT_TASK_WAIT_SECONDS) * 1000);
    const result = await ctx.core.waitForTask(task_id, timeoutMs, call.signal, (p) =>
      call.progress(p.elapsedMs, timeoutMs, `${p.phase}: ${p.message}`),
    );
    return {
      is_ended: result.isEnded,
      reason: result.reason,
      message: result.message,
      elapsed_ms: result.elapsedMs,
      ...(result.task ? { task: taskResult(result.task) } : {}),
    };
  },
});

export const taskTools = [startTask, getTask, cancelTask, waitForTask];
