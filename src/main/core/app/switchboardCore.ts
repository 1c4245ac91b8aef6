/**
 * The façade of the Electron-free core: the one set of methods the UI (IPC), the `serve` bridge
 * and MCP tools call. It holds no logic of its own: each command goes to the service that owns it
 * (entries, config, starts, readiness, agent turns, editor) or to a capability's service found by
 * its key. Capabilities join through `capabilities` (base/capability.ts).
 */
import { basename, resolve } from 'node:path';
import { DisposableStore, Emitter, ServiceRegistry, type AttachedCapability, type Capability, type Disposable, type Event } from '../base';
import {
  SessionManager,
  type DecorationKey,
  type EntryDecoration,
  type EntryDecorator,
  type ProcessEntry,
  type TaggedBatch,
} from '../sessions';
import { ConfigWatcher } from '../config';
import { TIMERS, type TimerManager } from '../timers';
import { TASKS, type TaskService } from '../tasks';
import { ReadinessCommands, type RestartAndWaitOptions } from '../ready';
import { AgentTurns } from '../inbox';
import { openInEditor } from '../editor';
import { isOnPath, proposeConfig } from '../projects';
import { EntryAccess, MemoryTrustStore, ProjectTrust } from '../trust';
import { MemoryUiStateStore, applyUiStatePatch, type UiStateStore } from '../uistate';
import type { ConfigIssue, Settings } from '../../../shared/config';
import type { ProcessInfo, ProcessKind, ProcessSpec } from '../../../shared/model';
import type { CommandArgsOf, ControlEvent, Snapshot } from '../../../shared/api';
import type { TaskProgress, TaskRequest, TaskView, TaskWaitResult } from '../../../shared/task';
import type { ReadinessCheck, ReadinessProgress, ReadinessResult } from '../../../shared/ready';
import type { ConfigProposal, ProposedEntry } from '../../../shared/proposal';
import type { McpScope, ProjectTrustState } from '../../../shared/trust';
import type { UiState, UiStatePatch } from '../../../shared/uiState';
import type { AnswerPromptArgs, AnswerPromptResult, WaitingAgent } from '../../../shared/inbox';
import { SwitchboardError } from '../../../shared/errors';
import { ENTRY_RESTORER, MCP_CONNECTION } from './coreServices';
import { EntryRegistry } from './entryRegistry';
import { EntryLauncher, type SpawnOrigin } from './entryLauncher';
import { ConfigReconciler } from './configReconciler';
import { PortAllocator } from '../runtime';

export interface SwitchboardCoreOptions {
  projectDir: string;
  killGraceMs?: number;
  ringBytes?: number;
  /**
   * What the core is built with (readiness, agent status, tasks, continuity, timers, MCP, …),
   * attached in this order at the end of the constructor; the composition root lists them. A core
   * built without one answers its commands with a clear error.
   */
  capabilities?: readonly Capability<SwitchboardCore>[];
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
}

export class SwitchboardCore {
  readonly projectDir: string;
  readonly trust: ProjectTrust;
  /** Who spawned whom, and the scopes of each entry's MCP token. */
  readonly access = new EntryAccess();
  /** The services the capabilities provide, by key (tasks, timers, continuity, the MCP connection). */
  readonly services = new ServiceRegistry();
  private readonly sessions: SessionManager;
  private readonly registry: EntryRegistry;
  private readonly launcher: EntryLauncher;
  private readonly config: ConfigReconciler;
  private readonly readiness: ReadinessCommands;
  private readonly turns: AgentTurns;
  private readonly store = new DisposableStore();
  private readonly attached: AttachedCapability[] = [];
  private readonly uiStateStore: UiStateStore;
  private disposed = false;
  private readonly eventEmitter = this.store.add(new Emitter<ControlEvent>());
  /** Every state event (not output): processAdded/Changed/Removed, configChanged, … */
  readonly onEvent: Event<ControlEvent> = this.eventEmitter.event;
  /** Batched output of every entry, tagged with its id. */
  readonly onDidFlushOutput: Event<TaggedBatch>;
  /** An entry was created (before any decoration or listener of the core sees it). */
  readonly onDidAddEntry: Event<ProcessEntry>;
  readonly onDidRemoveEntry: Event<string>;

