/**
 * The composition root of the Electron-free core: sessions, config, decorating capabilities.
 * The UI (IPC), the `serve` bridge and MCP tools all call these methods; nothing is implemented
 * twice.
 */
import { basename, resolve } from 'node:path';
import { DisposableStore, Emitter, waitForEvent, type Event } from '../base/lifecycle';
import { SessionManager, type ProcessEntry, type TaggedBatch } from '../sessions';
import { ConfigWatcher, loadConfig, processSpecFromConfig, sameSpec, type LoadedConfig } from '../config';
import type { ConfigIssue, ProcessConfig } from '../../../shared/config';
import type { ProcessInfo, ProcessKind, ProcessSpec } from '../../../shared/model';
import type { CommandArgsOf, ControlEvent, Snapshot, McpConnectionInfo } from '../../../shared/api';
import { InvalidArgumentError, SwitchboardError } from '../../../shared/errors';
import type { DecoratorContext, EntryDecoration, EntryDecorator } from './entryDecoration';
import type { AgentConfig } from '../../../shared/agentConfig';
import type { McpEndpoint } from '../agents';
import { AgentStatusDecoration, agentSpec, agentStatusDecorator, agentWiringForRun } from './agentEntries';
import { ReadinessDecoration, readinessDecorator } from './readinessEntries';
import { autoRestartDecorator } from './autoRestart';
// Tasks (issue 7): the decorator and service live in core/tasks.
import { TaskService, taskDecorator } from '../tasks';
import type { TaskProgress, TaskRequest, TaskView, TaskWaitResult } from '../../../shared/task';
import type { ReadinessCheck, ReadinessProgress, ReadinessResult } from '../../../shared/ready';
import { typeUserTurn } from '../sessions/userTurn';
import { AgentSessionDecoration, agentSessionDecorator } from '../continuity/agentSession';
import type { Settings } from '../../../shared/config';

/** How an entry of a previous app run comes back; set by the continuity capability. */
export interface EntryRestorer {
  /** The id a switchboard.json entry had in the previous app run. */
  idFor(configKey: string): string | undefined;
  /** For a restored entry: resume, start or leave it stopped; undefined for new entries (autoStart decides). */
  launchIntent(entry: ProcessEntry, autoStart: boolean): 'resume' | 'start' | 'none' | undefined;
}

/** Coalesce bursts of entry changes (title spinners, state flips) into one event per frame. */
export const CHANGE_COALESCE_MS = 16;

export interface SwitchboardCoreOptions {
  projectDir: string;
  killGraceMs?: number;
  ringBytes?: number;
  decorators?: EntryDecorator[];
  /** Extra env per run (MCP identity). */
  envForRun?: (entry: ProcessEntry) => Record<string, string>;
  /**
   * The MCP endpoint an entry reaches Switchboard at, with its own token (set by the MCP side).
   * Agent entries get it wired into their CLI's MCP configuration at every start.
   */
  mcpEndpointFor?: (entryId: string) => McpEndpoint | undefined;
  /** Watch switchboard.json for edits (default true). */
  watchConfig?: boolean;
}

/** Default readiness wait for restart_process (SPEC §5: ready_timeout default 30 s). */
export const DEFAULT_READY_WAIT_MS = 30_000;

/** How long spawnAgent waits for a fresh agent's prompt before typing its instructions. */
export const INSTRUCTIONS_READY_TIMEOUT_MS = 60_000;

interface EntryRecord {
  entry: ProcessEntry;
  decorations: EntryDecoration[];
  attention?: ProcessInfo['attention'];
  wasWaiting?: boolean;
  store: DisposableStore;
}

