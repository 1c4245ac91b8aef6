/**
 * The projects open in one window: one core per project (built by the composition root), each with
 * its own entries, MCP endpoint and tokens, scratchpads and timers. The Electron shell and `serve`
 * both hold one Workspace; viewers reach a project through it by the project's id.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { SwitchboardError } from '../../../shared/errors';
import type { OpenProjectInfo, PathCompletion, RecentProjectInfo, RemoteHostInfo, WorkspaceState } from '../../../shared/workspace';
import type { ProjectWaitingAgent } from '../../../shared/inbox';
import type { DeviceCommandName } from '../../../shared/devices';
import { DisposableStore, Emitter, type Disposable, type Event } from '../base';
import { projectKey, type CoreHandle } from '../composition';
import type { RecentProjects } from '../projects';
import type { FolderRoots } from './folderRoots';
import type { LinkedProjects } from './linkedProjects';

/** Builds one project's core; `grantTrust` trusts its switchboard.json as it is (`--trust`). */
/** Runs one of the desktop's device commands (listDevices, startPairing, …). */
type DeviceCommandHandler = (cmd: DeviceCommandName, args: unknown) => unknown;

type ProjectFactory = (dir: string, options: { grantTrust: boolean }) => Promise<CoreHandle>;

interface WorkspaceOptions {
  createProject: ProjectFactory;
  recent: RecentProjects;
  /** Where a folder typed in a viewer may lie. */
  roots: FolderRoots;
  /** The host's native folder dialog (desktop app); absent in a browser. */
  chooseFolder?: () => Promise<string | undefined>;
}

export interface OpenProject {
  readonly id: string;
  readonly dir: string;
  readonly handle: CoreHandle;
}

class UnknownProjectError extends SwitchboardError {
  constructor(id: string) {
    super('not_found', `No open project has the id "${id}". Open its folder first.`);
  }
}

/** The same folder always gets the same id, whichever path or symlink opened it. */
export function projectIdOf(dir: string): string {
  return `pj_${createHash('sha256').update(projectKey(dir)).digest('hex').slice(0, 12)}`;
}

export class Workspace {
  /** In opening order: the order of the project switcher. */
  private readonly projects = new Map<string, OpenProject>();
  private readonly opening = new Map<string, Promise<OpenProject>>();
  private readonly projectStores = new Map<string, DisposableStore>();
  private active: string | undefined;
  private readonly changedEmitter = new Emitter<WorkspaceState>();
  private readonly openedEmitter = new Emitter<OpenProject>();
  private readonly closingEmitter = new Emitter<OpenProject>();
  private readonly linkedWaitingEmitter = new Emitter<void>();
  private isDisposed = false;
  private announcedCounts = '';
  private linkedSource: LinkedProjects | undefined;
  private deviceCommands: DeviceCommandHandler | undefined;

  /** The open projects, the active one or the counts changed. */
  readonly onChanged: Event<WorkspaceState> = this.changedEmitter.event;
  /** A project's core is up: viewers subscribe to it. */
  readonly onProjectOpened: Event<OpenProject> = this.openedEmitter.event;
  /** A project is about to stop: viewers let go of it. */
  readonly onProjectClosing: Event<OpenProject> = this.closingEmitter.event;
  /** A linked project's waiting agent changed (what it asks may have, though no count did). */
  readonly onLinkedWaitingChanged: Event<void> = this.linkedWaitingEmitter.event;

  constructor(private readonly options: WorkspaceOptions) {}

  /** The active project when it is one of this machine's (callers reach its core). */
  get activeId(): string | undefined {
    return this.active !== undefined && this.projects.has(this.active) ? this.active : undefined;
  }

  /** The project the window shows: a local one or a linked one. */
  get shownId(): string | undefined {
    return this.active;
  }

  /** Shows another machine's projects beside the local ones (remote hosts) until disposed. */
  link(source: LinkedProjects): Disposable {
    this.linkedSource = source;
    const subscription = source.onChanged(() => this.announce());
    const waiting = source.onWaitingChanged(() => this.linkedWaitingEmitter.fire());
    this.announce();
    return {
      dispose: () => {
        subscription.dispose();
        waiting.dispose();
        if (this.linkedSource === source) this.linkedSource = undefined;
        this.announce();
      },
    };
  }

  /** The linked projects' source when `id` is one of them. */
  /** Paired devices and notifications belong to the person, not a project: one handler for the whole workspace. */
  useDeviceCommands(handler: DeviceCommandHandler): Disposable {
    this.deviceCommands = handler;
    return { dispose: () => void (this.deviceCommands === handler && (this.deviceCommands = undefined)) };
  }

