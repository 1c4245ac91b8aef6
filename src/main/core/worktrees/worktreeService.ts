/**
 * What the UI, MCP and the control API call: the project's worktrees (the manager) plus starting
 * an agent in a new one — create, copy, set-up, then the agent with its first instructions, which
 * it gets only if set-up completed.
 */
import { join, relative } from 'node:path';
import { serviceKey, type ServiceKey } from '../base';
import { loadConfig } from '../config';
import type { ProcessInfo } from '../../../shared/model';
import type { AgentInWorktreeArgs, CreateWorktreeArgs, SetupOutcome, WorktreeInfo } from '../../../shared/worktree';
import type { WorktreeManager } from './worktreeManager';
import { WorktreeError } from './worktreeError';
import { runSetup } from './worktreeSetupRun';
import type { WorktreeHost, WorktreeOrigin } from './worktreeHost';

type AgentInWorktreeRequest = AgentInWorktreeArgs;

interface AgentInWorktreeResult {
  worktree: WorktreeInfo;
  setup: SetupOutcome;
  agent: ProcessInfo;
  /** False when set-up failed: the agent runs, its instructions were kept from it (`setup.message` says why). */
  instructionsDelivered: boolean;
}

export class WorktreeService {
  constructor(
    private readonly core: WorktreeHost,
    readonly manager: WorktreeManager,
  ) {}

  /** A new worktree, set up as the project declares; the set-up's outcome comes back with it. */
  async createWorktree(args: CreateWorktreeArgs, origin: WorktreeOrigin = {}): Promise<{ worktree: WorktreeInfo; setup: SetupOutcome }> {
    const worktree = await this.manager.create({ ...args, createdBy: origin.spawnedBy ?? null });
    const setup = await runSetup(this.core, worktree, loadConfig(this.core.projectDir).worktrees.setup ?? [], origin);
    return { worktree, setup };
  }

  async startAgentInWorktree(request: AgentInWorktreeRequest, origin: WorktreeOrigin = {}): Promise<AgentInWorktreeResult> {
    const { worktree, setup } = await this.createWorktree({ name: request.name, base: request.base, branch: request.branch }, origin);
    const instructionsDelivered = setup.ok && request.instructions !== undefined;
    const agent = await this.core.spawnAgent(
      {
        preset: request.preset,
        name: request.agentName,
        argv: request.argv,
        worktree: worktree.id,
        ...(setup.ok ? { instructions: request.instructions } : {}),
      },
      origin,
    );
    if (!setup.ok && request.instructions) this.core.requestAttention(agent.id, setup.message ?? 'Worktree set-up failed', 'switchboard');
    return { worktree, setup, agent, instructionsDelivered };
  }

  /** The folder an entry of `worktree` runs in: the project's place inside that checkout (the main checkout when absent). */
  projectDirIn(worktreeId: string | undefined): string {
    const main = this.manager.get('main')!;
    if (worktreeId === undefined || worktreeId === 'main') return this.core.projectDir;
    const worktree = this.manager.get(worktreeId);
    if (!worktree) throw new WorktreeError('unknown_worktree', `Unknown worktree "${worktreeId}". Call list_worktrees to see the ids.`);
    return join(worktree.path, relative(main.path, this.core.projectDir));
  }
}

/** The worktrees capability provides the service under this key; the façade's `worktrees` reads it. */
export const WORKTREES: ServiceKey<WorktreeService> = serviceKey('Worktrees');
