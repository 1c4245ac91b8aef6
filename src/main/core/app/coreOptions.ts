/** How a SwitchboardCore is built (the composition root fills it in). */
import type { Capability } from '../base';
import type { PtySpawner } from '../sessions';
import type { ProjectTrust } from '../trust';
import type { UiStateStore } from '../uistate';
import type { PortAllocator } from '../runtime';

/** `Core` is the core the capabilities attach to (SwitchboardCore). */
export interface CoreOptions<Core> {
  projectDir: string;
  killGraceMs?: number;
  ringBytes?: number;
  /**
   * What the core is built with (readiness, agent status, tasks, continuity, timers, MCP, …),
   * attached in this order at the end of the constructor; the composition root lists them. A core
   * built without one answers its commands with a clear error.
   */
  capabilities?: readonly Capability<Core>[];
  /** Watch switchboard.json for edits (default true). */
  watchConfig?: boolean;
  /** How long spawnAgent waits for the agent's prompt before giving up on its instructions. */
  instructionsReadyTimeoutMs?: number;
  /** Which config entries may run. Absent: everything is trusted (an embedder that asked elsewhere). */
  trust?: ProjectTrust;
  /** Where the project's view state is kept (default: in memory). */
  uiState?: UiStateStore;
  /** The environment the editor is chosen from (default: this process's). */
  editorEnv?: Record<string, string | undefined>;
  /** Where `${port}` ports come from (default: allocated in memory, not kept across restarts). */
  ports?: PortAllocator;
  /** Where the entries' PTYs run (default: the shared PTY thread). */
  ptys?: PtySpawner;
}
