/**
 * Task entries (kind `task`) get a TaskSupervisor as their decoration: it contributes the `task`
 * field of ProcessInfo (phase, tools, text, decisions, result) and its one-line message.
 */
import { Emitter, serviceKey } from '../base';
import type { DecorationKey, EntryDecoration, EntryDecorator, ProcessEntry } from '../sessions';
import type { ProcessInfo } from '../../../shared/model';
import { TaskSupervisor } from './taskSupervisor';

export class TaskDecoration implements EntryDecoration {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  readonly supervisor: TaskSupervisor;

  constructor(entry: ProcessEntry) {
    this.supervisor = new TaskSupervisor(entry, undefined);
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

export const TASK: DecorationKey<TaskDecoration> = serviceKey('task');

export const taskDecorator: EntryDecorator<TaskDecoration> = (entry) => (entry.kind === 'task' ? new TaskDecoration(entry) : undefined);
