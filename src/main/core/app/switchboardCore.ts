/**
 * The façade of the Electron-free core: the one set of methods the UI (IPC), the `serve` bridge
 * and MCP tools call. It holds no logic of its own: each command goes to the service that owns it
 * (entries, config, starts, readiness, agent turns, editor) or to a capability's service found by
 * its key. Capabilities join through `capabilities` (base/capability.ts).
 */
import { basename, resolve } from 'node:path';
import { DisposableStore, Emitter, ServiceRegistry, type Disposable, type Event } from '../base';
import {
  SessionManager,
  type DecorationKey,
  type EntryDecoration,
  type EntryDecorator,
  type ProcessEntry,
  type TaggedBatch,
} from '../sessions';
import { TIMERS, type TimerManager } from '../timers';
import { TASKS, type TaskService } from '../tasks';
import { WORKTREES, type WorktreeService } from '../worktrees';
import { ReadinessCommands, type RestartAndWaitOptions } from '../ready';
import { AgentTurns } from '../inbox';
import { openInEditor } from '../editor';
import { isOnPath, proposeConfig } from '../projects';
import { EntryAccess, MemoryTrustStore, ProjectTrust } from '../trust';
import { MemoryUiStateStore, updateUiState, type UiStateStore } from '../uistate';
import type { ConfigIssue, ProcessConfig, Settings } from '../../../shared/config';
import type { BudgetConfig } from '../../../shared/budget';
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
import { EntryRegistry, decoratedSessions } from './entryRegistry';
import { EntryLauncher, type SpawnFromConfigArgs, type SpawnOrigin } from './entryLauncher';
import { ConfigReconciler } from './configReconciler';
import { CapabilityLifecycle } from './capabilityLifecycle';
import type { CoreOptions } from './coreOptions';
import { PortAllocator } from '../runtime';

export type SwitchboardCoreOptions = CoreOptions<SwitchboardCore>;

