/**
 * Creating and starting entries: spawn requests (commands, terminals, agents), first launches
 * (restored or auto-started), and every start through the start order and the project's trust.
 */
import { relative, resolve } from 'node:path';
import { processSpecFromConfig } from '../config';
import type { ProcessEntry, SessionManager } from '../sessions';
import type { EntryAccess, ProjectTrust } from '../trust';
import { AGENT_SESSION, agentSpec } from '../agents';
import type { AgentTurns } from '../inbox';
import type { WorktreeService } from '../worktrees';
import { cwdInWorktree } from '../runtime';
import type { CommandArgsOf } from '../../../shared/api';
import type { ProcessKind, ProcessSpec } from '../../../shared/model';
import type { ProcessConfig } from '../../../shared/config';
import type { AgentConfig } from '../../../shared/agentConfig';
import { configKeyOf } from '../../../shared/configKey';
import { sandboxOptionsOf, type SandboxConfig } from '../../../shared/sandbox';
import { InvalidArgumentError, NotTrustedError, SwitchboardError } from '../../../shared/errors';
import type { EntryRestorer } from './coreServices';
import type { EntryRegistry } from './entryRegistry';
import { StartOrder } from './startOrder';
import { configKey } from './configKey';

/** Who asked for a new entry: an entry's MCP token (it then owns the new entry), or a person. */
export interface SpawnOrigin {
  spawnedBy?: string;
}

interface EntryLauncherOptions {
  projectDir: string;
  sessions: SessionManager;
  registry: EntryRegistry;
  trust: ProjectTrust;
  access: EntryAccess;
  turns: AgentTurns;
  restorer(): EntryRestorer | undefined;
  /** The project's folder in a worktree (where a new entry's cwd starts) and what an agent there is told (docs/runtime.md). */
  worktrees(): Pick<WorktreeService, 'projectDirIn' | 'agentEnvIn' | 'replanIfPortTaken'>;
  /** switchboard.json's processes as the core last loaded them. */
  configuredProcesses(): ReadonlyMap<string, ProcessConfig>;
  /** switchboard.json's agents as the core last loaded them. */
  configuredAgents(): ReadonlyMap<string, AgentConfig>;
}

/** Another instance of a switchboard.json process: what may differ from the configured one. */
export type SpawnFromConfigArgs = Omit<CommandArgsOf<'spawnProcess'>, 'argv' | 'shell'>;

export class EntryLauncher {
  private readonly startOrder: StartOrder;

  constructor(private readonly options: EntryLauncherOptions) {
    const { sessions, registry } = options;
    this.startOrder = new StartOrder({
      // `web` in feature-a depends on feature-a's `api`, never the main checkout's.
      idOf: (configName, dependentId) => {
        const worktree = sessions.get(dependentId).definition.worktree;
        return sessions
          .list()
          .find((e) => e.kind === 'command' && e.definition.configName === configName && e.definition.worktree === worktree)?.id;
      },
      describe: (id) => registry.describe(id),
      dependsOnOf: (id) => sessions.get(id).definition.dependsOn,
      startOwn: (id) => this.startOwn(id),
      onDidChangeEntry: registry.onDidChangeEntry,
      setGate: (id, gate) => registry.setGate(id, gate),
    });
  }

  /** Create and start a command or terminal entry. A spawn failure keeps the entry (in error) and throws. */
  async spawnProcess(args: CommandArgsOf<'spawnProcess'>, origin: SpawnOrigin): Promise<ProcessEntry> {
    if (args.argv && args.shell) throw new InvalidArgumentError('Give either argv or shell, not both');
    if (args.kind === 'command' && !args.argv && !args.shell) throw new InvalidArgumentError('A command needs argv or shell');
    const argv = args.shell ? ['/bin/sh', '-c', args.shell] : (args.argv ?? [defaultShell()]);
    const spec: ProcessSpec = {
      name: args.name ?? defaultName(args.kind, args.shell ?? argv.join(' '), this.options.sessions.list().length + 1),
      kind: args.kind,
      argv,
      cwd: resolve(this.projectDirIn(args.worktree), args.cwd ?? '.'),
      env: args.env,
      cols: args.cols,
      rows: args.rows,
      ready: args.ready,
      ...(args.worktree ? { worktree: args.worktree } : {}),
      ...sandboxField(args.sandbox),
    };
    return this.createAndStart(spec, origin);
  }

