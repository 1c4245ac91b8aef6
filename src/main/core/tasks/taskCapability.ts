/** Tasks join the core as a capability: the task decoration on task entries and the service the task commands call. */
import { DisposableStore } from '../base';
import type { Capability } from '../app';
import { taskDecorator } from './taskDecoration';
import { TaskService } from './taskService';

export const taskCapability: Capability = {
  name: 'tasks',
  attach(core) {
    const store = new DisposableStore();
    store.add(core.addEntryDecorator(taskDecorator));
    store.add(core.provideTasks(new TaskService(core)));
    return store;
  },
};
