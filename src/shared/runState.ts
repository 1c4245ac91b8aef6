/**
 * Lifecycle of an entry's process. Terminals and agents go `starting → running` at spawn. Command
 * entries are refined by the readiness detector: `starting → ready ⇄ unhealthy` for servers,
 * `starting → running` for commands that declare no readiness, `completed` for a one-shot job that
 * exited 0, and `waiting` while the entries it depends on have not reached their condition.
 */
export type RunState = 'stopped' | 'waiting' | 'starting' | 'ready' | 'running' | 'unhealthy' | 'completed' | 'error';
