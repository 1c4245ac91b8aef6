/** What worktrees need of the core: its folder, its entries, spawning, trust, attention, its config and ports. */
import type { Event } from '../base';
import type { PortAllocator } from '../runtime';
import type { ProcessEntry } from '../sessions';
import type { ProjectTrust } from '../trust';
import type { CommandArgsOf } from '../../../shared/api';
import type { ProcessConfig } from '../../../shared/config';
import type { ProcessInfo, ProcessSpec } from '../../../shared/model';

/** Who asked: an entry's MCP token (it then owns what is made), or a person. */
export interface WorktreeOrigin {
  spawnedBy?: string;
}

export interface WorktreeHost {
  readonly projectDir: string;
  readonly trust: Pick<ProjectTrust, 'admit' | 'isHeld' | 'isTrustedEntry' | 'isFolderTrusted' | 'onDidChange'>;
  /** Where per-worktree ports come from (the same allocator as the main checkout's `${port}`). */
  readonly ports: PortAllocator;
  readonly onDidAddEntry: Event<ProcessEntry>;
  entries(): ProcessEntry[];
  entry(id: string): ProcessEntry;
  /** switchboard.json's processes as the core last loaded them, i.e. as trust was asked about them. */
  configuredProcesses(): ReadonlyMap<string, ProcessConfig>;
  spawnProcess(args: CommandArgsOf<'spawnProcess'>, origin?: WorktreeOrigin): Promise<ProcessInfo>;
  spawnAgent(args: CommandArgsOf<'spawnAgent'>, origin?: WorktreeOrigin): Promise<ProcessInfo>;
  createAndStart(spec: ProcessSpec, origin?: WorktreeOrigin): Promise<ProcessInfo>;
  /**
   * An entry, not started yet (a worktree's instances are made first, then started through the
   * start order); one `spawnedBy` made is its spawner's, in its spawner's sandbox.
   */
  createEntry(spec: ProcessSpec, spawnedBy?: string): ProcessEntry;
  /** Starts an entry through the start order (its dependencies first); refused while it waits for trust. */
  startProcess(id: string): Promise<ProcessInfo>;
  requestAttention(id: string, reason: string, requestedBy: string): ProcessInfo;
  /** Types a user turn into an entry (an agent's waits included), as MCP's `send_message` does. */
  sendUserTurn(id: string, text: string): Promise<void>;
}
