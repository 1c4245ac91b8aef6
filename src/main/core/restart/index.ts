/** Restart policies of command entries (`ready.autoRestart`): backoff, crash-loop guard, unhealthy runs. */
export { autoRestartDecorator, AUTO_RESTART } from './autoRestart';
