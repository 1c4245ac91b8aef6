/**
 * The one call the worktree service makes when it creates (or reopens) a worktree: the worktree's instances of
 * the project's processes, which of them start with it (`worktrees.start`), and the environment
 * its agent gets. A removed worktree's ports go back to the pool.
 */
import type { ConfigIssue, ProcessConfig, WorktreesSection } from '../../../shared/config';
import { agentEnvFor } from './agentEnv';
import { planInstances, type InstancePlan, type RuntimeWorktree } from './instancePlan';
import type { PortAllocator } from './portAllocator';

export interface WorktreeRuntimePlan extends InstancePlan {
  /** Names that start with the worktree (never a held one). */
  start: string[];
  /** For an agent started in the worktree. */
  agentEnv: Record<string, string>;
}

export class WorktreeRuntime {
  constructor(
    private readonly projectDir: string,
    private readonly ports: PortAllocator,
  ) {}

  async plan(
    worktree: RuntimeWorktree,
    processes: ReadonlyMap<string, ProcessConfig>,
    section: WorktreesSection = {},
    running?: ReadonlyMap<string, number>,
  ): Promise<WorktreeRuntimePlan> {
    const plan = await planInstances({ worktree, processes, projectDir: this.projectDir, ports: this.ports, running });
    const { names, issues } = startNames(section, processes);
    const start = names.filter((name) => plan.instances.has(name) && !plan.instances.get(name)!.held);
    return { ...plan, issues: [...plan.issues, ...issues], start, agentEnv: agentEnvFor(worktree, plan) };
  }

  release(worktreeId: string): void {
    this.ports.release(worktreeId);
  }
}

/** `worktrees.start`: "all", a list of names (each must exist), or absent for none. */
function startNames(section: WorktreesSection, processes: ReadonlyMap<string, ProcessConfig>): { names: string[]; issues: ConfigIssue[] } {
  if (section.start === undefined) return { names: [], issues: [] };
  if (section.start === 'all') return { names: [...processes.keys()], issues: [] };
  const issues = section.start
    .map((name, i): ConfigIssue | undefined =>
      processes.has(name) ? undefined : { path: `worktrees.start.${i}`, message: `names "${name}", which is not in "processes"` },
    )
    .filter((issue): issue is ConfigIssue => issue !== undefined);
  return { names: section.start.filter((name) => processes.has(name)), issues };
}
