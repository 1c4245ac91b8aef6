/**
 * Task entries (kind `task`) get a TaskSupervisor as their decoration: it contributes the `task`
 * field of ProcessInfo (phase, tools, text, decisions, result) and its one-line message.
 */
import { Emitter } from '../base';
import type { ProcessEntry } from '../sessions';
import type { ProcessInfo } from '../../../shared/model';
import type { EntryDecoration, EntryDecorator } from '../sessions';
import { TaskSupervisor, type TaskSupervisorOptions } from './taskSupervisor';

export class TaskDecoration implements EntryDecoration {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  readonly supervisor: TaskSupervisor;

  constructor(entry: ProcessEntry, options: TaskSupervisorOptions) {
    this.supervisor = new TaskSupervisor(entry, undefined, options);
    this.supervisor.onDidChange(() => this.changed.fire());
  }

  describe(): Partial<ProcessInfo> {
    const task = this.supervisor.info;
    return { task, message: task.message };
  }

  dispose(): void {
    this.supervisor.dispose();
    this.changed.dispose();
  }
}

/** A decorator with injected options (tests: a virtual clock, a fake second opinion). */
export function createTaskDecorator(options: TaskSupervisorOptions = {}): EntryDecorator {
  return (entry) => (entry.kind === 'task' ? new TaskDecoration(entry, options) : undefined);
}

export const taskDecorator: EntryDecorator = createTaskDecorator();
