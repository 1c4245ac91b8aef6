/** What worktrees need of the core: its folder, its entries, spawning, trust and attention. */
import type { Event } from '../base';
import type { ProcessEntry } from '../sessions';
import type { ProjectTrust } from '../trust';
import type { CommandArgsOf } from '../../../shared/api';
import type { ProcessInfo } from '../../../shared/model';

/** Who asked: an entry's MCP token (it then owns what is made), or a person. */
export interface WorktreeOrigin {
  spawnedBy?: string;
}

export interface WorktreeHost {
  readonly projectDir: string;
  readonly trust: Pick<ProjectTrust, 'admit'>;
  readonly onDidAddEntry: Event<ProcessEntry>;
  entries(): ProcessEntry[];
  entry(id: string): ProcessEntry;
  spawnProcess(args: CommandArgsOf<'spawnProcess'>, origin?: WorktreeOrigin): Promise<ProcessInfo>;
  spawnAgent(args: CommandArgsOf<'spawnAgent'>, origin?: WorktreeOrigin): Promise<ProcessInfo>;
  requestAttention(id: string, reason: string, requestedBy: string): ProcessInfo;
}
