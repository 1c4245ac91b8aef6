/**
 * A worktree's own app (docs/runtime.md): the runtime plans the project's processes for the
 * worktree, the ones `worktrees.start` names start there as entries, and any other starts there on
 * demand (`start_process`, a click, or as what a started one `dependsOn`). Each instance is derived
 * from the config the core last loaded, and runs only while that config's main-checkout entry is
 * trusted as it is: the port, the folder and SWITCHBOARD_WORKTREE are Switchboard's own derivation,
 * not a new definition to trust.
 */
import { WORKTREE_ENV, isPortFree as isPortFreeOnHost, type WorktreeRuntime, type WorktreeRuntimePlan } from '../runtime';
import type { WorktreesSection } from '../../../shared/config';
import type { ProcessInfo, ProcessSpec } from '../../../shared/model';
import type { WorktreeInfo } from '../../../shared/worktree';
import { InvalidArgumentError } from '../../../shared/errors';
import type { WorktreeHost, WorktreeOrigin } from './worktreeHost';
import type { ProcessEntry } from '../sessions';
import { configKeyOf } from '../../../shared/configKey';

export interface WorktreeInstancesOutcome {
  /** The entries started in the worktree. */
  started: ProcessInfo[];
  /** Names `worktrees.start` named that did not start, each with the reason. */
  notStarted: Array<{ name: string; reason: string }>;
}

export class WorktreeInstances {
  /** Plans of the worktrees planned in this run: re-planning would move ports their own servers hold. */
  private readonly plans = new Map<string, Promise<WorktreeRuntimePlan>>();

  constructor(
    private readonly core: WorktreeHost,
    private readonly runtime: WorktreeRuntime,
    private readonly isPortFree: (port: number) => Promise<boolean> = isPortFreeOnHost,
  ) {}

  /** Plans `worktree` (its folder `projectDir`: the project's place inside it) and starts what `worktrees.start` names. */
  async start(
    worktree: WorktreeInfo,
    projectDir: string,
    section: WorktreesSection,
    origin: WorktreeOrigin,
  ): Promise<WorktreeInstancesOutcome> {
    const processes = this.core.configuredProcesses();
    const plan = await this.planOf(worktree, projectDir, section);
    const notStarted = notStartedOf(plan, section, processes);
    const started: ProcessInfo[] = [];
    for (const name of plan.start) {
      const held = this.heldReason(name);
      if (held) notStarted.push({ name, reason: held });
      else started.push(await this.startInstance(worktree.id, plan, name, origin));
    }
    return { started, notStarted };
  }

  /**
   * The worktree's instance of the config entry `name`, started: the existing entry, or a new one
   * with its planned port. What it `dependsOn` is the same worktree's instances, made as needed and
   * started first by the start order.
   */
  async startOnDemand(worktree: WorktreeInfo, projectDir: string, name: string, origin: WorktreeOrigin): Promise<ProcessInfo> {
    const processes = this.core.configuredProcesses();
    if (!processes.has(name))
      throw new InvalidArgumentError(`No process "${name}" in switchboard.json; it defines ${[...processes.keys()].join(', ') || 'none'}`);
    const held = this.heldReason(name);
    if (held) throw new InvalidArgumentError(`"${name}" cannot start in ${worktree.id}: ${held}`);
    const plan = await this.planOf(worktree, projectDir);
    return this.startInstance(worktree.id, plan, name, origin);
  }

  /**
   * What an agent in the worktree is told: SWITCHBOARD_WORKTREE and its servers' URLs. A worktree
   * not planned in this run (the app restarted) is planned now, which keeps its stored and running
   * ports, so the agent hears the same URLs as before the restart.
   */
  async agentEnv(worktree: WorktreeInfo, projectDir: string): Promise<Record<string, string>> {
    // A plan that cannot be made (no free port left) must not keep the agent from starting.
    return this.planOf(worktree, projectDir).then(
      (plan) => plan.agentEnv,
      () => ({ [WORKTREE_ENV]: worktree.id }),
    );
  }

