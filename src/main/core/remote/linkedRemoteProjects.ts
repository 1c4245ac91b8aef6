/**
 * The remote hosts' projects in the laptop's own workspace: a watch socket per host keeps the
 * host's list of open projects and their counts; each laptop viewer gets its own view of a
 * project (RemoteProjectView). Ids are the laptop's own (`rp_…`, from the host and the host's id),
 * so a project of one host never collides with another's or a local one.
 */
import { createHash } from 'node:crypto';
import type { ControlEvent } from '../../../shared/api';
import type { ProjectWaitingAgent } from '../../../shared/inbox';
import type { ProcessInfo } from '../../../shared/model';
import type { OpenProjectInfo, WorkspaceState } from '../../../shared/workspace';
import { DisposableStore, Emitter, waitForEvent } from '../base';
import type { LinkedProjects, ProjectView } from '../workspace';
import { HostUiClient } from './hostUiClient';
import type { RemoteHost } from './remoteHost';
import { RemotePortForwards } from './remotePortForwards';
import { RemoteProjectView } from './remoteProjectView';

/** How long a project opened on a host may take to show in its workspace's events. */
const LISTED_TIMEOUT_MS = 15_000;

interface Linked {
  info: OpenProjectInfo;
  remote: RemoteHost;
  forwards: RemotePortForwards;
  hostProjectId: string;
}

/** A laptop-side project id: stable for one project of one host. */
function linkedId(host: string, hostProjectId: string): string {
  return `rp_${createHash('sha256').update(`${host}\0${hostProjectId}`).digest('hex').slice(0, 12)}`;
}

/** One host's open projects as its own workspace reports them, kept current by its events. */
class HostWatch {
  projects: OpenProjectInfo[] = [];
  client: HostUiClient | undefined;
  /** The host's serving ports forwarded here, fed by this socket's entry events. */
  readonly forwards: RemotePortForwards;
  private opening: Promise<void> | undefined;
  /** Host projects whose entries the forwards know in this socket's life. */
  private readonly known = new Set<string>();
  /** Per waiting host agent (`project:entry`): its status as last seen, so only a change of it is news. */
  private readonly waitingSeen = new Map<string, string>();

  constructor(
    readonly remote: RemoteHost,
    private readonly changed: () => void,
    private readonly waitingChanged: () => void,
  ) {
    this.forwards = new RemotePortForwards(remote);
  }

  /** Opens the watch socket (once at a time: a second caller waits for the same attempt). */
  open(): Promise<void> {
    if (this.client?.isOpen) return Promise.resolve();
    this.opening ??= this.openOnce().finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async openOnce(): Promise<void> {
    const ui = this.remote.state.ui;
    if (!ui) return;
    try {
      const client = await HostUiClient.open(ui, this.remote.state.host, (event, project) => this.receive(event, project));
      this.client = client;
      client.onDidClose(() => {
        if (this.client === client) this.client = undefined;
      });
      this.known.clear();
      this.waitingSeen.clear();
      this.update(((await client.call('getWorkspace', {})) as WorkspaceState).projects);
    } catch {
      // the host's state says why; the next 'connected' tries again
    }
  }

  close(): void {
    this.client?.close();
    this.forwards.dispose();
  }

  private receive(event: ControlEvent, project: string | undefined): void {
    if (event.type === 'workspaceChanged') return this.update(event.workspace.projects);
    if (project === undefined) return;
    if (event.type === 'processAdded' || event.type === 'processChanged') this.forwards.update(project, event.process);
    if (event.type === 'processChanged') this.noteWaiting(`${project}:${event.process.id}`, event.process);
    if (event.type === 'processRemoved') {
      this.forwards.remove(project, event.id);
      this.waitingSeen.delete(`${project}:${event.id}`);
    }
  }

  /**
   * A waiting agent's status changed (its dialog drawn, another question, a new reason): what it
   * asks may have changed with it. Its title, ports or usage changing alone says nothing of that.
   */
  private noteWaiting(key: string, info: ProcessInfo): void {
    if (info.agent?.primary !== 'waiting') {
      this.waitingSeen.delete(key);
      return;
    }
    const seen = JSON.stringify(info.agent);
    if (this.waitingSeen.get(key) === seen) return;
    this.waitingSeen.set(key, seen);
    this.waitingChanged();
  }

  private update(projects: OpenProjectInfo[]): void {
    this.projects = projects;
    for (const project of projects) if (!this.known.has(project.id)) void this.learn(project.id);
    for (const gone of [...this.known].filter((id) => !projects.some((p) => p.id === id))) {
      this.known.delete(gone);
      this.forwards.reset(gone, []);
      for (const key of this.waitingSeen.keys()) if (key.startsWith(`${gone}:`)) this.waitingSeen.delete(key);
    }
    this.changed();
  }

  /** A project's entries as they are now (its events say what changes after). */
  private async learn(project: string): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.known.add(project);
    try {
      const { processes } = (await client.call('getSnapshot', {}, project)) as { processes: ProcessInfo[] };
      if (this.client === client) this.forwards.reset(project, processes);
    } catch {
      this.known.delete(project); // closed meanwhile, or the socket went: the next list tries again
    }
  }
}