  callDeviceCommand(cmd: DeviceCommandName, args: unknown): Promise<unknown> {
    if (!this.deviceCommands) throw new SwitchboardError('not_found', `${cmd} is not available here: paired devices are not set up.`);
    return Promise.resolve(this.deviceCommands(cmd, args));
  }

  linkedOwning(id: string | undefined): LinkedProjects | undefined {
    return this.linkedSource?.list().some((p) => p.id === id) ? this.linkedSource : undefined;
  }

  list(): OpenProject[] {
    return [...this.projects.values()];
  }

  get(id: string): OpenProject {
    const project = this.projects.get(id);
    if (!project) throw new UnknownProjectError(id);
    return project;
  }

  /** The project a call without a project id is for: the active one. */
  activeProject(): OpenProject {
    if (!this.active) throw new SwitchboardError('not_found', 'No project is open: open a folder first.');
    return this.get(this.active);
  }

  get hasFolderDialog(): boolean {
    return this.options.chooseFolder !== undefined;
  }

  /**
   * Opens `dir` and makes it active; an open project is focused instead (one core per folder, so
   * two opens of the same folder never race for its lock).
   */
  async open(dir: string, options: { grantTrust?: boolean } = {}): Promise<OpenProject> {
    if (this.isDisposed) throw new SwitchboardError('internal', 'Switchboard is shutting down');
    const id = projectIdOf(dir);
    const existing = this.projects.get(id) ?? (await this.opening.get(id));
    if (existing) return this.focus(existing.id);
    const pending = this.start(id, projectKey(dir), options.grantTrust === true);
    this.opening.set(id, pending);
    try {
      return this.focus((await pending).id);
    } finally {
      this.opening.delete(id);
    }
  }

  /** Opens a folder a viewer typed: only within the allowed roots. */
  async openTyped(typed: string): Promise<OpenProject> {
    return this.open(this.options.roots.resolveFolder(typed));
  }

  /** The host's folder dialog; undefined when the person cancelled. */
  async chooseAndOpen(): Promise<OpenProject | undefined> {
    if (!this.options.chooseFolder) {
      throw new SwitchboardError('invalid_argument', 'No folder dialog in a browser: type the folder path in the path field.');
    }
    const dir = await this.options.chooseFolder();
    return dir ? this.open(dir) : undefined;
  }

  completePath(partial: string): PathCompletion {
    return this.options.roots.complete(partial);
  }

  /** Connects a remote host (opening `dir` there when given); the folder's project becomes the one shown. */
  async addHost(destination: string, dir?: string): Promise<{ host: RemoteHostInfo; project?: OpenProjectInfo }> {
    const { host, projectId } = await this.requireLinkedSource().addHost(destination, dir || undefined);
    return { host, ...(projectId ? { project: this.focusLinked(projectId) } : {}) };
  }

  /** Ends one remote host's connection; its processes keep running there. */
  disconnectHost(destination: string): { host: RemoteHostInfo } {
    const host = this.requireLinkedSource().disconnectHost(destination);
    this.leaveGoneLinkedProject();
    return { host };
  }

  /** Stops remembering a remote host (disconnecting it first); nothing on the host is touched. */
  forgetHost(destination: string): { forgotten: true } {
    this.requireLinkedSource().forgetHost(destination);
    this.leaveGoneLinkedProject();
    return { forgotten: true };
  }

  private requireLinkedSource(): LinkedProjects {
    if (!this.linkedSource) throw new SwitchboardError('invalid_argument', 'Remote hosts cannot be added here');
    return this.linkedSource;
  }

  /** The shown project was a host's that is gone: show a local one (or the welcome view). */
  private leaveGoneLinkedProject(): void {
    if (this.active === undefined || this.projects.has(this.active) || this.linkedOwning(this.active)) return;
    this.active = this.projects.keys().next().value;
    this.announce();
  }

  /** Makes a linked project the one the window shows. */
  focusLinked(id: string): OpenProjectInfo {
    const found = this.linkedSource?.list().find((p) => p.id === id);
    if (!found) throw new UnknownProjectError(id);
    if (this.active !== id) {
      this.active = id;
      this.announce();
    }
    return found;
  }

  focus(id: string): OpenProject {
    const project = this.get(id);
    if (this.active !== id) {
      this.active = id;
      this.announce();
    }
    return project;
  }

  /** Stops only this project's process trees, remembers what ran, and closes it. */
  async close(id: string): Promise<void> {
    const project = this.get(id);
    this.options.recent.recordClose(project.dir, {
      lastRun: runningNames(project),
      needsAttention: project.handle.core.needsAttentionCount(),
    });
    this.projects.delete(id);
    if (this.active === id) this.active = this.projects.keys().next().value;
    this.closingEmitter.fire(project);
    this.projectStores.get(id)?.dispose();
    this.projectStores.delete(id);
    this.announce();
    await project.handle.dispose();
  }

