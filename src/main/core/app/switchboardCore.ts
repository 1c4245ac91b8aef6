/**
 * The façade of the Electron-free core: sessions, config, and the capabilities it is built with
 * (see capability.ts). The UI (IPC), the `serve` bridge and MCP tools all call these methods;
 * nothing is implemented twice.
 */
import { basename, resolve } from 'node:path';
import { DisposableStore, Emitter, toDisposable, waitForEvent, type Disposable, type Event } from '../base';
import { SessionManager, type ProcessEntry, type TaggedBatch } from '../sessions';
import { ConfigWatcher, loadConfig, processSpecFromConfig, sameDefinition, sameSpec, type LoadedConfig } from '../config';
import type { ConfigIssue, ProcessConfig } from '../../../shared/config';
import type { ProcessInfo, ProcessKind, ProcessSpec } from '../../../shared/model';
import type { CommandArgsOf, ControlEvent, Snapshot, McpConnectionInfo } from '../../../shared/api';
import { InvalidArgumentError, SwitchboardError } from '../../../shared/errors';
import type { DecoratorContext, EntryDecoration, EntryDecorator } from '../sessions';
import type { AgentConfig } from '../../../shared/agentConfig';
import type { McpEndpoint } from '../agents';
import type { TimerManager } from '../timers';
import type { WorktreeService } from '../worktrees';
import { AgentStatusDecoration, agentSpec, agentWiringForRun } from './agentEntries';
import { ReadinessDecoration } from './readinessEntries';
import type { TaskService } from '../tasks';
import type { AttachedCapability, Capability } from './capability';
import type { TaskProgress, TaskRequest, TaskView, TaskWaitResult } from '../../../shared/task';
import type { ReadinessCheck, ReadinessProgress, ReadinessResult } from '../../../shared/ready';
import { DEFAULT_READY_TIMEOUT_MS } from '../../../shared/readyConfig';
import { DEFAULT_SUBMIT_AFTER_ECHO_MS, isTextOnScreen, typeUserTurn, waitForScreen } from '../sessions';
import { isOnPath, proposeConfig, writeConfig } from '../projects';
import type { ConfigProposal, ProposedEntry } from '../../../shared/proposal';
import { StartOrder, type Gate } from './startOrder';
import { EntryAccess, MemoryTrustStore, ProjectTrust, type HeldEntry } from '../trust';
import { NotRunningError, NotTrustedError } from '../../../shared/errors';
import type { McpScope, ProjectTrustState } from '../../../shared/trust';
import type { UiState, UiStatePatch } from '../../../shared/uiState';
import { MemoryUiStateStore, applyUiStatePatch, type UiStateStore } from '../uistate';
import { editorLaunchFor, resolveProjectFile } from '../editor';
import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import type { AnswerPromptArgs, AnswerPromptResult, WaitingAgent } from '../../../shared/inbox';
import { answerPrompt, listWaiting, type InboxAgent } from '../inbox';
import { promptAnswersFor } from '../agents';
import { AgentSessionDecoration } from './agentSession';
import type { Settings } from '../../../shared/config';

/** How an entry of a previous app run comes back; provided by the continuity capability. */
export interface EntryRestorer {
  /** The id a switchboard.json entry had in the previous app run. */
  idFor(configKey: string): string | undefined;
  /** For a restored entry: resume, start or leave it stopped; undefined for new entries (autoStart decides). */
  launchIntent(entry: ProcessEntry, autoStart: boolean): 'resume' | 'start' | 'none' | undefined;
  /** The previous app run's output of an entry, as saved (escape sequences), or undefined. */
  previousOutput(id: string): string | undefined;
}

/** What the MCP capability gives the core once its endpoint listens. */
interface McpWiring {
  /** The endpoint's URL and app token, for the UI. */
  info: McpConnectionInfo;
  /** Extra env per run: the entry's MCP identity. */
  envForRun(entry: ProcessEntry): Record<string, string>;
  /** The endpoint an entry reaches Switchboard at, with its own token: wired into an agent CLI's MCP configuration at every start. */
  endpointFor(entryId: string): McpEndpoint | undefined;
}

/** Coalesce bursts of entry changes (title spinners, state flips) into one event per frame. */
const CHANGE_COALESCE_MS = 16;

export interface SwitchboardCoreOptions {
  projectDir: string;
  killGraceMs?: number;
  ringBytes?: number;
  /**
   * What the core is built with (readiness, agent status, tasks, continuity, timers, MCP, …),
   * attached in this order at the end of the constructor; the composition root lists them. A core
   * built without one answers its commands with a clear error.
   */
  capabilities?: readonly Capability[];
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
}

/** How long spawnAgent waits for a fresh agent's prompt before typing its instructions. */
const INSTRUCTIONS_READY_TIMEOUT_MS = 60_000;
/** How long an idle agent has to show that it took a turn (a prompt-submit hook or its busy screen) before Enter is pressed once more. */
const SUBMIT_CONFIRM_MS = 5_000;

/** Who asked for a new entry: an entry's MCP token (it then owns the new entry), or a person. */
export interface SpawnOrigin {
  spawnedBy?: string;
}

interface EntryRecord {
  entry: ProcessEntry;
  decorations: EntryDecoration[];
  /** The decorations and their listeners: rebuilt when the entry is redefined. */
  decorationStore: DisposableStore;
  /** Waiting for its dependencies, or kept from starting by one that failed. */
  gate?: Gate;
  attention?: ProcessInfo['attention'];
  wasWaiting?: boolean;
  store: DisposableStore;
}