/** The linked side of the hosts: their projects, views and waiting agents (RemoteHostDirectory adds the hosts). */
export class LinkedRemoteProjects implements Omit<LinkedProjects, 'hosts' | 'addHost' | 'disconnectHost' | 'forgetHost'> {
  private readonly watches: HostWatch[] = [];
  private readonly store = new DisposableStore();
  private readonly changed = new Emitter<void>();
  readonly onChanged = this.changed.event;
  private readonly waitingChanged = new Emitter<void>();
  readonly onWaitingChanged = this.waitingChanged.event;

  /** Follows one more host: its projects show once it is connected. */
  add(remote: RemoteHost): void {
    const watch = new HostWatch(
      remote,
      () => this.changed.fire(),
      () => this.waitingChanged.fire(),
    );
    this.watches.push(watch);
    this.store.add(
      remote.onDidChangeState((state) => {
        if (state.status === 'connected') void watch.open();
        this.changed.fire(); // a host's status shows on its projects
      }),
    );
  }

  /** Stops following a host (disconnected, or one that never connected). */
  remove(remote: RemoteHost): void {
    const index = this.watches.findIndex((watch) => watch.remote === remote);
    if (index >= 0) this.watches.splice(index, 1)[0].close();
    this.changed.fire();
  }

  /** The hosts' list changed without a project changing (one forgotten): viewers refresh. */
  hostsChanged(): void {
    this.changed.fire();
  }

  /**
   * Resolves once the host's watch socket lists the project (a folder just opened there is
   * announced by the host's own event, which may come after the open's answer).
   */
  async listed(remote: RemoteHost, hostProjectId: string): Promise<void> {
    const id = this.idOf(remote, hostProjectId);
    const isListed = () => this.list().some((project) => project.id === id);
    if (!isListed()) await waitForEvent(this.changed.event, isListed, LISTED_TIMEOUT_MS);
  }

  /** The laptop's id of a host project. */
  idOf(remote: RemoteHost, hostProjectId: string): string {
    return linkedId(remote.state.host, hostProjectId);
  }

  /** Resolves once every connected host's projects are known. */
  async ready(): Promise<void> {
    await Promise.all(this.watches.filter((watch) => watch.remote.state.status === 'connected').map((watch) => watch.open()));
  }

  list(): OpenProjectInfo[] {
    return this.linked().map((project) => project.info);
  }

  view(id: string, emit: (event: ControlEvent) => void): ProjectView {
    const found = this.linked().find((project) => project.info.id === id);
    if (!found) throw new Error(`No remote project has the id "${id}"`);
    return new RemoteProjectView(found.remote, found.forwards, found.hostProjectId, emit);
  }

  async listWaiting(): Promise<ProjectWaitingAgent[]> {
    const perHost = await Promise.all(
      this.watches.map(async (watch) => {
        if (!watch.client?.isOpen) return [];
        const { agents } = (await watch.client.call('listWaitingAcrossProjects', {})) as { agents: ProjectWaitingAgent[] };
        const host = watch.remote.state.host;
        return agents.map((agent) => ({ ...agent, project: { ...agent.project, id: linkedId(host, agent.project.id), host } }));
      }),
    );
    return perHost.flat();
  }

  dispose(): void {
    this.store.dispose();
    for (const watch of this.watches) watch.close();
    this.changed.dispose();
  }

  private linked(): Linked[] {
    return this.watches.flatMap((watch) => {
      const host = watch.remote.state.host;
      return watch.projects.map((project) => ({
        info: { ...project, id: linkedId(host, project.id), host },
        remote: watch.remote,
        forwards: watch.forwards,
        hostProjectId: project.id,
      }));
    });
  }
}
