/** Headless agent tasks with a stall watchdog: the capability's public surface. */
export { TaskService, TASKS } from './taskService';
export { taskCapability } from './taskCapability';