  /**
   * Create and start another instance of a switchboard.json process (`name` or `processes.name`),
   * from the config as loaded. It is not tied to the config (edits do not touch it) and gets
   * neither the config's name nor its MCP scopes: those were trusted for that entry only.
   */
  async spawnFromConfig(preset: string, args: SpawnFromConfigArgs, origin: SpawnOrigin): Promise<ProcessEntry> {
    const { projectDir } = this.options;
    const name = preset.replace(/^processes\./, '');
    const processConfig = this.options.configuredProcesses().get(name);
    if (!processConfig) {
      const known = [...this.options.configuredProcesses().keys()];
      throw new InvalidArgumentError(
        `No process "${name}" in switchboard.json${known.length ? `; it defines ${known.join(', ')}` : ' (it defines none)'}`,
      );
    }
    const { configName: _configName, mcp: _mcp, ...spec } = processSpecFromConfig(name, processConfig, projectDir);
    // The preset's folder, or the one asked for, at the same place inside the chosen worktree.
    const cwd = resolve(this.projectDirIn(args.worktree), args.cwd ?? relative(projectDir, spec.cwd));
    const kind = args.kind === 'terminal' ? 'terminal' : spec.kind;
    const ready = args.ready ? { ...spec.ready, ...args.ready } : spec.ready;
    const overrides = {
      kind,
      name: args.name ?? spec.name,
      cwd,
      env: { ...spec.env, ...args.env },
      cols: args.cols,
      rows: args.rows,
      ready,
    };
    return this.createAndStart({ ...spec, ...overrides, ...(args.worktree ? { worktree: args.worktree } : {}) }, origin);
  }

  /**
   * Create and start an agent: one of switchboard.json's agents by its name (its command, env and
   * settings, as trusted), else a preset. `argv` replaces the command line (a wrapper script,
   * another install path) and keeps its detection rules. Instructions are typed once the agent
   * shows its prompt.
   */
  async spawnAgent(args: CommandArgsOf<'spawnAgent'>, origin: SpawnOrigin): Promise<ProcessEntry> {
    const projectDir = this.projectDirIn(args.worktree);
    const configured = this.trustedConfigAgent(args.preset, projectDir);
    const worktreeEnv = args.worktree ? await this.options.worktrees().agentEnvIn(args.worktree) : undefined;
    const env = worktreeEnv || configured?.env ? { ...configured?.env, ...worktreeEnv, ...args.env } : args.env;
    // A cap the project set for this agent stays the one that applies: a spawner may not swap it.
    if (args.budget && configured?.budget)
      throw new InvalidArgumentError(
        `"${args.preset}" has its own budget in switchboard.json; spawn it without one (a person raises a cap in Switchboard)`,
      );
    const budget = args.budget ?? configured?.budget;
    const launch = { ...(configured ?? { preset: args.preset }), env, ...(budget ? { budget } : {}) };
    const { spec } = agentSpec(args.name ?? args.preset, launch, projectDir, {
      cols: args.cols,
      rows: args.rows,
      ...(args.cwd ? { cwd: resolve(projectDir, args.cwd) } : {}),
      ...(args.argv ? { argv: args.argv } : {}),
      ...(args.worktree ? { worktree: args.worktree } : {}),
      ...(args.sandbox !== undefined ? sandboxField(args.sandbox) : {}),
    });
    const entry = await this.createAndStart(spec, origin);
    if (args.instructions) this.options.turns.deliverInstructions(entry.id, args.instructions);
    return entry;
  }