export class SwitchboardCore {
  readonly projectDir: string;
  readonly sessions: SessionManager;
  private readonly records = new Map<string, EntryRecord>();
  private readonly store = new DisposableStore();
  private readonly decorators: EntryDecorator[];
  private configIssues: ConfigIssue[] = [];
  private pendingChanges = new Set<string>();
  private changeTimer: NodeJS.Timeout | undefined;
  private selectedId: string | undefined;
  private mcpInfo: McpConnectionInfo | undefined;
  private disposed = false;
  private restorer: EntryRestorer | undefined;
  private currentSettings: Settings = {};

  private readonly eventEmitter = this.store.add(new Emitter<ControlEvent>());
  /** Every state event (not output): processAdded/Changed/Removed, configChanged, … */
  readonly onEvent: Event<ControlEvent> = this.eventEmitter.event;
  /** Batched output of every entry, tagged with its id. */
  readonly onBatch: Event<TaggedBatch>;

  constructor(private readonly options: SwitchboardCoreOptions) {
    this.projectDir = resolve(options.projectDir);
    // Order matters for describe(): later decorations override fields of earlier ones.
    this.decorators = [
      readinessDecorator,
      autoRestartDecorator,
      agentStatusDecorator,
      agentSessionDecorator,
      taskDecorator,
      ...(options.decorators ?? []),
    ];
    this.sessions = new SessionManager({
      killGraceMs: options.killGraceMs,
      ringBytes: options.ringBytes,
      envForRun: (entry) => ({ ...options.envForRun?.(entry), ...this.agentWiring(entry).env }),
      argsForRun: (entry) => this.agentWiring(entry).args,
      argvForRun: (entry, argv) => this.sessionOf(entry.id)?.argvForRun(argv) ?? [...argv],
    });
    this.onBatch = this.sessions.onBatch;
    this.store.add(this.sessions.onDidAddEntry((entry) => this.track(entry)));
    this.store.add(this.sessions.onDidChangeEntry((entry) => this.markChanged(entry.id)));
  }

  /** Load switchboard.json, create its entries, start the auto-start ones, watch for edits. */
  async init(): Promise<void> {
    await this.applyConfig(loadConfig(this.projectDir));
    if (this.options.watchConfig !== false) {
      const watcher = this.store.add(new ConfigWatcher(this.projectDir));
      this.store.add(watcher.onDidChange(() => void this.reloadConfig()));
    }
  }

  async reloadConfig(): Promise<void> {
    if (this.disposed) return;
    await this.applyConfig(loadConfig(this.projectDir));
  }

  /** Entries of a previous app run come back through `restorer` (before init). */
  setRestorer(restorer: EntryRestorer): void {
    this.restorer = restorer;
  }

  /** switchboard.json `settings` as last loaded. */
  get settings(): Readonly<Settings> {
    return this.currentSettings;
  }

  setMcpInfo(info: McpConnectionInfo | undefined): void {
    this.mcpInfo = info;
  }

