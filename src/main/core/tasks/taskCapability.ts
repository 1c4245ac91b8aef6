/** Tasks join the core as a capability: the task decoration on task entries and the service the task commands call. */
import { DisposableStore, type Capability, type Disposable, type ServiceKey } from '../base';
import type { DecorationKey, EntryDecorator } from '../sessions';
import { TASK, taskDecorator, type TaskDecoration } from './taskDecoration';
import { TASKS, TaskService, type TaskHost } from './taskService';

interface TaskCapabilityHost extends TaskHost {
  addEntryDecorator(key: DecorationKey<TaskDecoration>, decorator: EntryDecorator<TaskDecoration>): Disposable;
  readonly services: { provide(key: ServiceKey<TaskService>, service: TaskService): Disposable };
}

export const taskCapability: Capability<TaskCapabilityHost> = {
  name: 'tasks',
  attach(core) {
    const store = new DisposableStore();
    store.add(core.addEntryDecorator(TASK, taskDecorator));
    store.add(core.services.provide(TASKS, new TaskService(core)));
    return store;
  },
};