  /**
   * Before a stopped instance starts again (a click, `start_process`, idle stop's on-demand start):
   * if something else took its port meanwhile, the worktree is planned again, which keeps the
   * ports of running instances and moves a taken one to a free port. Returns the new definitions
   * of the worktree's stopped instances (empty when the port is still free); running ones keep
   * their values until they restart.
   */
  async replanIfPortTaken(entry: ProcessEntry, worktree: WorktreeInfo, projectDir: string): Promise<Map<string, ProcessSpec>> {
    const redefined = new Map<string, ProcessSpec>();
    const port = entry.definition.ready?.port;
    if (entry.definition.worktree !== worktree.id || entry.isRunning || port === undefined || (await this.isPortFree(port)))
      return redefined;
    this.plans.delete(worktree.id);
    const plan = await this.planOf(worktree, projectDir);
    for (const other of this.core.entries()) {
      const name = other.definition.worktree === worktree.id ? other.definition.configName : undefined;
      const instance = name === undefined ? undefined : plan.instances.get(name);
      if (!instance || instance.held || other.isRunning) continue;
      const { cols, rows } = other.info();
      redefined.set(other.id, { ...structuredClone(instance.spec), cols, rows });
    }
    return redefined;
  }

  /** The worktree is gone: its ports go back to the pool. */
  release(worktreeId: string): void {
    this.plans.delete(worktreeId);
    this.runtime.release(worktreeId);
  }

  /** The worktree's plan: the one made in this run, else a new one (kept, so its ports stay put). */
  private planOf(worktree: WorktreeInfo, projectDir: string, section: WorktreesSection = {}): Promise<WorktreeRuntimePlan> {
    const existing = this.plans.get(worktree.id);
    if (existing) return existing;
    const plan = this.runtime.plan(
      { ...worktree, path: projectDir },
      this.core.configuredProcesses(),
      section,
      this.runningPorts(worktree.id),
    );
    this.plans.set(worktree.id, plan);
    plan.catch(() => this.plans.delete(worktree.id));
    return plan;
  }

  /** The ports its instances listen on now (restored after an app restart): planning keeps them. */
  private runningPorts(worktreeId: string): Map<string, number> {
    const ports = new Map<string, number>();
    for (const { definition, isRunning } of this.core.entries())
      if (isRunning && definition.worktree === worktreeId && definition.configName && definition.ready?.port !== undefined)
        ports.set(definition.configName, definition.ready.port);
    return ports;
  }

  private heldReason(name: string): string | undefined {
    const key = configKeyOf('command', name);
    return this.core.trust.isHeld(key) ? `"${key}" waits for trust in the main checkout` : undefined;
  }

  /** Makes the instance and the instances it depends on (transitively) where missing, then starts it through the start order. */
  private async startInstance(worktreeId: string, plan: WorktreeRuntimePlan, name: string, origin: WorktreeOrigin): Promise<ProcessInfo> {
    const id = this.ensureEntry(worktreeId, plan, name, origin, new Set());
    return this.core.startProcess(id);
  }

  private ensureEntry(worktreeId: string, plan: WorktreeRuntimePlan, name: string, origin: WorktreeOrigin, seen: Set<string>): string {
    seen.add(name);
    const instance = plan.instances.get(name);
    if (!instance) {
      throw new InvalidArgumentError(`"${name}" cannot run in ${worktreeId}: ${issueOf(plan, name)}`);
    }
    if (instance.held) throw new InvalidArgumentError(`"${name}" cannot run in ${worktreeId}: ${instance.held}`);
    for (const dependency of Object.keys(instance.spec.dependsOn ?? {}))
      if (!seen.has(dependency)) this.ensureEntry(worktreeId, plan, dependency, origin, seen);
    const existing = this.core.entries().find((e) => e.definition.worktree === worktreeId && e.definition.configName === name);
    if (existing) return existing.id;
    return this.core.createEntry(structuredClone(instance.spec), origin.spawnedBy).id;
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
      return { name, reason: plan.instances.get(name)?.held ?? issueOf(plan, name) };
    });
}

/** Why the plan left `name` out: its first config issue. */
function issueOf(plan: WorktreeRuntimePlan, name: string): string {
  const issue = plan.issues.find((i) => i.path === `processes.${name}` || i.path.startsWith(`processes.${name}.`));
  return issue ? `${issue.path} ${issue.message}` : 'not planned';
}