  /**
   * switchboard.json's agent of that name (to start in `projectDir`), refused while it waits for
   * trust; undefined when there is none (a preset). Its extra MCP scopes stay with the configured entry: another instance gets
   * only what a person grants it, so spawning one never widens what its spawner can reach.
   */
  private trustedConfigAgent(name: string, projectDir: string): AgentConfig | undefined {
    const configured = this.options.configuredAgents().get(name);
    if (!configured) return undefined;
    const key = configKeyOf('agent', name);
    if (this.options.trust.isHeld(key)) throw new NotTrustedError(key, configured.command ?? configured.preset ?? name);
    const { mcp: _scopes, cwd, ...launch } = configured;
    // Its folder inside the main checkout means the same folder in the worktree it starts in.
    return cwd === undefined ? launch : { ...launch, cwd: cwdInWorktree(cwd, this.options.projectDir, projectDir) };
  }

  /** Create an entry from a full spec and start it; owned by its spawner before it runs, so even a failed start is the spawner's to close. */
  async createAndStart(spec: ProcessSpec, origin: SpawnOrigin): Promise<ProcessEntry> {
    const entry = this.createSpawned(spec, origin.spawnedBy);
    await startNew(entry);
    return entry;
  }

  /**
   * A new entry, owned by `spawnedBy` when another entry made it. What a sandboxed entry starts
   * (a process, an agent, a task, a worktree's servers) runs in the same sandbox, whatever it
   * asked for: nothing it spawns gets out, nor gets a wider allowlist.
   */
  createSpawned(spec: ProcessSpec, spawnedBy: string | undefined): ProcessEntry {
    const sandbox = spawnedBy ? this.options.sessions.find(spawnedBy)?.definition.sandbox : undefined;
    const entry = this.options.sessions.create(sandbox ? { ...spec, sandbox } : spec);
    if (spawnedBy) this.options.access.recordSpawn(entry.id, spawnedBy);
    return entry;
  }

  /** An entry of a previous app run (spawned at run time), with its id; started, resumed or left stopped per its policy. */
  async restoreEntry(spec: ProcessSpec, id: string): Promise<ProcessEntry> {
    const entry = this.options.sessions.create(spec, id);
    await this.launchNew(entry, false).catch(() => undefined); // the entry's error state says why
    return entry;
  }

  /** First launch of an entry: a restored one per the restorer, a new one per autoStart. */
  async launchNew(entry: ProcessEntry, autoStart: boolean): Promise<void> {
    const intent = this.options.restorer()?.launchIntent(entry, autoStart);
    if (intent === 'resume') await this.resume(entry.id);
    else if (intent === 'start' || (intent === undefined && autoStart)) await this.startGated(entry.id);
  }

  /**
   * Start an entry; one with `dependsOn` starts what it depends on and waits (`waiting for …`)
   * until they reach their conditions. Resolves once it started, or was kept from starting.
   */
  async start(id: string): Promise<void> {
    this.runnable(id);
    await this.startGated(id);
  }

  /** Starts now, or begins waiting for dependencies and returns (the entry shows `waiting for …`). */
  async startGated(id: string): Promise<void> {
    const started = this.startOrder.start(id);
    if (!this.startOrder.isWaiting(id)) await started;
  }

  /**
   * Start a stopped agent again with its CLI's resume arguments: the conversation continues. Like
   * any start it needs the project's trust and goes through the start order.
   */
  async resume(id: string): Promise<void> {
    const entry = this.runnable(id);
    const session = this.options.registry.decorationOf(id, AGENT_SESSION);
    if (!session) throw new InvalidArgumentError(`Process ${id} "${entry.name}" is not an agent: only agents resume conversations`);
    session.prepareResume();
    try {
      await this.startGated(id);
    } catch (err) {
      session.cancelResume();
      throw err;
    }
  }

  /** The entry, if it may run: a config entry that waits for trust may not. */
  runnable(id: string): ProcessEntry {
    const entry = this.options.sessions.get(id);
    if (entry.definition.configName && this.options.trust.isHeld(configKey(entry)))
      throw new NotTrustedError(configKey(entry), entry.argv.join(' '));
    return entry;
  }

