/**
 * Every remote host one app (or `serve`) is connected to, and the ones it connected to before:
 * connects hosts (`serve --remote` at start, "Add host" in the app, both through `connect`),
 * remembers the ones that connected, and lists their projects like local ones. A host that fails
 * says so in one line; the others and everything local keep working.
 */
import type { ProjectWaitingAgent } from '../../../shared/inbox';
import { SwitchboardError } from '../../../shared/errors';
import type { OpenProjectInfo, RemoteHostInfo } from '../../../shared/workspace';
import type { ControlEvent } from '../../../shared/api';
import type { Disposable } from '../base';
import type { LinkedProjects, ProjectView } from '../workspace';
import type { RemoteSpec } from './destination';
import { LinkedRemoteProjects } from './linkedRemoteProjects';
import { forgetRememberedHost, readRememberedHosts, rememberHost, type RememberedHost } from './rememberedHosts';
import { RemoteHost, type RemoteHostState, type RemoteProject } from './remoteHost';
import { serverBundle, type ServerBundle } from './serverBundle';

interface RemoteHostsOptions {
  /** `ssh -F`: the ssh config file for every host (absent: the user's own). */
  configFile?: string;
  /** Where the built app lives (its `package.json` and `out/`): what is installed on hosts. */
  appRoot: string;
  dataDir: string;
  /** Trust the folders' switchboard.json on a server a connect starts (serve's --trust). */
  trust: boolean;
  log: (line: string) => void;
}

export class RemoteHosts implements LinkedProjects, Disposable {
  private readonly remotes: RemoteHost[] = [];
  private readonly linked = new LinkedRemoteProjects();
  private readonly subscriptions: Disposable[] = [];
  private bundle: ServerBundle | undefined;
  readonly onChanged = this.linked.onChanged;
  readonly onWaitingChanged = this.linked.onWaitingChanged;

  /** remote-hosts.json as read at start and written since (the welcome view lists it on every change). */
  private remembered: RememberedHost[];

  constructor(private readonly options: RemoteHostsOptions) {
    this.remembered = readRememberedHosts(options.dataDir);
  }

  /** The hosts connected (or tried) in this run. */
  get connections(): readonly RemoteHost[] {
    return this.remotes;
  }

  /**
   * Connects a host and opens its folders (a connected host opens them on the same connection);
   * resolves once it is connected and its projects are listed, or it failed (the state says why).
   */
  async connect(spec: RemoteSpec): Promise<RemoteHostState> {
    return (await this.connectAndOpen(spec)).remote.state;
  }

  /** "Add host": `connect`, failing with its one line; the folder's project (when one was given) is named. */
  async addHost(destination: string, dir?: string): Promise<{ host: RemoteHostInfo; projectId?: string }> {
    const { remote, opened } = await this.connectAndOpen({ destination, dirs: dir ? [dir] : [] }).catch((err: unknown) => {
      throw new SwitchboardError('invalid_argument', err instanceof Error ? err.message : String(err));
    });
    const { status, message } = remote.state;
    if (status !== 'connected') throw new SwitchboardError('invalid_argument', message ?? `${destination} is ${status}`);
    const project = dir ? opened[0] : undefined;
    if (project) {
      await this.linked.listed(remote, project.id).catch(() => {
        throw new SwitchboardError('internal', `${destination}: ${dir} opened, but the host did not list it (try again)`);
      });
    }
    return { host: this.describe(remote), ...(project ? { projectId: this.linked.idOf(remote, project.id) } : {}) };
  }

  private async connectAndOpen(spec: RemoteSpec): Promise<{ remote: RemoteHost; opened: RemoteProject[] }> {
    const known = this.remotes.find((remote) => remote.state.host === spec.destination);
    if (known?.state.status === 'connected') {
      const opened = spec.dirs.length > 0 ? await known.open(spec.dirs) : [];
      this.remember(known);
      await this.linked.ready();
      return { remote: known, opened };
    }
    if (known && known.state.status !== 'failed') return { remote: known, opened: [] }; // connecting, or reconnecting on its own
    if (known) this.drop(known);
    const remote = this.follow(spec);
    await remote.connect();
    await this.linked.ready();
    return { remote, opened: remote.state.projects };
  }