  /**
   * Every open project's waiting agents, the one waiting longest first, each naming its project.
   * Each project's core reads its own agents' screens (SwitchboardCore.listWaiting); an answer is
   * addressed to the project the row names.
   */
  listWaiting(): ProjectWaitingAgent[] {
    return this.list()
      .flatMap((project) => {
        const owner = { id: project.id, name: basename(project.dir) };
        return project.handle.core.listWaiting().map((agent) => ({ ...agent, project: owner }));
      })
      .sort((a, b) => a.since - b.since);
  }

  /** `listWaiting` with the linked projects' merged in; a host that does not answer adds none. */
  async listWaitingEverywhere(): Promise<ProjectWaitingAgent[]> {
    const linked = (await this.linkedSource?.listWaiting().catch(() => [])) ?? [];
    return [...this.listWaiting(), ...linked].sort((a, b) => a.since - b.since);
  }

  needsAttentionCount(): number {
    const linked = this.linkedSource?.list().reduce((sum, p) => sum + p.needsAttention, 0) ?? 0;
    return this.list().reduce((sum, p) => sum + p.handle.core.needsAttentionCount(), linked);
  }

  state(): WorkspaceState {
    return {
      projects: [...this.list().map(describe), ...(this.linkedSource?.list() ?? [])],
      activeId: this.active,
      recent: this.recentProjects(),
      hasFolderDialog: this.hasFolderDialog,
      roots: this.options.roots.roots,
      hosts: this.linkedSource?.hosts() ?? [],
    };
  }

  /** Every project's trees end within their grace; nothing opens afterwards. */
  async dispose(): Promise<void> {
    this.isDisposed = true;
    await Promise.allSettled([...this.opening.values()]);
    const ids = [...this.projects.keys()];
    await Promise.all(ids.map((id) => this.close(id)));
    this.changedEmitter.dispose();
    this.openedEmitter.dispose();
    this.closingEmitter.dispose();
    this.linkedWaitingEmitter.dispose();
  }

  /** Synchronous last resort: SIGKILL every project's trees. */
  killNow(): void {
    for (const project of this.projects.values()) project.handle.killNow();
  }

  private async start(id: string, dir: string, grantTrust: boolean): Promise<OpenProject> {
    const handle = await this.options.createProject(dir, { grantTrust });
    const project: OpenProject = { id, dir, handle };
    this.projects.set(id, project);
    this.options.recent.touch(dir);
    // Counts on the switcher and the badge follow every entry change.
    const store = new DisposableStore();
    store.add(
      handle.core.onEvent((event) => {
        if (event.type === 'processAdded' || event.type === 'processChanged' || event.type === 'processRemoved')
          this.announceIfCountsChanged();
      }),
    );
    this.projectStores.set(id, store);
    this.openedEmitter.fire(project);
    return project;
  }

  private recentProjects(): RecentProjectInfo[] {
    const openByDir = new Map(this.list().map((p) => [p.dir, p]));
    return this.options.recent.list().map((record) => {
      const open = openByDir.get(record.dir);
      return {
        dir: record.dir,
        name: record.name,
        openedAt: record.openedAt,
        lastRun: open ? runningNames(open) : (record.lastRun ?? []),
        needsAttention: open ? open.handle.core.needsAttentionCount() : (record.needsAttention ?? 0),
        ...(open ? { openId: open.id } : {}),
      };
    });
  }

  private announce(): void {
    const state = this.state();
    this.announcedCounts = countsOf(state.projects);
    if (this.changedEmitter.hasListeners) this.changedEmitter.fire(state);
  }

  /** Entry changes are frequent (status, readiness); the workspace changes only when a count does. */
  private announceIfCountsChanged(): void {
    if (countsOf(this.list().map(describe)) !== this.announcedCounts) this.announce();
  }
}

function countsOf(projects: OpenProjectInfo[]): string {
  return projects.map((p) => `${p.id}:${p.needsAttention}:${p.running}`).join(',');
}

function runningNames(project: OpenProject): string[] {
  return project.handle.core
    .listProcesses()
    .filter((p) => p.pid !== undefined && p.pid > 0)
    .map((p) => p.name);
}

function describe(project: OpenProject): OpenProjectInfo {
  return {
    id: project.id,
    dir: project.dir,
    name: basename(project.dir),
    needsAttention: project.handle.core.needsAttentionCount(),
    running: runningNames(project).length,
  };
}