  async stop(id: string, signal?: NodeJS.Signals): Promise<void> {
    this.startOrder.cancel(id);
    await this.options.sessions.get(id).stop(signal);
  }

  async restart(id: string, signal?: NodeJS.Signals): Promise<void> {
    this.runnable(id);
    await this.restartRun(id, signal, false);
  }

  /** Stop, then start again through the dependencies (awaiting them only when asked). */
  async restartRun(id: string, signal: NodeJS.Signals | undefined, awaitDependencies: boolean): Promise<void> {
    const entry = this.options.sessions.get(id);
    if (!entry.definition.dependsOn) {
      if (this.mayMovePort(entry)) await this.moveOffTakenPort(id);
      return entry.restart(signal);
    }
    await entry.stop(signal);
    if (awaitDependencies) await this.startOrder.start(id);
    else await this.startGated(id);
  }

  async close(id: string): Promise<void> {
    this.startOrder.cancel(id);
    await this.options.sessions.close(id);
  }

  /** While the entry waits for its dependencies: whether that start happened (readiness waits for it). */
  pendingStart(id: string): Promise<boolean> | undefined {
    return this.startOrder.pendingStart(id);
  }

  /** Stop, then start again, awaiting the entry's dependencies (readiness waits for the new run). */
  restartWithDependencies(id: string, signal: NodeJS.Signals | undefined): Promise<void> {
    return this.restartRun(id, signal, true);
  }

  /**
   * Starts the entry's own run. A stopped worktree instance may first have to move off a port
   * something else took meanwhile (docs/runtime.md); while that is checked it reads `waiting`, so
   * what depends on it keeps waiting instead of seeing it stopped.
   */
  private async startOwn(id: string): Promise<void> {
    const entry = this.options.sessions.get(id);
    try {
      if (this.mayMovePort(entry)) {
        this.options.registry.setGate(id, { state: 'waiting', message: 'checking that its port is still free' });
        await this.moveOffTakenPort(id);
      }
      await entry.start(); // a run that starts clears the gate
    } catch (err) {
      this.options.registry.setGate(id, undefined);
      throw err;
    }
  }

  /** The worktree's stopped instances take their new definitions (a port moved) before this one starts. */
  private async moveOffTakenPort(id: string): Promise<void> {
    for (const [entryId, spec] of await this.options.worktrees().replanIfPortTaken(id)) {
      this.options.sessions.get(entryId).redefine(spec);
      this.options.registry.rebuildDecorations(entryId);
    }
  }

  private mayMovePort(entry: ProcessEntry): boolean {
    return entry.definition.worktree !== undefined && entry.definition.ready?.port !== undefined && !entry.isRunning;
  }

  /** The project's folder inside a worktree (the main checkout when absent). */
  private projectDirIn(worktree: string | undefined): string {
    return worktree === undefined ? this.options.projectDir : this.options.worktrees().projectDirIn(worktree);
  }
}

/** First start of a new entry: a spawn failure keeps the entry (in error) and names it. */
async function startNew(entry: ProcessEntry): Promise<void> {
  try {
    await entry.start();
  } catch (err) {
    if (!(err instanceof SwitchboardError)) throw err;
    throw new SwitchboardError(err.code, `${err.message} (entry ${entry.id} "${entry.name}" kept in error state)`, {
      ...err.details,
      id: entry.id,
    });
  }
}

function defaultShell(): string {
  return process.env.SHELL || '/bin/bash';
}

function defaultName(kind: ProcessKind, commandLine: string, n: number): string {
  if (kind === 'terminal') return `terminal ${n}`;
  return commandLine.length > 40 ? `${commandLine.slice(0, 39)}…` : commandLine;
}

/** The spec field for a requested sandbox (`false` and absent: none). */
function sandboxField(config: SandboxConfig | undefined): Pick<ProcessSpec, 'sandbox'> {
  const options = sandboxOptionsOf(config);
  return options ? { sandbox: options } : {};
}