  constructor(private readonly options: SwitchboardCoreOptions) {
    this.projectDir = resolve(options.projectDir);
    this.uiStateStore = options.uiState ?? new MemoryUiStateStore();
    const runDecorations = (entry: ProcessEntry) => this.registry.decorationsOf(entry.id);
    this.sessions = new SessionManager({
      killGraceMs: options.killGraceMs,
      ringBytes: options.ringBytes,
      envForRun: (entry) => runDecorations(entry).reduce<Record<string, string>>((env, d) => ({ ...env, ...d.envForRun?.() }), {}),
      argsForRun: (entry) => runDecorations(entry).flatMap((d) => d.argsForRun?.() ?? []),
      argvForRun: (entry, argv) => runDecorations(entry).reduce((run, d) => d.argvForRun?.(run) ?? run, [...argv]),
    });
    this.onDidFlushOutput = this.sessions.onDidFlushOutput;
    this.onDidAddEntry = this.sessions.onDidAddEntry;
    this.onDidRemoveEntry = this.sessions.onDidRemoveEntry;
    this.trust = options.trust ?? new ProjectTrust(this.projectDir, new MemoryTrustStore(), { trustEverything: true });
    this.store.add(this.trust.onDidChange(() => this.trustChanged()));
    const { sessions, trust, access, projectDir } = this;
    const emit = (event: ControlEvent) => this.eventEmitter.fire(event);
    const restorer = () => this.services.find(ENTRY_RESTORER);
    this.registry = new EntryRegistry({ projectDir, sessions, access, trust, emit });
    this.turns = new AgentTurns(this, options.instructionsReadyTimeoutMs);
    this.launcher = new EntryLauncher({ projectDir, sessions, registry: this.registry, trust, access, turns: this.turns, restorer });
    const limits = { ringBytes: options.ringBytes, killGraceMs: options.killGraceMs };
    this.config = new ConfigReconciler({
      projectDir,
      sessions,
      registry: this.registry,
      launcher: this.launcher,
      trust,
      limits,
      restorer,
      emit,
      ports: options.ports ?? new PortAllocator(),
    });
    this.readiness = new ReadinessCommands({
      runnable: (id) => this.launcher.runnable(id),
      decorationOf: (id, key) => this.decorationOf(id, key),
      restartWithDependencies: (id, signal) => this.launcher.restartRun(id, signal, true),
      gateOf: (id) => this.registry.gateOf(id),
    });
    // Last: capabilities subscribe to the core's entries and events, which needs everything above.
    for (const capability of options.capabilities ?? []) this.attached.push(this.store.add(capability.attach(this)));
  }

  /** Decorates every entry created from now on, under `key` (capabilities call this when they attach). */
  addEntryDecorator<D extends EntryDecoration>(key: DecorationKey<D>, decorator: EntryDecorator<D>): Disposable {
    return this.registry.addEntryDecorator(key, decorator);
  }

  /** Tasks: headless agent runs with a stall watchdog; the logic lives in core/tasks. */
  get tasks(): TaskService {
    const service = this.services.find(TASKS);
    if (!service) throw new SwitchboardError('internal', 'Tasks are not available in this Switchboard core (it was built without them).');
    return service;
  }