export class SwitchboardCore {
  readonly projectDir: string;
  readonly sessions: SessionManager;
  readonly trust: ProjectTrust;
  /** Who spawned whom, and the scopes of each entry's MCP token. */
  readonly access = new EntryAccess();
  private readonly records = new Map<string, EntryRecord>();
  private readonly store = new DisposableStore();
  /** Order matters for describe(): later decorations override fields of earlier ones. */
  private readonly decorators: EntryDecorator[] = [];
  private configIssues: ConfigIssue[] = [];
  private pendingChanges = new Set<string>();
  private changeTimer: NodeJS.Timeout | undefined;
  private selectedId: string | undefined;
  private mcp: McpWiring | undefined;
  private disposed = false;
  private readonly uiStateStore: UiStateStore;
  private restorer: EntryRestorer | undefined;
  private readonly attached: AttachedCapability[] = [];
  private currentSettings: Settings = {};

  private readonly eventEmitter = this.store.add(new Emitter<ControlEvent>());
  private readonly entryChangedEmitter = this.store.add(new Emitter<string>());
  private readonly startOrder: StartOrder;
  private taskService: TaskService | undefined;
  private timerManager: TimerManager | undefined;
  private worktreeService: WorktreeService | undefined;
  /** Every state event (not output): processAdded/Changed/Removed, configChanged, … */
  readonly onEvent: Event<ControlEvent> = this.eventEmitter.event;
  /** Batched output of every entry, tagged with its id. */
  readonly onDidFlushOutput: Event<TaggedBatch>;

  constructor(private readonly options: SwitchboardCoreOptions) {
    this.projectDir = resolve(options.projectDir);
    this.uiStateStore = options.uiState ?? new MemoryUiStateStore();
    this.sessions = new SessionManager({
      killGraceMs: options.killGraceMs,
      ringBytes: options.ringBytes,
      envForRun: (entry) => ({ ...this.mcp?.envForRun(entry), ...this.agentWiring(entry).env }),
      argsForRun: (entry) => this.agentWiring(entry).args,
      argvForRun: (entry, argv) => this.sessionOf(entry.id)?.argvForRun(argv) ?? [...argv],
    });
    this.onDidFlushOutput = this.sessions.onDidFlushOutput;
    this.trust = options.trust ?? new ProjectTrust(this.projectDir, new MemoryTrustStore(), { trustEverything: true });
    this.store.add(this.trust.onDidChange(() => this.trustChanged()));
    this.store.add(this.sessions.onDidAddEntry((entry) => this.track(entry)));
    this.store.add(this.sessions.onDidChangeEntry((entry) => this.markChanged(entry.id)));
    this.startOrder = new StartOrder({
      idOf: (configName) => this.sessions.list().find((e) => e.kind === 'command' && e.definition.configName === configName)?.id,
      describe: (id) => this.describe(id),
      dependsOnOf: (id) => this.sessions.get(id).definition.dependsOn,
      startOwn: (id) => this.sessions.get(id).start(),
      onDidChangeEntry: this.entryChangedEmitter.event,
      setGate: (id, gate) => this.setGate(id, gate),
    });
    // Last: capabilities subscribe to the core's entries and events, which needs everything above.
    for (const capability of options.capabilities ?? []) this.attached.push(this.store.add(capability.attach(this)));
  }

  /** Decorates every entry created from now on (capabilities call this when they attach). */
  addEntryDecorator(decorator: EntryDecorator): Disposable {
    this.decorators.push(decorator);
    return toDisposable(() => this.decorators.splice(this.decorators.indexOf(decorator), 1));
  }

  /** The task service the task commands forward to (the tasks capability provides it). */
  provideTasks(service: TaskService): Disposable {
    this.taskService = service;
    return toDisposable(() => (this.taskService = undefined));
  }

  /** The timer manager the timer commands forward to (the timers capability provides it). */
  provideTimers(manager: TimerManager): Disposable {
    this.timerManager = manager;
    return toDisposable(() => (this.timerManager = undefined));
  }

  /** The worktree service the worktree commands forward to (the worktrees capability provides it). */
  provideWorktrees(service: WorktreeService): Disposable {
    this.worktreeService = service;
    return toDisposable(() => (this.worktreeService = undefined));
  }

  /** Worktrees (docs/worktrees.md): the one service the UI, MCP and the control API call. */
  get worktrees(): WorktreeService {
    if (!this.worktreeService)
      throw new SwitchboardError('internal', 'Worktrees are not available in this Switchboard core (it was built without them).');
    return this.worktreeService;
  }

  /** Where a new entry's relative cwd starts: the project's folder in its worktree (the main checkout when absent). */
  private baseDirFor(worktree: string | undefined): string {
    return worktree === undefined ? this.projectDir : this.worktrees.projectDirIn(worktree);
  }

  /** Tasks: headless agent runs with a stall watchdog; the logic lives in core/tasks. */
  get tasks(): TaskService {
    if (!this.taskService)
      throw new SwitchboardError('internal', 'Tasks are not available in this Switchboard core (it was built without them).');
    return this.taskService;
  }

  /** Timers (docs/timers.md): the one manager the UI commands and the MCP tools call. */
  get timers(): TimerManager {
    const manager = this.timerManager;
    if (!manager || manager.isDisposed)
      throw new SwitchboardError('internal', 'Timers are not available in this Switchboard core (it was built without a timer manager).');
    return manager;
  }

  /**
   * The capabilities' set-up before entries exist, then load switchboard.json, create its entries,
   * start the auto-start ones, watch for edits, then the capabilities' set-up that needs the entries.
   */
  async init(): Promise<void> {
    for (const capability of this.attached) await capability.beforeInit?.();
    await this.applyConfig(loadConfig(this.projectDir));
    if (this.options.watchConfig !== false) {
      const watcher = this.store.add(new ConfigWatcher(this.projectDir));
      this.store.add(watcher.onDidChange(() => void this.reloadConfig()));
    }
    for (const capability of this.attached) await capability.afterInit?.();
  }