export class SwitchboardCore {
  readonly projectDir: string;
  readonly trust: ProjectTrust;
  /** Who spawned whom, and the scopes of each entry's MCP token. */
  readonly access = new EntryAccess();
  /** The services the capabilities provide, by key (tasks, timers, continuity, the MCP connection). */
  readonly services = new ServiceRegistry();
  /** Ports of `${port}` entries and of every worktree's instances (docs/runtime.md). */
  readonly ports: PortAllocator;
  private readonly sessions: SessionManager;
  private readonly registry: EntryRegistry;
  private readonly launcher: EntryLauncher;
  private readonly config: ConfigReconciler;
  private readonly readiness: ReadinessCommands;
  private readonly turns: AgentTurns;
  private readonly store = new DisposableStore();
  private readonly lifecycle = new CapabilityLifecycle<SwitchboardCore>();
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
    this.sessions = decoratedSessions(options, (id) => this.registry.decorationsOf(id));
    this.onDidFlushOutput = this.sessions.onDidFlushOutput;
    this.onDidAddEntry = this.sessions.onDidAddEntry;
    this.onDidRemoveEntry = this.sessions.onDidRemoveEntry;
    this.trust = options.trust ?? new ProjectTrust(this.projectDir, new MemoryTrustStore(), { trustEverything: true });
    const { sessions, trust, access, projectDir } = this;
    const emit = (event: ControlEvent) => this.eventEmitter.fire(event);
    const restorer = () => this.services.find(ENTRY_RESTORER);
    const registry = (this.registry = new EntryRegistry({ projectDir, sessions, access, trust, emit }));
    this.turns = new AgentTurns(this, options.instructionsReadyTimeoutMs);
    const launcher = (this.launcher = new EntryLauncher({
      projectDir,
      sessions,
      registry,
      trust,
      access,
      turns: this.turns,
      restorer,
      worktrees: () => this.worktrees,
      configuredProcesses: () => this.config.processes(),
      configuredAgents: () => this.config.agents(),
    }));
    const limits = { ringBytes: options.ringBytes, killGraceMs: options.killGraceMs };
    const ports = (this.ports = options.ports ?? new PortAllocator());
    this.config = new ConfigReconciler({ projectDir, sessions, registry, launcher, trust, limits, restorer, emit, ports });
    this.readiness = new ReadinessCommands(registry, launcher);
    // Last: capabilities subscribe to the core's entries and events, which needs everything above.
    this.lifecycle.attachAll(options.capabilities ?? [], this, (attached) => this.store.add(attached));
  }

  /** Decorates every entry created from now on, under `key` (capabilities call this when they attach). */
  addEntryDecorator<D extends EntryDecoration>(key: DecorationKey<D>, decorator: EntryDecorator<D>): Disposable {
    return this.registry.addEntryDecorator(key, decorator);
  }

  /** Tasks: headless agent runs with a stall watchdog; the logic lives in core/tasks. */
  get tasks(): TaskService {
    return this.services.find(TASKS) ?? notBuiltWith('Tasks', 'them');
  }

  /** Worktrees (docs/worktrees.md): the one service the UI, MCP and the control API call. */
  get worktrees(): WorktreeService {
    return this.services.find(WORKTREES) ?? notBuiltWith('Worktrees', 'them');
  }

  /** Timers (docs/timers.md): the one manager the UI commands and the MCP tools call. */
  get timers(): TimerManager {
    const manager = this.services.find(TIMERS);
    return manager && !manager.isDisposed ? manager : notBuiltWith('Timers', 'a timer manager');
  }

  /**
   * The capabilities' set-up before entries exist, then load switchboard.json, create its entries,
   * start the auto-start ones, watch for edits, then the capabilities' set-up that needs the entries.
   */
  async init(): Promise<void> {
    await this.lifecycle.beforeInit();
    await this.config.load();
    if (this.options.watchConfig !== false) this.store.add(this.config.watch(() => this.reloadConfig()));
    await this.lifecycle.afterInit();
  }

  /** First run: what to run here, from the project's own manifests (empty once switchboard.json exists). */
  proposeConfig(): ConfigProposal {
    return proposeConfig(this.projectDir, { isOnPath: (command) => isOnPath(command) });
  }

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

  get settings(): Readonly<Settings> {
    return this.config.settings;
  }

  /** The project's budget from switchboard.json (docs/usage.md, "Budgets"). */
  get projectBudget(): BudgetConfig | undefined {
    return this.config.projectBudget;
  }

  get issues(): ConfigIssue[] {
    return this.config.issues;
  }

  /** switchboard.json's processes as last loaded (and admitted through trust). */
  configuredProcesses(): ReadonlyMap<string, ProcessConfig> {
    return this.config.processes();
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

  /** A new entry; one another entry made (`spawnedBy`) is its spawner's and runs in its spawner's sandbox. */
  createEntry(spec: ProcessSpec, spawnedBy?: string): ProcessEntry {
    return this.launcher.createSpawned(spec, spawnedBy);
  }

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

  async createAndStart(spec: ProcessSpec, origin: SpawnOrigin = {}): Promise<ProcessInfo> {
    return this.describe((await this.launcher.createAndStart(spec, origin)).id);
  }

  /** Another instance of a switchboard.json process (`preset`), from the config as loaded. */
  async spawnFromConfig(preset: string, args: SpawnFromConfigArgs, origin: SpawnOrigin = {}): Promise<ProcessInfo> {
    return this.describe((await this.launcher.spawnFromConfig(preset, args, origin)).id);
  }

  /** Create and start an agent from a preset; its instructions are typed once it shows its prompt. */
  async spawnAgent(args: CommandArgsOf<'spawnAgent'>, origin: SpawnOrigin = {}): Promise<ProcessInfo> {
    return this.describe((await this.launcher.spawnAgent(args, origin)).id);
  }

  statusTrackerOf(id: string) {
    return this.turns.statusOf(id).tracker;
  }

  resumeProcess(id: string): Promise<ProcessInfo> {
    return this.launcher.resume(id).then(() => this.describe(id));
  }

  restoreEntry(spec: ProcessSpec, id: string): Promise<ProcessEntry> {
    return this.launcher.restoreEntry(spec, id);
  }

  startProcess(id: string): Promise<ProcessInfo> {
    return this.launcher.start(id).then(() => this.describe(id));
  }

  trustAndStart(id: string): Promise<ProcessInfo> {
    return this.config.trustAndStart(id).then(() => this.describe(id));
  }

  trustState(): ProjectTrustState {
    return this.trust.state();
  }

  grantTrust(keys?: readonly string[], options: { startHeld?: boolean } = {}): Promise<ProjectTrustState> {
    return this.config.grantTrust(keys, options);
  }

  /** A person grants scopes to an entry's token (the UI); they last as long as the entry. */
  grantScopes(id: string, scopes: readonly McpScope[]): { id: string; scopes: McpScope[] } {
    return this.registry.grantScopes(id, scopes);
  }

  scopesOf(id: string): McpScope[] {
    return this.registry.scopesOf(id);
  }

  stopProcess(id: string, signal?: NodeJS.Signals): Promise<ProcessInfo> {
    return this.launcher.stop(id, signal).then(() => this.describe(id));
  }

  restartProcess(id: string, signal?: NodeJS.Signals): Promise<ProcessInfo> {
    return this.launcher.restart(id, signal).then(() => this.describe(id));
  }

  restartAndWait(id: string, options: RestartAndWaitOptions = {}): Promise<ReadinessResult> {
    return this.readiness.restartAndWait(id, options);
  }

  waitForReady(id: string, timeoutMs?: number, abort?: AbortSignal, onProgress?: (p: ReadinessProgress) => void): Promise<ReadinessResult> {
    return this.readiness.waitForReady(id, timeoutMs, abort, onProgress);
  }

  checkReady(id: string): ReadinessCheck {
    return this.readiness.checkReady(id);
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

  startTask(request: TaskRequest, origin: SpawnOrigin = {}): Promise<TaskView> {
    return this.tasks.start(request, origin.spawnedBy);
  }

  getTask(id: string): TaskView {
    return this.tasks.get(id);
  }

  cancelTask(id: string): Promise<TaskView> {
    return this.tasks.cancel(id);
  }

  waitForTask(id: string, timeoutMs: number, abort?: AbortSignal, onProgress?: (progress: TaskProgress) => void): Promise<TaskWaitResult> {
    return this.tasks.wait(id, timeoutMs, abort, onProgress);
  }

  sendUserTurn(id: string, text: string): Promise<void> {
    return this.turns.sendUserTurn(id, text);
  }

  /** A turn Switchboard sends on its own behalf (`what` names it): held at the agent's budget (docs/usage.md, "Budgets"). */
  sendAutomatedTurn(id: string, text: string, what: string): Promise<void> {
    return this.turns.sendAutomatedTurn(id, text, what);
  }

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
    return updateUiState(this.uiStateStore, patch);
  }

  /** Open a project file in the configured editor; the renderer names only the file, never the command. */
  openInEditor(request: CommandArgsOf<'openInEditor'>): Promise<{ file: string; editor: string }> {
    return openInEditor(this, request, this.options.editorEnv ?? process.env);
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
    return this.registry.needsAttentionCount();
  }

  listWaiting(): WaitingAgent[] {
    return this.turns.listWaiting();
  }

  answerPrompt(args: AnswerPromptArgs): Promise<AnswerPromptResult> {
    return this.turns.answerPrompt(args);
  }

  isOpen(id: string): boolean {
    return !this.disposed && this.registry.has(id);
  }

  /** SIGKILL every process tree now, synchronously (a second signal, a fatal error). */
  killAllNow(): void {
    this.sessions.killAllNow();
  }

  /** The capabilities' shutdown steps (last attached first) while the entries still run, then every process tree goes down. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.registry.mute();
    const failure = await this.lifecycle.beforeShutdown();
    await this.sessions.dispose();
    this.registry.dispose();
    this.store.dispose();
    this.trust.dispose();
    if (failure !== undefined) throw failure;
  }
}

function notBuiltWith(what: string, without: string): never {
  throw new SwitchboardError('internal', `${what} are not available in this Switchboard core (it was built without ${without}).`);
}