  /** Ends one host's connection (its server and processes keep running there); it stays remembered. */
  disconnectHost(destination: string): RemoteHostInfo {
    const remote = this.remotes.find((r) => r.state.host === destination);
    if (!remote) throw new SwitchboardError('invalid_argument', `${destination} is not connected`);
    this.drop(remote);
    return this.hosts().find((h) => h.destination === destination) ?? { destination, status: 'remembered', folders: [] };
  }

  /** Disconnects a host when connected and removes it from remote-hosts.json; nothing on the host is touched. */
  forgetHost(destination: string): void {
    const remote = this.remotes.find((r) => r.state.host === destination);
    const { dataDir, configFile } = this.options;
    const isRemembered = this.remembered.some((h) => h.destination === destination && h.configFile === configFile);
    if (!remote && !isRemembered) throw new SwitchboardError('invalid_argument', `${destination} is not a known host`);
    if (remote) this.drop(remote);
    this.remembered = forgetRememberedHost(dataDir, destination, configFile);
    this.linked.hostsChanged();
  }

  /** Every connected host's projects. */
  projects(): RemoteProject[] {
    return this.remotes.flatMap((remote) => (remote.state.status === 'connected' ? remote.state.projects : []));
  }

  states(): RemoteHostState[] {
    return this.remotes.map((remote) => remote.state);
  }

  /** This run's hosts first, then the remembered ones not connected now. */
  hosts(): RemoteHostInfo[] {
    const live = this.remotes.map((remote) => this.describe(remote));
    const remembered = this.remembered
      .filter((h) => h.configFile === this.options.configFile && !live.some((l) => l.destination === h.destination))
      .map((h): RemoteHostInfo => ({ destination: h.destination, status: 'remembered', folders: h.dirs.map((dir) => ({ dir })) }));
    return [...live, ...remembered];
  }

  list(): OpenProjectInfo[] {
    return this.linked.list();
  }

  view(id: string, emit: (event: ControlEvent) => void): ProjectView {
    return this.linked.view(id, emit);
  }

  listWaiting(): Promise<ProjectWaitingAgent[]> {
    return this.linked.listWaiting();
  }

  /** Only the connections: the hosts' servers and processes keep running. */
  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    this.linked.dispose();
    for (const remote of this.remotes.splice(0)) remote.dispose();
  }

  private follow(spec: RemoteSpec): RemoteHost {
    const bundle = () => (this.bundle ??= serverBundle(this.options.appRoot));
    const { configFile, trust, log } = this.options;
    const remote = new RemoteHost({ spec, configFile, bundle, trust, log });
    this.remotes.push(remote);
    this.linked.add(remote);
    this.subscriptions.push(
      remote.onDidChangeState((state) => {
        if (state.status === 'failed') log(`switchboard: ${state.message}`);
        if (state.status === 'connected') this.remember(remote);
      }),
    );
    return remote;
  }

  /** Stops following a host and closes its connection only (a failed one, or one disconnected on request). */
  private drop(remote: RemoteHost): void {
    this.remotes.splice(this.remotes.indexOf(remote), 1);
    this.linked.remove(remote);
    remote.dispose();
  }

  private remember(remote: RemoteHost): void {
    const { dataDir, configFile } = this.options;
    const dirs = this.foldersOf(remote);
    this.remembered = rememberHost(dataDir, { destination: remote.state.host, dirs, configFile, connectedAt: Date.now() });
  }

  private describe(remote: RemoteHost): RemoteHostInfo {
    const { host, status, message } = remote.state;
    const open = new Set(this.linked.list().map((p) => p.id));
    const folders = this.foldersOf(remote).map((dir) => {
      const hostId = remote.projectOf(dir);
      const projectId = hostId && this.linked.idOf(remote, hostId);
      return { dir, ...(projectId && open.has(projectId) ? { projectId } : {}) };
    });
    return { destination: host, status, ...(message ? { message } : {}), folders };
  }

  /** The folders opened on the host in this run, then the ones remembered from before. */
  private foldersOf(remote: RemoteHost): string[] {
    const before = this.remembered.find((h) => h.destination === remote.state.host && h.configFile === this.options.configFile);
    return [...new Set([...remote.folders, ...(before?.dirs ?? [])])];
  }
}

/** Connects every host of `serve --remote` (in parallel); resolves once each is connected or has failed. */
export async function connectRemoteHosts(options: RemoteHostsOptions & { specs: RemoteSpec[] }): Promise<RemoteHosts> {
  const remotes = new RemoteHosts(options);
  await Promise.all(options.specs.map((spec) => remotes.connect(spec)));
  return remotes;
}