  /** Timers (docs/timers.md): the one manager the UI commands and the MCP tools call. */
  get timers(): TimerManager {
    const manager = this.services.find(TIMERS);
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
    await this.config.load();
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

  /** Writes the entries a person kept as switchboard.json, trusted, and loads it. Only the UI reaches this (not MCP). */
  writeConfig(entries: readonly ProposedEntry[]): Promise<{ path: string }> {
    return this.config.write(entries);
  }

  async reloadConfig(): Promise<void> {
    if (!this.disposed) await this.config.load();
  }

  /** The previous app run's output of an entry, as saved; undefined without one (or without continuity). */
  previousOutput(id: string): string | undefined {
    return this.services.find(ENTRY_RESTORER)?.previousOutput(id);
  }

  /** switchboard.json `settings` as last loaded. */
  get settings(): Readonly<Settings> {
    return this.config.settings;
  }

  get issues(): ConfigIssue[] {
    return this.config.issues;
  }

  snapshot(): Snapshot {
    return {
      project: { dir: this.projectDir, name: basename(this.projectDir) },
      processes: this.listProcesses(),
      configIssues: this.config.issues,
      mcp: this.services.find(MCP_CONNECTION),
      selectedId: this.registry.selectedId,
      trust: this.trust.state(),
    };
  }

  listProcesses(kind?: ProcessKind): ProcessInfo[] {
    return this.registry.list(kind);
  }

  entry(id: string): ProcessEntry {
    return this.sessions.get(id);
  }

  findEntry(id: string): ProcessEntry | undefined {
    return this.sessions.find(id);
  }

  entries(): ProcessEntry[] {
    return this.sessions.list();
  }

  /** A new entry, not started (tasks start their own runs). */
  createEntry(spec: ProcessSpec): ProcessEntry {
    return this.sessions.create(spec);
  }

  /** The entry's decoration under `key`, or undefined if that capability does not decorate it. */
  decorationOf<D extends EntryDecoration>(id: string, key: DecorationKey<D>): D | undefined {
    return this.registry.decorationOf(id, key);
  }

  describe(id: string): ProcessInfo {
    return this.registry.describe(id);
  }

  /** Create and start a command or terminal entry. A spawn failure keeps the entry (in error) and throws. */
  async spawnProcess(args: CommandArgsOf<'spawnProcess'>, origin: SpawnOrigin = {}): Promise<ProcessInfo> {
    return this.describe((await this.launcher.spawnProcess(args, origin)).id);
  }

  /** Create an entry from a full spec (agents, tasks) and start it. */
  async createAndStart(spec: ProcessSpec, origin: SpawnOrigin = {}): Promise<ProcessInfo> {
    return this.describe((await this.launcher.createAndStart(spec, origin)).id);
  }

  /** Create and start an agent from a preset; its instructions are typed once it shows its prompt. */
  async spawnAgent(args: CommandArgsOf<'spawnAgent'>, origin: SpawnOrigin = {}): Promise<ProcessInfo> {
    return this.describe((await this.launcher.spawnAgent(args, origin)).id);
  }

  /** The status tracker of an agent entry (timers, MCP hooks, explain). */
  statusTrackerOf(id: string) {
    return this.turns.statusOf(id).tracker;
  }

  /** Start a stopped agent again with its CLI's resume arguments: the conversation continues. */
  async resumeProcess(id: string): Promise<ProcessInfo> {
    await this.launcher.resume(id);
    return this.describe(id);
  }

  /** An entry of a previous app run (spawned at run time), with its id; started, resumed or left stopped per its policy. */
  restoreEntry(spec: ProcessSpec, id: string): Promise<ProcessEntry> {
    return this.launcher.restoreEntry(spec, id);
  }

  /** Start an entry, after what it depends on (`dependsOn`); resolves once it started or was kept from starting. */
  async startProcess(id: string): Promise<ProcessInfo> {
    await this.launcher.start(id);
    return this.describe(id);
  }

  /** Trust a config entry as it is now and start it: the UI's Start of an untrusted entry, once the prompt showed its command. */
  async trustAndStart(id: string): Promise<ProcessInfo> {
    await this.config.trustAndStart(id);
    return this.describe(id);
  }

  /** What waits for trust, and what the project may run. */
  trustState(): ProjectTrustState {
    return this.trust.state();
  }

  /** Trust held config entries (all when `keys` is absent). Only the UI, the command line and the app token reach this. */
  grantTrust(keys?: readonly string[], options: { startHeld?: boolean } = {}): Promise<ProjectTrustState> {
    return this.config.grantTrust(keys, options);
  }

  /** A person grants scopes to an entry's token (the UI); they last as long as the entry. */
  grantScopes(id: string, scopes: readonly McpScope[]): { id: string; scopes: McpScope[] } {
    this.sessions.get(id);
    this.access.grant(id, scopes);
    this.registry.markChanged(id);
    return { id, scopes: this.scopesOf(id) };
  }

  /** The scopes an entry's token carries now. */
  scopesOf(id: string): McpScope[] {
    return this.access.scopesOf(id, this.sessions.get(id).definition.mcp?.scopes);
  }

  async stopProcess(id: string, signal?: NodeJS.Signals): Promise<ProcessInfo> {
    await this.launcher.stop(id, signal);
    return this.describe(id);
  }

  async restartProcess(id: string, signal?: NodeJS.Signals): Promise<ProcessInfo> {
    await this.launcher.restart(id, signal);
    return this.describe(id);
  }

  /** Restart and, for command entries, wait until the new run is ready (docs/readiness.md); never throws for a failed start. */
  restartAndWait(id: string, options: RestartAndWaitOptions = {}): Promise<ReadinessResult> {
    return this.readiness.restartAndWait(id, options);
  }

  /** Wait for the current run of a command entry to be ready (check_process_ready with waiting). */
  waitForReady(id: string, timeoutMs?: number, abort?: AbortSignal, onProgress?: (p: ReadinessProgress) => void): Promise<ReadinessResult> {
    return this.readiness.waitForReady(id, timeoutMs, abort, onProgress);
  }

  checkReady(id: string): ReadinessCheck {
    return this.readiness.checkReady(id);
  }

  readinessTrackerOf(id: string) {
    return this.readiness.trackerOf(id);
  }

  async closeProcess(id: string): Promise<{ closed: true }> {
    await this.launcher.close(id);
    return { closed: true };
  }

  renameProcess(id: string, name: string): ProcessInfo {
    this.sessions.get(id).rename(name);
    return this.describe(id);
  }

  selectProcess(id: string): { selected: string } {
    this.registry.select(id);
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

  /** Types `text` into an entry as a fresh user turn: the one path for agent instructions, send_message and timer delivery. */
  sendUserTurn(id: string, text: string): Promise<void> {
    return this.turns.sendUserTurn(id, text);
  }

  /** Type `text` as a fresh user turn once the agent is idle at its prompt. */
  typeWhenIdle(id: string, text: string, timeoutMs?: number): Promise<void> {
    return this.turns.typeWhenIdle(id, text, timeoutMs);
  }

  /** How long Enter waits after the echo of typed text: the agent preset's pause, the default for anything else. */
  submitAfterEchoMs(id: string): number {
    return this.turns.submitAfterEchoMs(id);
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

  /** Open a project file in the configured editor; the renderer names only the file, never the command. */
  openInEditor(request: CommandArgsOf<'openInEditor'>): Promise<{ file: string; editor: string }> {
    const host = {
      projectDir: this.projectDir,
      cwdOf: (id: string) => this.sessions.get(id).definition.cwd,
      openTerminal: (argv: string[], name: string) => this.spawnProcess({ kind: 'terminal', argv, name, cwd: this.projectDir }),
    };
    return openInEditor(host, request, this.options.editorEnv ?? process.env);
  }

  requestAttention(id: string, reason: string, requestedBy: string): ProcessInfo {
    return this.registry.requestAttention(id, reason, requestedBy);
  }

  acknowledgeAttention(id: string): null {
    this.registry.acknowledgeAttention(id);
    return null;
  }

  /** Entries that need a person (dock badge): attention flags and agents waiting for an answer. */
  needsAttentionCount(): number {
    return this.listProcesses().filter((p) => p.attention || p.agent?.primary === 'waiting').length;
  }

  /** The attention inbox: every waiting agent with what it asks, the one waiting longest first. */
  listWaiting(): WaitingAgent[] {
    return this.turns.listWaiting();
  }

  /** Answer an agent's prompt from the inbox: sent only while the same prompt is on its screen. */
  answerPrompt(args: AnswerPromptArgs): Promise<AnswerPromptResult> {
    return this.turns.answerPrompt(args);
  }

  /** Whether the entry still exists in a core that is not shutting down. */
  isOpen(id: string): boolean {
    return !this.disposed && this.registry.has(id);
  }

  /** Every process tree gets SIGKILL now, synchronously: for a second signal or a fatal error. */
  killAllNow(): void {
    this.sessions.killAllNow();
  }

  /** The capabilities' shutdown steps (last attached first) while the entries still run, then every process tree goes down. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.registry.mute();
    let failure: Error | undefined;
    for (const capability of [...this.attached].reverse()) {
      // One capability failing to save must not keep the process trees alive.
      await capability.beforeShutdown?.().catch((err: unknown) => (failure ??= err instanceof Error ? err : new Error(String(err))));
    }
    await this.sessions.dispose();
    this.registry.dispose();
    this.store.dispose();
    this.trust.dispose();
    if (failure !== undefined) throw failure;
  }

  private trustChanged(): void {
    if (this.disposed) return;
    this.eventEmitter.fire({ type: 'trustChanged', trust: this.trust.state() });
    for (const entry of this.sessions.list()) if (entry.definition.configName) this.registry.markChanged(entry.id);
  }
}
