/** Headless agent tasks with a stall watchdog: the capability's public surface. */
export { TaskService } from './taskService';
export { taskCapability } from './taskCapability';