  snapshot(): Snapshot {
    return {
      project: { dir: this.projectDir, name: basename(this.projectDir) },
      processes: this.listProcesses(),
      configIssues: this.configIssues,
      mcp: this.mcpInfo,
      selectedId: this.selectedId,
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
    for (const decoration of record?.decorations ?? []) info = { ...info, ...decoration.describe() };
    if (record?.attention) info.attention = record.attention;
    return info;
  }

  /** Create and start a command or terminal entry. A spawn failure keeps the entry (in error) and throws. */
  async spawnProcess(args: CommandArgsOf<'spawnProcess'>): Promise<ProcessInfo> {
    if (args.argv && args.shell) throw new InvalidArgumentError('Give either argv or shell, not both');
    if (args.kind === 'command' && !args.argv && !args.shell) throw new InvalidArgumentError('A command needs argv or shell');
    const argv = args.shell ? ['/bin/sh', '-c', args.shell] : (args.argv ?? [defaultShell()]);
    const spec: ProcessSpec = {
      name: args.name ?? defaultName(args.kind, args.shell ?? argv.join(' '), this.sessions.list().length + 1),
      kind: args.kind,
      argv,
      cwd: resolve(this.projectDir, args.cwd ?? '.'),
      env: args.env,
      cols: args.cols,
      rows: args.rows,
      ready: args.ready,
    };
    return this.createAndStart(spec);
  }

  /** Create an entry from a full spec (agents, tasks) and start it. */
  async createAndStart(spec: ProcessSpec): Promise<ProcessInfo> {
    const entry = this.sessions.create(spec);
    await this.startNew(entry);
    return this.describe(entry.id);
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
  async spawnAgent(args: CommandArgsOf<'spawnAgent'>): Promise<ProcessInfo> {
    const config: AgentConfig = { preset: args.preset, env: args.env };
    const { spec } = agentSpec(args.name ?? args.preset, config, this.projectDir, {
      cols: args.cols,
      rows: args.rows,
      ...(args.cwd ? { cwd: resolve(this.projectDir, args.cwd) } : {}),
      ...(args.argv ? { argv: args.argv } : {}),
    });
    const entry = this.sessions.create(spec);
    await this.startNew(entry);
    if (args.instructions) void this.typeWhenIdle(entry.id, args.instructions);
    return this.describe(entry.id);
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
    if (tracker.status.primary === 'idle') await this.sendUserTurn(id, text);
  }

  /** The conversation identity of an agent entry (undefined for other kinds). */
  sessionOf(id: string): AgentSessionDecoration | undefined {
    return this.records.get(id)?.decorations.find((d): d is AgentSessionDecoration => d instanceof AgentSessionDecoration);
  }

  /** Start a stopped agent again with its CLI's resume arguments: the conversation continues. */
  async resumeProcess(id: string): Promise<ProcessInfo> {
    const entry = this.sessions.get(id);
    const session = this.sessionOf(id);
    if (!session) throw new InvalidArgumentError(`Process ${id} "${entry.name}" is not an agent: only agents resume conversations`);
    session.prepareResume();
    try {
      await entry.start();
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

  async startProcess(id: string): Promise<ProcessInfo> {
    await this.sessions.get(id).start();
    return this.describe(id);
  }

  async stopProcess(id: string, signal?: NodeJS.Signals): Promise<ProcessInfo> {
    await this.sessions.get(id).stop(signal);
    return this.describe(id);
  }

  async restartProcess(id: string, signal?: NodeJS.Signals): Promise<ProcessInfo> {
    await this.sessions.get(id).restart(signal);
    return this.describe(id);
  }

  /**
   * Restart and, for command entries, wait until the new run is ready (SPEC §3.5). Never throws
   * for a failed start: the result says why, with the last lines.
   */
  async restartAndWait(
    id: string,
    options: { signal?: NodeJS.Signals; readyTimeoutMs?: number; abort?: AbortSignal; onProgress?: (p: ReadinessProgress) => void } = {},
  ): Promise<ReadinessResult> {
    const entry = this.sessions.get(id);
    const tracker = this.readinessTrackerOf(id);
    const startedAt = Date.now();
    const abortWait = new AbortController();
    const stop = () => abortWait.abort();
    options.abort?.addEventListener('abort', stop, { once: true });
    const waiting = tracker.waitForReady(options.readyTimeoutMs ?? DEFAULT_READY_WAIT_MS, abortWait.signal, options.onProgress, {
      runId: entry.runId + 1,
    });
    try {
      await entry.restart(options.signal);
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
    timeoutMs = DEFAULT_READY_WAIT_MS,
    abort?: AbortSignal,
    onProgress?: (p: ReadinessProgress) => void,
  ): Promise<ReadinessResult> {
    return this.readinessTrackerOf(id).waitForReady(timeoutMs, abort, onProgress);
  }

  checkReady(id: string): ReadinessCheck {
    return this.readinessTrackerOf(id).check();
  }

  readinessTrackerOf(id: string) {
    return this.decorationOf(id, ReadinessDecoration, `Process ${id} is not a command entry (readiness applies to commands)`).tracker;
  }

  async closeProcess(id: string): Promise<{ closed: true }> {
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

  // --- tasks (issue 7): headless agent runs with a stall watchdog; the logic lives in core/tasks ---
  private taskService: TaskService | undefined;

  get tasks(): TaskService {
    return (this.taskService ??= new TaskService(this));
  }

  /** Start a headless agent task (a `task` entry); a spawn failure comes back as a failed task. */
  startTask(request: TaskRequest): Promise<TaskView> {
    return this.tasks.start(request);
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
  // --- end tasks ---

  /**
   * Types `text` into an entry as a fresh user turn (sessions/userTurn.ts): the one path for agent
   * instructions, send_message and timer delivery.
   */
  async sendUserTurn(id: string, text: string): Promise<void> {
    await typeUserTurn(this.sessions.get(id), text);
  }

  attach(id: string) {
    return this.sessions.get(id).attach();
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

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    if (this.changeTimer) clearTimeout(this.changeTimer);
    await this.sessions.dispose();
    for (const record of this.records.values()) record.store.dispose();
    this.records.clear();
    this.store.dispose();
  }

  /** First launch of an entry: a restored one per the restorer, a new one per autoStart. */
  private async launchNew(entry: ProcessEntry, autoStart: boolean): Promise<void> {
    const intent = this.restorer?.launchIntent(entry, autoStart);
    if (intent === 'resume') await this.resumeProcess(entry.id);
    else if (intent === 'start' || (intent === undefined && autoStart)) await entry.start();
  }

  private agentWiring(entry: ProcessEntry) {
    return agentWiringForRun(entry, this.options.mcpEndpointFor?.(entry.id));
  }

  private decorate(entry: ProcessEntry, store: DisposableStore): EntryDecoration[] {
    const context: DecoratorContext = { projectDir: this.projectDir };
    const decorations: EntryDecoration[] = [];
    for (const decorator of this.decorators) {
      const decoration = decorator(entry, context);
      if (!decoration) continue;
      decorations.push(store.add(decoration));
      store.add(decoration.onDidChange(() => this.markChanged(entry.id)));
    }
    return decorations;
  }

  private track(entry: ProcessEntry): void {
    const store = new DisposableStore();
    const decorations = this.decorate(entry, store);
    this.records.set(entry.id, { entry, decorations, store });
    this.eventEmitter.fire({ type: 'processAdded', process: this.describe(entry.id) });
    const removal = this.sessions.onDidRemoveEntry((id) => {
      if (id !== entry.id) return;
      removal.dispose();
      store.dispose();
      this.records.delete(id);
      this.pendingChanges.delete(id);
      if (this.selectedId === id) this.selectedId = undefined;
      this.eventEmitter.fire({ type: 'processRemoved', id });
    });
    store.add(removal);
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

  /** Bring config-created entries in line with the file: add, redefine (restart if running), close. */
  private async reconcile(wanted: Map<string, { spec: ProcessSpec; autoStart: boolean }>): Promise<void> {
    const existing = new Map(
      this.sessions
        .list()
        .filter((e) => e.definition.configName)
        .map((e) => [configKey(e), e]),
    );
    const work: Promise<unknown>[] = [];
    for (const [key, entry] of existing) {
      if (!wanted.has(key)) work.push(this.sessions.close(entry.id));
    }
    for (const [key, { spec, autoStart }] of wanted) {
      const entry = existing.get(key);
      if (!entry) {
        const created = this.sessions.create(spec, this.restorer?.idFor(key));
        work.push(this.launchNew(created, autoStart).catch(() => undefined)); // error state already shows why
      } else if (!sameSpec(entry.definition, spec)) {
        const wasRunning = entry.isRunning;
        entry.redefine({ ...spec, cols: entry.info().cols, rows: entry.info().rows });
        if (wasRunning) work.push(entry.restart().catch(() => undefined));
      }
    }
    await Promise.all(work);
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