  /** First run: what to run here, from the project's own manifests (empty once switchboard.json exists). */
  proposeConfig(): ConfigProposal {
    return proposeConfig(this.projectDir, { isOnPath: (command) => isOnPath(command) });
  }

  /**
   * Writes the entries a person kept as switchboard.json and loads it at once (not waiting for the
   * watcher). Ticking them in the proposal, which shows each command, is the trust prompt's
   * question answered: they run without asking again. Only the UI reaches this (not MCP).
   */
  async writeConfig(entries: readonly ProposedEntry[]): Promise<{ path: string }> {
    const path = writeConfig(this.projectDir, entries);
    await this.reloadConfig();
    const chosen = entries.map((entry) => `${entry.section}.${entry.name}`).filter((key) => this.trust.isHeld(key));
    if (chosen.length > 0) await this.grantTrust(chosen);
    return { path };
  }

  async reloadConfig(): Promise<void> {
    if (this.disposed) return;
    await this.applyConfig(loadConfig(this.projectDir));
  }

  /** Entries of a previous app run come back through `restorer` (the continuity capability provides it before init). */
  provideRestorer(restorer: EntryRestorer): Disposable {
    this.restorer = restorer;
    return toDisposable(() => (this.restorer = undefined));
  }

  /** The previous app run's output of an entry, as saved; undefined without one (or without continuity). */
  previousOutput(id: string): string | undefined {
    return this.restorer?.previousOutput(id);
  }

  /** The MCP endpoint's identity and wiring for every run (the MCP capability provides it once it listens). */
  provideMcp(wiring: McpWiring): Disposable {
    this.mcp = wiring;
    return toDisposable(() => (this.mcp = undefined));
  }

  /** switchboard.json `settings` as last loaded. */
  get settings(): Readonly<Settings> {
    return this.currentSettings;
  }

  snapshot(): Snapshot {
    return {
      project: { dir: this.projectDir, name: basename(this.projectDir) },
      processes: this.listProcesses(),
      configIssues: this.configIssues,
      mcp: this.mcp?.info,
      selectedId: this.selectedId,
      trust: this.trust.state(),
    };
  }

  get issues(): ConfigIssue[] {
    return this.configIssues;
  }

  listProcesses(kind?: ProcessKind): ProcessInfo[] {
    return this.sessions
      .list()
      .filter((e) => !kind || e.kind === kind)
      .map((e) => this.describe(e.id));
  }

  entry(id: string): ProcessEntry {
    return this.sessions.get(id);
  }

  decorationsOf(id: string): readonly EntryDecoration[] {
    this.sessions.get(id);
    return this.records.get(id)?.decorations ?? [];
  }

  /** The entry's decoration of one capability, or a clear error naming why it has none. */
  decorationOf<D extends EntryDecoration>(id: string, kind: new (...args: never[]) => D, notApplicable: string): D {
    const decoration = this.decorationsOf(id).find((d): d is D => d instanceof kind);
    if (!decoration) throw new InvalidArgumentError(notApplicable);
    return decoration;
  }

  describe(id: string): ProcessInfo {
    const record = this.records.get(id);
    const entry = this.sessions.get(id);
    let info = entry.info();
    // `info()` is a fresh object: decorations add to it in place instead of copying it once each.
    for (const decoration of record?.decorations ?? []) Object.assign(info, decoration.describe());
    if (record?.attention) info.attention = record.attention;
    if (record?.gate) info = { ...info, state: record.gate.state, message: record.gate.message };
    const scopes = this.access.scopesOf(id, entry.definition.mcp?.scopes);
    const spawnedBy = this.access.spawnerOf(id);
    if (scopes.length > 0 || spawnedBy) info.access = { scopes, ...(spawnedBy ? { spawnedBy } : {}) };
    const held = entry.definition.configName ? this.trust.heldEntry(configKey(entry)) : undefined;
    if (held) info.trust = this.trust.changeOf(held);
    return info;
  }

  /** Create and start a command or terminal entry. A spawn failure keeps the entry (in error) and throws. */
  async spawnProcess(args: CommandArgsOf<'spawnProcess'>, origin: SpawnOrigin = {}): Promise<ProcessInfo> {
    if (args.argv && args.shell) throw new InvalidArgumentError('Give either argv or shell, not both');
    if (args.kind === 'command' && !args.argv && !args.shell) throw new InvalidArgumentError('A command needs argv or shell');
    const argv = args.shell ? ['/bin/sh', '-c', args.shell] : (args.argv ?? [defaultShell()]);
    const spec: ProcessSpec = {
      name: args.name ?? defaultName(args.kind, args.shell ?? argv.join(' '), this.sessions.list().length + 1),
      kind: args.kind,
      argv,
      cwd: resolve(this.baseDirFor(args.worktree), args.cwd ?? '.'),
      env: args.env,
      cols: args.cols,
      rows: args.rows,
      ready: args.ready,
      ...(args.worktree ? { worktree: args.worktree } : {}),
    };
    return this.createAndStart(spec, origin);
  }

  /** Create an entry from a full spec (agents, tasks) and start it. */
  async createAndStart(spec: ProcessSpec, origin: SpawnOrigin = {}): Promise<ProcessInfo> {
    const entry = this.create(spec, origin);
    await this.startNew(entry);
    return this.describe(entry.id);
  }

  /** A new entry, owned by the entry that spawned it (before it runs, so even a failed start is the spawner's to close). */
  private create(spec: ProcessSpec, origin: SpawnOrigin): ProcessEntry {
    const entry = this.sessions.create(spec);
    if (origin.spawnedBy) this.access.recordSpawn(entry.id, origin.spawnedBy);
    return entry;
  }

