/**
 * What the UI, MCP and the control API call: the project's worktrees (the manager) plus starting
 * an agent in a new one — create, copy, set-up, then the agent with its first instructions, which
 * it gets only if set-up completed.
 */
import { join, relative } from 'node:path';
import { serviceKey, type ServiceKey } from '../base';
import { loadConfig } from '../config';
import type { ProcessInfo, ProcessSpec } from '../../../shared/model';
import {
  MAIN_WORKTREE_ID,
  type AgentInWorktreeArgs,
  type CreateWorktreeArgs,
  type SetupOutcome,
  type StartInstanceArgs,
  type WorktreeInfo,
} from '../../../shared/worktree';
import type { WorktreeManager } from './worktreeManager';
import { WorktreeError } from './worktreeError';
import { InvalidArgumentError } from '../../../shared/errors';
import { runSetup } from './worktreeSetupRun';
import { worktreesTrustRequest } from './worktreeTrust';
import type { WorktreesSection } from '../../../shared/config';
import { WORKTREES_TRUST_KEY } from '../../../shared/trust';
import type { WorktreeHost, WorktreeOrigin } from './worktreeHost';
import type { WorktreeInstances, WorktreeInstancesOutcome } from './worktreeInstances';
import { CommitMessageRequests, type CommitMessageAnswer } from './commitMessageRequests';

type AgentInWorktreeRequest = AgentInWorktreeArgs;

interface AgentInWorktreeResult {
  worktree: WorktreeInfo;
  setup: SetupOutcome;
  agent: ProcessInfo;
  /** False when set-up failed: the agent runs, its instructions were kept from it (`setup.message` says why). */
  instructionsDelivered: boolean;
}

export class WorktreeService {
  private readonly commitMessages: CommitMessageRequests;

  constructor(
    private readonly core: WorktreeHost,
    readonly manager: WorktreeManager,
    private readonly instances: WorktreeInstances,
  ) {
    this.commitMessages = new CommitMessageRequests(core);
  }

  /** The review's "Ask the agent": the worktree's agent writes the commit message and hands it back (MCP `propose_commit_message`). */
  askCommitMessage(worktree: string): Promise<CommitMessageAnswer> {
    return this.commitMessages.ask(worktree);
  }

  /** An agent's answer to `askCommitMessage`, for the worktree it runs in. */
  proposeCommitMessage(callerId: string | undefined, message: string): { delivered: true } {
    const worktree = this.core.entries().find((e) => e.id === callerId)?.definition.worktree;
    return this.commitMessages.propose(callerId, worktree, message);
  }

  /**
   * A new worktree, set up as the project declares, then (set-up completed) its own instances of
   * the entries `worktrees.start` names; the outcomes come back with it.
   */
  async createWorktree(
    args: CreateWorktreeArgs,
    origin: WorktreeOrigin = {},
  ): Promise<{ worktree: WorktreeInfo; setup: SetupOutcome; instances?: WorktreeInstancesOutcome }> {
    const section = loadConfig(this.core.projectDir).worktrees;
    // Asked before anything is made: untrusted, the worktree lands in Switchboard's own folder with nothing copied.
    const request = worktreesTrustRequest(section, this.core.projectDir);
    const isTrusted = request === undefined || this.core.trust.admit(request);
    const worktree = await this.manager.create({ ...args, createdBy: origin.spawnedBy ?? null });
    if (!isTrusted) return { worktree, setup: { ok: false, entries: [], message: untrustedSettingsMessage(section) } };
    const setup = await runSetup(this.core, worktree, section.setup ?? [], origin);
    if (!setup.ok) return { worktree, setup };
    const instances = await this.instances.start(worktree, this.projectDirIn(worktree.id), section, origin);
    return { worktree, setup, instances };
  }

  /** The environment of an agent started in `worktreeId`: the worktree and its servers' URLs (nothing for the main checkout). */
  async agentEnvIn(worktreeId: string | undefined): Promise<Record<string, string>> {
    if (worktreeId === undefined || worktreeId === MAIN_WORKTREE_ID) return {};
    const worktree = this.manager.get(worktreeId);
    if (!worktree) throw unknownWorktree(worktreeId);
    return this.instances.agentEnv(worktree, this.projectDirIn(worktreeId));
  }

  /**
   * Starts the config entry `name` in a worktree on demand (MCP `start_process`, a click in the
   * UI): its existing instance there, or a new one on its own port, after the same worktree's
   * instances it depends on. In the main checkout it is the config's own entry.
   */
  async startInstance({ worktree, name }: StartInstanceArgs, origin: WorktreeOrigin = {}): Promise<ProcessInfo> {
    if (worktree === MAIN_WORKTREE_ID) {
      const entry = this.core.entries().find((e) => e.kind === 'command' && e.definition.configName === name && !e.definition.worktree);
      if (!entry) throw new InvalidArgumentError(`No process "${name}" from switchboard.json in the main checkout (see list_processes).`);
      return this.core.startProcess(entry.id);
    }
    const info = this.manager.get(worktree);
    if (!info) throw unknownWorktree(worktree);
    return this.instances.startOnDemand(info, this.projectDirIn(worktree), name, origin);
  }

  /** Before an entry starts: the new definitions its worktree's stopped instances need when something else took its port meanwhile. */
  async replanIfPortTaken(entryId: string): Promise<Map<string, ProcessSpec>> {
    const entry = this.core.entry(entryId);
    const worktree = entry.definition.worktree === undefined ? undefined : this.manager.get(entry.definition.worktree);
    return worktree ? this.instances.replanIfPortTaken(entry, worktree, this.projectDirIn(worktree.id)) : new Map();
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
    if (worktreeId === undefined || worktreeId === MAIN_WORKTREE_ID) return this.core.projectDir;
    const worktree = this.manager.get(worktreeId);
    if (!worktree) throw unknownWorktree(worktreeId);
    return join(worktree.path, relative(main.path, this.core.projectDir));
  }
}

function untrustedSettingsMessage(section: WorktreesSection): string {
  const parts = [
    section.dir === undefined ? '' : `dir ${section.dir}`,
    section.copy?.length ? `copy ${section.copy.join(', ')}` : '',
    section.setup?.length ? `setup ${section.setup.join('; ')}` : '',
  ].filter(Boolean);
  return `The project's worktree settings (${parts.join('; ')}) are not trusted yet: this worktree was made in Switchboard's own folder, nothing was copied and no set-up ran. A person trusts "${WORKTREES_TRUST_KEY}" in Switchboard (or trust_project), then they apply to the next worktree.`;
}

function unknownWorktree(id: string): WorktreeError {
  return new WorktreeError('unknown_worktree', `Unknown worktree "${id}". Call list_worktrees to see the ids.`);
}

/** The worktrees capability provides the service under this key; the façade's `worktrees` reads it. */
export const WORKTREES: ServiceKey<WorktreeService> = serviceKey('Worktrees');
