/**
 * A worktree's own app (docs/runtime.md): the runtime plans the project's processes for the
 * worktree, and the ones `worktrees.start` names start there as entries. Each instance is derived
 * from the config the core last loaded, and runs only while that config's main-checkout entry is
 * trusted as it is: the port, the folder and SWITCHBOARD_WORKTREE are Switchboard's own derivation,
 * not a new definition to trust.
 */
import type { WorktreeRuntime, WorktreeRuntimePlan } from '../runtime';
import type { WorktreesSection } from '../../../shared/config';
import type { ProcessInfo } from '../../../shared/model';
import type { WorktreeInfo } from '../../../shared/worktree';
import type { WorktreeHost, WorktreeOrigin } from './worktreeHost';

export interface WorktreeInstancesOutcome {
  /** The entries started in the worktree. */
  started: ProcessInfo[];
  /** Names `worktrees.start` named that did not start, each with the reason. */
  notStarted: Array<{ name: string; reason: string }>;
}

export class WorktreeInstances {
  /** Plans of the worktrees made in this run: re-planning would move ports their own servers hold. */
  private readonly plans = new Map<string, WorktreeRuntimePlan>();

  constructor(
    private readonly core: WorktreeHost,
    private readonly runtime: WorktreeRuntime,
  ) {}

  /** Plans `worktree` (its folder `projectDir`: the project's place inside it) and starts what `worktrees.start` names. */
  async start(
    worktree: WorktreeInfo,
    projectDir: string,
    section: WorktreesSection,
    origin: WorktreeOrigin,
  ): Promise<WorktreeInstancesOutcome> {
    const processes = this.core.configuredProcesses();
    const plan = await this.runtime.plan({ ...worktree, path: projectDir }, processes, section);
    this.plans.set(worktree.id, plan);
    const notStarted = notStartedOf(plan, section, processes);
    const started: ProcessInfo[] = [];
    for (const name of plan.start) {
      if (this.core.trust.isHeld(`processes.${name}`)) {
        notStarted.push({ name, reason: `"processes.${name}" waits for trust in the main checkout` });
        continue;
      }
      started.push(await this.core.createAndStart(plan.instances.get(name)!.spec, origin));
    }
    return { started, notStarted };
  }

  /** What an agent in the worktree is told: SWITCHBOARD_WORKTREE and its servers' URLs (only the worktree when it was not planned in this run). */
  agentEnv(worktreeId: string): Record<string, string> {
    return this.plans.get(worktreeId)?.agentEnv ?? { SWITCHBOARD_WORKTREE: worktreeId };
  }

  /** The worktree is gone: its ports go back to the pool. */
  release(worktreeId: string): void {
    this.plans.delete(worktreeId);
    this.runtime.release(worktreeId);
  }
}

/** Named to start but left out by the plan: held (no way to pass a port) or broken references. */
function notStartedOf(
  plan: WorktreeRuntimePlan,
  section: WorktreesSection,
  processes: ReadonlyMap<string, unknown>,
): Array<{ name: string; reason: string }> {
  const named = section.start === 'all' ? [...processes.keys()] : (section.start ?? []);
  return named
    .filter((name) => processes.has(name) && !plan.start.includes(name))
    .map((name) => {
      const instance = plan.instances.get(name);
      const issue = plan.issues.find((i) => i.path === `processes.${name}` || i.path.startsWith(`processes.${name}.`));
      return { name, reason: instance?.held ?? (issue ? `${issue.path} ${issue.message}` : 'not planned') };
    });
}