  /** First start of a new entry: a spawn failure keeps the entry (in error) and names it. */
  private async startNew(entry: ProcessEntry): Promise<void> {
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

  /**
   * Create and start an agent from a preset. `argv` replaces the preset's command line (a wrapper
   * script, another install path) and keeps its detection rules. Instructions are typed once the
   * agent shows its prompt.
   */
  async spawnAgent(args: CommandArgsOf<'spawnAgent'>, origin: SpawnOrigin = {}): Promise<ProcessInfo> {
    const config: AgentConfig = { preset: args.preset, env: args.env };
    const baseDir = this.baseDirFor(args.worktree);
    const { spec } = agentSpec(args.name ?? args.preset, config, baseDir, {
      cols: args.cols,
      rows: args.rows,
      ...(args.cwd ? { cwd: resolve(baseDir, args.cwd) } : {}),
      ...(args.argv ? { argv: args.argv } : {}),
    });
    const entry = this.create(args.worktree ? { ...spec, worktree: args.worktree } : spec, origin);
    await this.startNew(entry);
    if (args.instructions) this.deliverInstructions(entry.id, args.instructions);
    return this.describe(entry.id);
  }

  /**
   * Types the instructions once the agent is idle, in the background. An agent that never shows
   * its prompt (a trust dialog, a login) must not end the process with an unhandled rejection:
   * the person is asked to look instead, since the instructions were not delivered.
   */
  private deliverInstructions(id: string, text: string): void {
    const timeoutMs = this.options.instructionsReadyTimeoutMs ?? INSTRUCTIONS_READY_TIMEOUT_MS;
    this.typeWhenIdle(id, text, timeoutMs).catch((err: unknown) => {
      if (this.disposed || !this.records.has(id)) return;
      const why = err instanceof Error ? err.message : String(err);
      this.requestAttention(
        id,
        `The agent did not show its prompt within ${Math.round(timeoutMs / 1000)} s; its instructions were not typed (${why})`,
        'switchboard',
      );
    });
  }

  /** The status tracker of an agent entry (timers, MCP hooks, explain). */
  statusTrackerOf(id: string) {
    return this.decorationOf(id, AgentStatusDecoration, `Process ${id} is not an agent`).tracker;
  }

  /** Type `text` as a fresh user turn once the agent is idle at its prompt. */
  async typeWhenIdle(id: string, text: string, timeoutMs = INSTRUCTIONS_READY_TIMEOUT_MS): Promise<void> {
    const tracker = this.statusTrackerOf(id);
    if (tracker.status.primary !== 'idle') {
      await waitForEvent(tracker.onDidChangeStatus, (s) => s.primary === 'idle' || s.primary === 'dead', timeoutMs);
    }
    if (tracker.status.primary !== 'idle') throw new Error(`the agent is ${tracker.status.primary}`);
    await this.sendUserTurn(id, text);
  }

  /** The conversation identity of an agent entry (undefined for other kinds). */
  sessionOf(id: string): AgentSessionDecoration | undefined {
    return this.records.get(id)?.decorations.find((d): d is AgentSessionDecoration => d instanceof AgentSessionDecoration);
  }

  /**
   * Start a stopped agent again with its CLI's resume arguments: the conversation continues. Like
   * any start it needs the project's trust and goes through the start order.
   */
  async resumeProcess(id: string): Promise<ProcessInfo> {
    const entry = this.runnable(id);
    const session = this.sessionOf(id);
    if (!session) throw new InvalidArgumentError(`Process ${id} "${entry.name}" is not an agent: only agents resume conversations`);
    session.prepareResume();
    try {
      await this.startGated(id);
    } catch (err) {
      session.cancelResume();
      throw err;
    }
    return this.describe(id);
  }

  /** An entry of a previous app run (spawned at run time), with its id; started, resumed or left stopped per its policy. */
  async restoreEntry(spec: ProcessSpec, id: string): Promise<ProcessEntry> {
    const entry = this.sessions.create(spec, id);
    await this.launchNew(entry, false).catch(() => undefined); // the entry's error state says why
    return entry;
  }

  /**
   * Start an entry; one with `dependsOn` starts what it depends on and waits (`waiting for …`)
   * until they reach their conditions. Resolves once it started, or was kept from starting.
   */
  async startProcess(id: string): Promise<ProcessInfo> {
    this.runnable(id);
    await this.startGated(id);
    return this.describe(id);
  }

  /** Starts now, or begins waiting for dependencies and returns (the entry shows `waiting for …`). */
  private async startGated(id: string): Promise<void> {
    const started = this.startOrder.start(id);
    if (!this.startOrder.isWaiting(id)) await started;
  }

  /** Trust a config entry as it is now and start it: the UI's Start of an untrusted entry, once the prompt showed its command. */
  async trustAndStart(id: string): Promise<ProcessInfo> {
    const entry = this.sessions.get(id);
    if (entry.definition.configName && this.trust.isHeld(configKey(entry))) await this.grantTrust([configKey(entry)], { startHeld: false });
    if (entry.isRunning) return this.describe(id); // a running entry whose change was trusted restarted with it
    return this.startProcess(id);
  }

  /** What waits for trust, and what the project may run. */
  trustState(): ProjectTrustState {
    return this.trust.state();
  }

  /**
   * Trust held config entries (all when `keys` is absent) and apply them as the config application
   * would have: a new entry starts if it auto-starts, a changed one is redefined and restarted if it runs.
   * Only the UI, the command line and the app token reach this; an agent's own token cannot.
   */
  async grantTrust(keys?: readonly string[], options: { startHeld?: boolean } = {}): Promise<ProjectTrustState> {
    const granted = this.trust.grant(keys);
    await Promise.all(granted.map((held) => this.applyTrusted(held, options.startHeld !== false)));
    return this.trust.state();
  }

  private async applyTrusted(held: HeldEntry, startHeld: boolean): Promise<void> {
    const entry = this.sessions.list().find((e) => e.definition.configName && configKey(e) === held.key);
    if (!entry) return;
    if (!sameSpec(entry.definition, held.spec)) {
      const wasRunning = entry.isRunning;
      entry.redefine({ ...held.spec, cols: entry.info().cols, rows: entry.info().rows });
      if (wasRunning) return entry.restart().catch(() => undefined); // the entry shows a spawn error itself
    }
    // Through the start order: a trusted entry still waits for what it depends on.
    if (startHeld && !held.previous && held.autoStart && !entry.isRunning) await this.startGated(entry.id).catch(() => undefined); // error state shows why
  }

  /** The entry, if it may run: a config entry that waits for trust may not. */
  private runnable(id: string): ProcessEntry {
    const entry = this.sessions.get(id);
    if (entry.definition.configName && this.trust.isHeld(configKey(entry)))
      throw new NotTrustedError(configKey(entry), entry.argv.join(' '));
    return entry;
  }

  /** A person grants scopes to an entry's token (the UI); they last as long as the entry. */
  grantScopes(id: string, scopes: readonly McpScope[]): { id: string; scopes: McpScope[] } {
    this.sessions.get(id);
    this.access.grant(id, scopes);
    this.markChanged(id);
    return { id, scopes: this.scopesOf(id) };
  }

  /** The scopes an entry's token carries now. */
  scopesOf(id: string): McpScope[] {
    return this.access.scopesOf(id, this.sessions.get(id).definition.mcp?.scopes);
  }

  private trustChanged(): void {
    if (this.disposed) return;
    this.eventEmitter.fire({ type: 'trustChanged', trust: this.trust.state() });
    for (const entry of this.sessions.list()) if (entry.definition.configName) this.markChanged(entry.id);
  }

  async stopProcess(id: string, signal?: NodeJS.Signals): Promise<ProcessInfo> {
    this.startOrder.cancel(id);
    await this.sessions.get(id).stop(signal);
    return this.describe(id);
  }

  async restartProcess(id: string, signal?: NodeJS.Signals): Promise<ProcessInfo> {
    this.runnable(id);
    await this.restartRun(id, signal, false);
    return this.describe(id);
  }

  /** Stop, then start again through the dependencies (awaiting them only when asked). */
  private async restartRun(id: string, signal: NodeJS.Signals | undefined, awaitDependencies: boolean): Promise<void> {
    const entry = this.sessions.get(id);
    if (!entry.definition.dependsOn) return entry.restart(signal);
    await entry.stop(signal);
    if (awaitDependencies) await this.startOrder.start(id);
    else await this.startGated(id);
  }

  /**
   * Restart and, for command entries, wait until the new run is ready (docs/readiness.md). Never throws
   * for a failed start: the result says why, with the last lines.
   */
  async restartAndWait(
    id: string,
    options: { signal?: NodeJS.Signals; readyTimeoutMs?: number; abort?: AbortSignal; onProgress?: (p: ReadinessProgress) => void } = {},
  ): Promise<ReadinessResult> {
    const entry = this.runnable(id);
    const tracker = this.readinessTrackerOf(id);
    const startedAt = Date.now();
    const abortWait = new AbortController();
    const stop = () => abortWait.abort();
    options.abort?.addEventListener('abort', stop, { once: true });
    const waiting = tracker.waitForReady(options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS, abortWait.signal, options.onProgress, {
      runId: entry.runId + 1,
    });
    try {
      await this.restartRun(id, options.signal, true);
      const gate = this.records.get(id)?.gate;
      if (gate?.state === 'error') {
        abortWait.abort();
        return { success: false, state: 'error', message: gate.message, duration_ms: Date.now() - startedAt };
      }
    } catch (err) {
      // No new run to judge (command not found, bad cwd): answer now instead of timing out.
      abortWait.abort();
      const message = err instanceof Error ? err.message : String(err);
      return { success: false, state: 'error', message, duration_ms: Date.now() - startedAt };
    } finally {
      options.abort?.removeEventListener('abort', stop);
    }
    return waiting;
  }

  /** Wait for the current run of a command entry to be ready (check_process_ready with waiting). */
  waitForReady(
    id: string,
    timeoutMs = DEFAULT_READY_TIMEOUT_MS,
    abort?: AbortSignal,
    onProgress?: (p: ReadinessProgress) => void,
  ): Promise<ReadinessResult> {
    return this.readinessTrackerOf(id).waitForReady(timeoutMs, abort, onProgress);
  }

  checkReady(id: string): ReadinessCheck {
    const check = this.readinessTrackerOf(id).check();
    const gate = this.records.get(id)?.gate;
    return gate ? { ready: false, state: gate.state, message: gate.message } : check;
  }

  readinessTrackerOf(id: string) {
    return this.decorationOf(id, ReadinessDecoration, `Process ${id} is not a command entry (readiness applies to commands)`).tracker;
  }

  async closeProcess(id: string): Promise<{ closed: true }> {
    this.startOrder.cancel(id);
    await this.sessions.close(id);
    return { closed: true };
  }

  renameProcess(id: string, name: string): ProcessInfo {
    this.sessions.get(id).rename(name);
    return this.describe(id);
  }

  selectProcess(id: string): { selected: string } {
    this.sessions.get(id);
    this.selectedId = id;
    this.eventEmitter.fire({ type: 'processSelected', id });
    return { selected: id };
  }

  resizeProcess(id: string, cols: number, rows: number): null {
    this.sessions.get(id).resize(cols, rows);
    return null;
  }

  writeInput(id: string, data: string): null {
    this.sessions.get(id).write(data);
    return null;
  }

  /** Start a headless agent task (a `task` entry); a spawn failure comes back as a failed task. */
  startTask(request: TaskRequest, origin: SpawnOrigin = {}): Promise<TaskView> {
    return this.tasks.start(request, origin.spawnedBy);
  }

  getTask(id: string): TaskView {
    return this.tasks.get(id);
  }

  /** Cancel a task; resolves once its whole process tree is gone. */
  cancelTask(id: string): Promise<TaskView> {
    return this.tasks.cancel(id);
  }

  /** Wait until the task ended (terminal phase, tree gone), or timeout / abort / close. */
  waitForTask(id: string, timeoutMs: number, abort?: AbortSignal, onProgress?: (progress: TaskProgress) => void): Promise<TaskWaitResult> {
    return this.tasks.wait(id, timeoutMs, abort, onProgress);
  }

  /**
   * Types `text` into an entry as a fresh user turn (sessions/userTurn.ts): the one path for agent
   * instructions, send_message and timer delivery.
   */
  async sendUserTurn(id: string, text: string): Promise<void> {
    await this.untilPromptShown(id);
    const agent = this.agentStatusOf(id);
    const mayPressAgain = agent !== undefined && agent.preset.id !== 'generic' && agent.tracker.status.primary === 'idle';
    await typeUserTurn(this.sessions.get(id), text, this.submitAfterEchoMs(id));
    if (mayPressAgain) await this.pressEnterAgainIfNotTaken(id, agent.tracker, text);
  }

  /**
   * A TUI now and then drops the Enter of a turn: the text stays in its composer and nothing is
   * sent (seen with Gemini CLI under load). An agent that was idle and has not left idle within
   * SUBMIT_CONFIRM_MS while its screen still shows the text gets Enter once more, as a person
   * would press it again; Enter on an empty composer does nothing in the preset CLIs.
   */
  private async pressEnterAgainIfNotTaken(id: string, tracker: AgentStatusDecoration['tracker'], text: string): Promise<void> {
    const entry = this.sessions.get(id);
    const tookTurn = await waitForEvent(tracker.onDidChangeStatus, (s) => s.primary !== 'idle', SUBMIT_CONFIRM_MS).then(
      () => true,
      () => tracker.status.primary !== 'idle',
    );
    if (tookTurn || !entry.isRunning || !isTextOnScreen(entry, text)) return;
    entry.write('\r');
  }

  private agentStatusOf(id: string): AgentStatusDecoration | undefined {
    return this.decorationsOf(id).find((d): d is AgentStatusDecoration => d instanceof AgentStatusDecoration);
  }

  /**
   * An agent still `starting` has no prompt to type into (opencode paints blank cells for many
   * seconds, and what is typed there is lost): a user turn waits until the CLI has drawn a screen
   * its rules know. A busy or waiting agent takes the turn (its CLI queues it).
   */
  private async untilPromptShown(id: string, timeoutMs = INSTRUCTIONS_READY_TIMEOUT_MS): Promise<void> {
    const agent = this.agentStatusOf(id);
    if (!agent || agent.tracker.status.primary !== 'starting') return;
    const { tracker } = agent;
    await waitForEvent(tracker.onDidChangeStatus, (s) => s.primary !== 'starting', timeoutMs).catch(() => undefined);
    if (tracker.status.primary === 'starting') {
      const entry = this.sessions.get(id);
      throw new SwitchboardError(
        'timeout',
        `Agent "${entry.name}" (${id}) has not shown its prompt within ${Math.round(timeoutMs / 1000)} s (${tracker.status.reason}); nothing was typed.`,
      );
    }
  }

  /** How long Enter waits after the echo of typed text: the agent preset's pause, the default for anything else. */
  submitAfterEchoMs(id: string): number {
    return this.agentStatusOf(id)?.preset.submitAfterEchoMs ?? DEFAULT_SUBMIT_AFTER_ECHO_MS;
  }

  attach(id: string) {
    return this.sessions.get(id).attach();
  }

  uiState(): UiState {
    return this.uiStateStore.load();
  }

  updateUiState(patch: UiStatePatch): UiState {
    const next = applyUiStatePatch(this.uiStateStore.load(), patch);
    this.uiStateStore.save(next);
    return next;
  }

  /**
   * Open a project file in the configured editor (editor/editorCommand.ts). The renderer names only
   * the file; the command is the core's own, so a page cannot run anything else through this.
   */
  async openInEditor(request: CommandArgsOf<'openInEditor'>): Promise<{ file: string; editor: string }> {
    const baseDir = request.id ? this.sessions.get(request.id).definition.cwd : this.projectDir;
    const file = resolveProjectFile(this.projectDir, baseDir, request.path);
    const launch = editorLaunchFor({ file, line: request.line, column: request.column }, this.options.editorEnv ?? process.env);
    if (!launch) {
      throw new InvalidArgumentError('No editor configured: set SWITCHBOARD_EDITOR (e.g. "code -g {file}:{line}:{column}") or EDITOR');
    }
    if (launch.inTerminal) {
      await this.spawnProcess({
        kind: 'terminal',
        argv: launch.argv,
        name: `edit ${relative(this.projectDir, file)}`,
        cwd: this.projectDir,
      });
    } else {
      await launchDetached(launch.argv, this.projectDir);
    }
    return { file, editor: launch.source };
  }

  requestAttention(id: string, reason: string, requestedBy: string): ProcessInfo {
    const record = this.records.get(id);
    this.sessions.get(id);
    if (!record) throw new SwitchboardError('unknown_process', `Unknown process id "${id}"`);
    record.attention = { reason, at: Date.now(), requestedBy };
    this.markChanged(id);
    this.eventEmitter.fire({ type: 'attentionRequested', id, reason, title: record.entry.name });
    return this.describe(id);
  }

  acknowledgeAttention(id: string): null {
    const record = this.records.get(id);
    this.sessions.get(id);
    if (record?.attention) {
      record.attention = undefined;
      this.markChanged(id);
    }
    return null;
  }

  /** Entries that need a person (dock badge): attention flags and agents waiting for an answer. */
  needsAttentionCount(): number {
    return this.listProcesses().filter((p) => p.attention || p.agent?.primary === 'waiting').length;
  }

  /** The attention inbox: every waiting agent with what it asks, the one waiting longest first. */
  listWaiting(): WaitingAgent[] {
    const agents = this.sessions
      .list()
      .filter((e) => e.kind === 'agent')
      .map((e) => this.inboxAgent(e.id));
    return listWaiting(agents);
  }

  /** Answer an agent's prompt from the inbox: sent only while the same prompt is on its screen. */
  answerPrompt(args: AnswerPromptArgs): Promise<AnswerPromptResult> {
    const entry = this.sessions.get(args.id);
    if (!entry.isRunning) throw new NotRunningError(entry.id, entry.name);
    return answerPrompt(this.inboxAgent(args.id), args);
  }

  private inboxAgent(id: string): InboxAgent {
    const entry = this.sessions.get(id);
    const { tracker, preset } = this.decorationOf(id, AgentStatusDecoration, `Process ${id} is not an agent`);
    return {
      id,
      name: entry.name,
      preset: preset.id,
      rules: preset.rules,
      answers: promptAnswersFor(preset.id),
      status: tracker.status,
      screen: entry.screen,
      write: (data) => entry.write(data),
      typeTurn: (text) => this.sendUserTurn(id, text),
      waitForScreen: (test, maxMs) => waitForScreen(entry, test, maxMs),
    };
  }

  /** Every process tree gets SIGKILL now, synchronously: for a second signal or a fatal error. */
  killAllNow(): void {
    this.sessions.killAllNow();
  }

  recordSpawn(childId: string, parentId: string): void {
    this.access.recordSpawn(childId, parentId);
  }

  /** The capabilities' shutdown steps (last attached first) while the entries still run, then every process tree goes down. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    if (this.changeTimer) clearTimeout(this.changeTimer);
    let failure: Error | undefined;
    for (const capability of [...this.attached].reverse()) {
      // One capability failing to save must not keep the process trees alive.
      await capability.beforeShutdown?.().catch((err: unknown) => (failure ??= err instanceof Error ? err : new Error(String(err))));
    }
    await this.sessions.dispose();
    for (const record of this.records.values()) record.store.dispose();
    this.records.clear();
    this.store.dispose();
    this.trust.dispose();
    if (failure !== undefined) throw failure;
  }

  /** First launch of an entry: a restored one per the restorer, a new one per autoStart. */
  private async launchNew(entry: ProcessEntry, autoStart: boolean): Promise<void> {
    const intent = this.restorer?.launchIntent(entry, autoStart);
    if (intent === 'resume') await this.resumeProcess(entry.id);
    else if (intent === 'start' || (intent === undefined && autoStart)) await this.startGated(entry.id);
  }

  private agentWiring(entry: ProcessEntry) {
    return agentWiringForRun(entry, this.mcp?.endpointFor(entry.id));
  }

  private decorate(entry: ProcessEntry, store: DisposableStore): EntryDecoration[] {
    const decorations: EntryDecoration[] = [];
    for (const decorator of this.decorators) {
      const context: DecoratorContext = { projectDir: this.projectDir, earlier: [...decorations] };
      const decoration = decorator(entry, context);
      if (!decoration) continue;
      decorations.push(store.add(decoration));
      store.add(decoration.onDidChange(() => this.markChanged(entry.id)));
    }
    return decorations;
  }

  private track(entry: ProcessEntry): void {
    const store = new DisposableStore();
    const decorationStore = store.add(new DisposableStore());
    const decorations = this.decorate(entry, decorationStore);
    const record: EntryRecord = { entry, decorations, decorationStore, store };
    this.records.set(entry.id, record);
    // A run that starts (by hand, a restart policy) is no longer gated.
    store.add(entry.onDidStartRun(() => this.setGate(entry.id, undefined)));
    this.eventEmitter.fire({ type: 'processAdded', process: this.describe(entry.id) });
    const removal = this.sessions.onDidRemoveEntry((id) => {
      if (id !== entry.id) return;
      removal.dispose();
      store.dispose();
      this.records.delete(id);
      this.access.forget(id);
      this.pendingChanges.delete(id);
      if (this.selectedId === id) this.selectedId = undefined;
      this.eventEmitter.fire({ type: 'processRemoved', id });
    });
    store.add(removal);
  }

  private setGate(id: string, gate: Gate | undefined): void {
    const record = this.records.get(id);
    if (!record || (record.gate === undefined && gate === undefined)) return;
    record.gate = gate;
    this.markChanged(id);
  }

  private markChanged(id: string): void {
    if (this.disposed) return;
    this.pendingChanges.add(id);
    this.changeTimer ??= setTimeout(() => this.flushChanges(), CHANGE_COALESCE_MS);
  }

  private flushChanges(): void {
    this.changeTimer = undefined;
    const ids = [...this.pendingChanges];
    this.pendingChanges.clear();
    for (const id of ids) {
      // sessions.close() drops the entry before processRemoved fires: a change queued in between must not throw from a timer.
      const record = this.records.get(id);
      if (!record || !this.sessions.find(id)) continue;
      const info = this.describe(id);
      this.eventEmitter.fire({ type: 'processChanged', process: info });
      this.entryChangedEmitter.fire(id);
      this.announceWaiting(record, info);
    }
  }

  /** An agent that starts waiting for a person calls one (notification, badge), once per wait. */
  private announceWaiting(record: EntryRecord, info: ProcessInfo): void {
    const isWaiting = info.agent?.primary === 'waiting';
    if (isWaiting && !record.wasWaiting) {
      const reason = info.agent?.detail === 'permission' ? 'Waiting for your permission' : 'Waiting for an answer';
      this.eventEmitter.fire({ type: 'attentionRequested', id: info.id, reason, title: info.name });
    }
    record.wasWaiting = isWaiting;
  }

  private async applyConfig(config: LoadedConfig): Promise<void> {
    this.configIssues = config.issues;
    this.currentSettings = config.settings;
    this.sessions.configure({
      ringBytes: config.settings.outputBufferBytes ?? this.options.ringBytes,
      scrollback: config.settings.scrollbackLines,
      killGraceMs: config.settings.killGraceMs ?? this.options.killGraceMs,
    });
    this.eventEmitter.fire({ type: 'configChanged', issues: config.issues });
    const wanted = new Map<string, { spec: ProcessSpec; autoStart: boolean }>();
    for (const [name, processConfig] of config.processes) {
      wanted.set(`processes.${name}`, {
        spec: processSpecFromConfig(name, processConfig, this.projectDir),
        autoStart: autoStartOf(processConfig),
      });
    }
    for (const [name, agentConfig] of config.agents) {
      wanted.set(`agents.${name}`, agentSpec(name, agentConfig, this.projectDir, { configName: name }));
    }
    await this.reconcile(wanted);
  }

  /**
   * Bring config-created entries in line with the file: add, redefine (restart if running), close.
   * Project trust is asked first: an entry whose command, env, cwd, argv or scopes are not trusted
   * is shown but held — it starts nothing and keeps what it had until the user trusts it.
   */
  private async reconcile(wanted: Map<string, { spec: ProcessSpec; autoStart: boolean }>): Promise<void> {
    const existing = new Map(
      this.sessions
        .list()
        .filter((e) => e.definition.configName)
        .map((e) => [configKey(e), e]),
    );
    this.trust.retainOnly(new Set(wanted.keys()));
    const work: Promise<unknown>[] = [];
    for (const [key, entry] of existing) {
      if (!wanted.has(key)) work.push(this.closeProcess(entry.id));
    }
    const toStart: Array<{ entry: ProcessEntry; autoStart: boolean }> = [];
    for (const [key, { spec, autoStart }] of wanted) {
      const entry = existing.get(key);
      const previous = entry && this.trust.isTrusted(key, entry.definition) ? entry.definition : undefined;
      const trusted = this.trust.admit({ key, spec, autoStart, ...(previous ? { previous } : {}) });
      if (!entry) {
        const created = this.sessions.create(spec, this.restorer?.idFor(key));
        if (trusted) toStart.push({ entry: created, autoStart });
      } else if (!sameDefinition(entry.definition, spec) && (trusted || !previous)) {
        // A held entry that never ran shows its newest definition; a trusted one keeps what it runs.
        work.push(this.redefine(entry, spec, trusted));
      }
    }
    // Every new entry exists before any starts: a dependency may be declared after its dependent.
    for (const { entry, autoStart } of toStart) work.push(this.launchNew(entry, autoStart).catch(() => undefined)); // error state already shows why
    await Promise.all(work);
  }

  /**
   * A config edit of an existing entry: its new rules (readiness, restart policy, stuck
   * threshold) apply from now on, so its decorations are built again from the new definition; a
   * running entry whose run changed restarts once. A change of start order alone restarts nothing.
   */
  private async redefine(entry: ProcessEntry, spec: ProcessSpec, mayRestart = true): Promise<void> {
    const needsRestart = mayRestart && entry.isRunning && !sameSpec(entry.definition, spec);
    entry.redefine(spec);
    this.rebuildDecorations(entry.id);
    if (needsRestart) await entry.restart().catch(() => undefined); // the entry shows a spawn error itself
  }

  private rebuildDecorations(id: string): void {
    const record = this.records.get(id);
    if (!record) return;
    record.store.delete(record.decorationStore);
    record.decorationStore = record.store.add(new DisposableStore());
    record.decorations = this.decorate(record.entry, record.decorationStore);
    this.markChanged(id);
  }
}

/** `agents.<name>` / `processes.<name>`: a switchboard.json entry's key across reloads and restarts. */
export function configKey(entry: Pick<ProcessEntry, 'kind' | 'definition'>): string {
  return `${entry.kind === 'agent' ? 'agents' : 'processes'}.${entry.definition.configName}`;
}

function autoStartOf(config: ProcessConfig): boolean {
  return config.autoStart ?? true;
}

function defaultShell(): string {
  return process.env.SHELL || '/bin/bash';
}

function defaultName(kind: ProcessKind, commandLine: string, n: number): string {
  if (kind === 'terminal') return `terminal ${n}`;
  return commandLine.length > 40 ? `${commandLine.slice(0, 39)}…` : commandLine;
}

/** A GUI editor (or its launcher, like `code`) runs on its own: the app waits only until it started. */
function launchDetached(argv: string[], cwd: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const [command = '', ...args] = argv;
    const child = spawn(command, args, { cwd, detached: true, stdio: 'ignore' });
    child.once('error', (err) => reject(new SwitchboardError('spawn_failed', `Editor ${argv[0]} could not start: ${err.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolvePromise();
    });
  });
}
