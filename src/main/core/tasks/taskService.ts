/**
 * Starting, inspecting, cancelling and awaiting tasks: what SwitchboardCore's task methods, the
 * MCP task tools and the UI's task commands all call. A task is a process entry of kind `task`
 * (so it sits in the same table and grid, and its tree is killed by the same code); its id is the
 * entry's id.
 */
import { resolve } from 'node:path';
import { serviceKey, type Event, type ServiceKey } from '../base';
import type { DecorationKey, EntryDecoration, ProcessEntry } from '../sessions';
import type { ProcessInfo, ProcessSpec } from '../../../shared/model';
import { InvalidArgumentError, SwitchboardError, formatZodIssues } from '../../../shared/errors';
import {
  DEFAULT_TASK_TIMEOUTS,
  TaskRequestSchema,
  type TaskProgress,
  type TaskRequest,
  type TaskTimeouts,
  type TaskView,
  type TaskWaitResult,
} from '../../../shared/task';
import { TASK } from './taskDecoration';
import { runnerFor } from './runners';
import type { TaskConfig, TaskSupervisor } from './taskSupervisor';
import { waitForTaskEnd } from './taskWait';

/** Longest default entry name taken from the prompt. */
const NAME_CHARS = 40;

/** What the service needs of the core (SwitchboardCore is one). */
export interface TaskHost {
  readonly projectDir: string;
  /** One `spawnedBy` made is its spawner's (its token may read and cancel it), in its spawner's sandbox. */
  createEntry(spec: ProcessSpec, spawnedBy?: string): ProcessEntry;
  entry(id: string): ProcessEntry;
  findEntry(id: string): ProcessEntry | undefined;
  readonly onDidRemoveEntry: Event<string>;
  decorationOf<D extends EntryDecoration>(id: string, key: DecorationKey<D>): D | undefined;
  describe(id: string): ProcessInfo;
}

class NotATaskError extends SwitchboardError {
  constructor(id: string, kind: string) {
    super('wrong_kind', `Process ${id} is a ${kind} entry, not a task. list_processes with kind "task" shows the tasks.`);
  }
}

/** The task service of a core built with tasks: the task commands forward to it. */
export const TASKS: ServiceKey<TaskService> = serviceKey('Tasks');

export class TaskService {
  constructor(private readonly host: TaskHost) {}

  /**
   * Creates the task's entry and starts its run. A spawn failure is an outcome, not an exception:
   * the task comes back `failed` with the reason (and its entry stays, in error, to inspect).
   */
  async start(request: TaskRequest, spawnedBy?: string): Promise<TaskView> {
    const parsed = TaskRequestSchema.safeParse(request);
    if (!parsed.success) {
      throw new InvalidArgumentError(`Invalid task: ${formatZodIssues(parsed.error.issues, '(request)')}`);
    }
    const r = parsed.data;
    const config: TaskConfig = {
      agent: r.agent ?? 'claude',
      prompt: r.prompt,
      cwd: resolve(this.host.projectDir, r.cwd ?? '.'),
      maxTurns: r.maxTurns,
      maxBudgetUsd: r.maxBudgetUsd,
      allowedTools: r.allowedTools,
      permissionMode: r.permissionMode,
      model: r.model,
      resumeSessionId: r.resumeSessionId,
      command: r.argv,
      timeouts: timeoutsOf(r.timeouts),
      secondOpinion: r.secondOpinion,
      env: r.env ?? {},
    };
    const runner = runnerFor(config.agent);
    const spec: ProcessSpec = {
      name: r.name ?? defaultName(r.prompt),
      kind: 'task',
      argv: runner.argv(config),
      stdin: runner.stdin(config),
      cwd: config.cwd,
      env: { ...runner.env(config), ...config.env },
    };
    const entry = this.host.createEntry(spec, spawnedBy);
    this.supervisorOf(entry.id).configure(config);
    try {
      await entry.start();
    } catch (err) {
      this.supervisorOf(entry.id).failToStart(err instanceof Error ? err.message : String(err));
    }
    return this.get(entry.id);
  }

  get(id: string): TaskView {
    const info = this.host.describe(id);
    const task = this.supervisorOf(id).info;
    return { ...task, taskId: id, name: info.name, state: info.state, ...(info.pid !== undefined ? { pid: info.pid } : {}) };
  }

  /** Cancels the task and resolves once its whole process tree is gone. */
  async cancel(id: string, reason?: string): Promise<TaskView> {
    await this.supervisorOf(id).cancel(reason);
    return this.get(id);
  }

  /** Resolves when the task has ended (terminal phase, tree gone), on timeout, abort or close. */
  wait(id: string, timeoutMs: number, abort?: AbortSignal, onProgress?: (progress: TaskProgress) => void): Promise<TaskWaitResult> {
    const supervisor = this.supervisorOf(id);
    return waitForTaskEnd({
      supervisor,
      view: () => (this.host.findEntry(id) ? this.get(id) : undefined),
      onClosed: (listener) => this.host.onDidRemoveEntry((removed) => removed === id && listener()),
      timeoutMs,
      abort,
      onProgress,
    });
  }

  supervisorOf(id: string): TaskSupervisor {
    const entry = this.host.entry(id);
    const decoration = this.host.decorationOf(id, TASK);
    if (!decoration) throw new NotATaskError(id, entry.kind);
    return decoration.supervisor;
  }
}

function timeoutsOf(seconds: { idleSeconds?: number; turnSeconds?: number; wallClockSeconds?: number } | undefined): TaskTimeouts {
  return {
    idleMs: seconds?.idleSeconds !== undefined ? Math.round(seconds.idleSeconds * 1000) : DEFAULT_TASK_TIMEOUTS.idleMs,
    turnMs: seconds?.turnSeconds !== undefined ? Math.round(seconds.turnSeconds * 1000) : DEFAULT_TASK_TIMEOUTS.turnMs,
    wallClockMs: seconds?.wallClockSeconds !== undefined ? Math.round(seconds.wallClockSeconds * 1000) : DEFAULT_TASK_TIMEOUTS.wallClockMs,
  };
}

function defaultName(prompt: string): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  return `task: ${line.length > NAME_CHARS ? `${line.slice(0, NAME_CHARS - 1)}…` : line}`;
}
