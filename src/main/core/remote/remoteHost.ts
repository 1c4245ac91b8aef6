/**
 * One remote host as the laptop sees it: the SSH connection, the server of our version on the host
 * (installed and started when needed, reused otherwise), and local loopback forwards of its UI and
 * every project's MCP endpoint. When the connection drops, the host's processes keep running; the
 * state says `disconnected` and connecting again follows with backoff, reusing the running server
 * and forwarding the same ports, so open pages and clients reconnect where they were.
 */
import { Emitter, type Disposable } from '../base';
import type { HostProbe, HostProject } from './hostAgent';
import { freeLocalPort, hostListener, installServer, openProjects, probeHost, startServer } from './hostServer';
import type { RemoteSpec } from './destination';
import type { ServerBundle } from './serverBundle';
import { SshConnection, SshError } from './sshConnection';
import { checkServerIdentity } from '../security';
import { uiSecretOf } from './hostUiClient';

/** Reconnect delays: 1 s doubling to 30 s, like the app's own restarts. */
const RECONNECT_FIRST_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;

type RemoteHostStatus = 'connecting' | 'connected' | 'disconnected' | 'failed';

export interface RemoteProject extends HostProject {
  /** The SSH destination the project lives on. */
  host: string;
}

export interface RemoteHostState {
  host: string;
  status: RemoteHostStatus;
  /** Why it is disconnected or failed: one line. */
  message?: string;
  /** The host's UI, through the tunnel (its secret in the fragment). */
  ui?: string;
  projects: RemoteProject[];
  /** Whether this connect installed the server, started it, or found it running. */
  server?: 'installed' | 'started' | 'reused';
}

interface RemoteHostOptions {
  spec: RemoteSpec;
  /** `ssh -F`: the user's config file. */
  configFile?: string;
  /** The server to install; made on first need (it hashes the build). */
  bundle: () => ServerBundle;
  /** Trust the folders' switchboard.json on a server this connect starts (serve's --trust). */
  trust: boolean;
  log?: (line: string) => void;
}

export class RemoteHost implements Disposable {
  private readonly changed = new Emitter<RemoteHostState>();
  readonly onDidChangeState = this.changed.event;
  private current: RemoteHostState;
  private connection: SshConnection | undefined;
  private readonly extraPorts = new Set<number>();
  /** Local port → the host address its forward targets (a cancel names the same). */
  private readonly forwardTargets = new Map<number, string>();
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelay = RECONNECT_FIRST_MS;
  private disposed = false;

  /** The folders opened here: the spec's and those `open` added; a reconnect opens them all. */
  private readonly dirs: string[];
  /** Folder as given → the host's project id (the host resolves `~` and symlinks). */
  private readonly openedAs = new Map<string, string>();

  constructor(private readonly options: RemoteHostOptions) {
    this.current = { host: options.spec.destination, status: 'disconnected', projects: [] };
    this.dirs = [...options.spec.dirs];
  }

  /** The folders opened on this host, as given. */
  get folders(): readonly string[] {
    return this.dirs;
  }

  /** The host's project id of a folder as given, once opened in this connection. */
  projectOf(dir: string): string | undefined {
    return this.openedAs.get(dir);
  }

  get state(): RemoteHostState {
    return this.current;
  }

  /** The ssh process holding the connection, while connected. */
  get sshPid(): number | undefined {
    return this.connection?.masterPid;
  }

  /** Connects (installing or starting the server when needed); resolves with the state, `failed` with one line on bad input. */
  async connect(): Promise<RemoteHostState> {
    clearTimeout(this.reconnectTimer);
    this.update({ status: 'connecting', message: undefined });
    try {
      await this.connectOnce();
      this.reconnectDelay = RECONNECT_FIRST_MS;
    } catch (err) {
      this.connection?.close();
      this.connection = undefined;
      const message = err instanceof Error ? err.message : String(err);
      // Never connected: bad input, said once. Connected before: the network, try again.
      if (this.current.ui === undefined) this.update({ status: 'failed', message });
      else this.scheduleReconnect(message);
    }
    return this.current;
  }

  /** Opens more folders in the connected host's server (a running server opens them untrusted: its trust prompt decides). */
  async open(dirs: string[]): Promise<RemoteProject[]> {
    const connection = this.connection;
    if (!connection || this.current.status !== 'connected') throw new SshError(`${this.options.spec.destination} is not connected`);
    const opened = await this.openAndForward(connection, dirs);
    for (const dir of dirs) if (!this.dirs.includes(dir)) this.dirs.push(dir);
    const known = this.current.projects.filter((p) => !opened.some((o) => o.id === p.id));
    this.update({ projects: [...known, ...opened] });
    return opened;
  }

  /** Forwards a port of the host's loopback (a dev server's) to the same local port; kept across reconnects. */
  async forwardPort(port: number): Promise<void> {
    if (!this.connection) throw new SshError(`${this.options.spec.destination} is not connected`);
    await this.connection.forward(port);
    this.extraPorts.add(port);
  }

  /**
   * Forwards `hostPort` on the address the host user's own process listens on there (127.0.0.1,
   * or ::1 for a server on IPv6 loopback only; never a port only another user serves) to this
   * machine's 127.0.0.1 at `preferred` when that is free, else at a port the system has free;
   * resolves with the local port. Not kept across reconnects: its owner (RemotePortForwards)
   * forwards again from what the host reports then.
   */
  async forwardToLocal(hostPort: number, preferred: number): Promise<number> {
    const connection = this.connection;
    if (!connection) throw new SshError(`${this.options.spec.destination} is not connected`);
    const address = await hostListener(connection, this.options.bundle().version, hostPort);
    let localPort = preferred;
    try {
      await connection.forward(preferred, hostPort, address);
    } catch {
      localPort = await freeLocalPort();
      await connection.forward(localPort, hostPort, address);
    }
    this.forwardTargets.set(localPort, address);
    return localPort;
  }

  /** Ends a forward `forwardToLocal` made (nothing to do once the connection is gone). */
  async cancelForward(localPort: number, hostPort: number): Promise<void> {
    const address = this.forwardTargets.get(localPort);
    this.forwardTargets.delete(localPort);
    await this.connection?.cancelForward(localPort, hostPort, address);
  }

  /** Ends the connection; the host's server and processes keep running. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.reconnectTimer);
    this.connection?.close();
    this.changed.dispose();
  }

  private async connectOnce(): Promise<void> {
    const { spec, configFile } = this.options;
    const connection = await SshConnection.open({ destination: spec.destination, configFile });
    this.connection = connection;
    if (this.disposed) return connection.close();
    const version = this.options.bundle().version;
    const probe = await probeHost(connection, version);
    if (probe.notOurs) this.options.log?.(`${spec.destination}: the recorded server is not reused (${probe.notOurs}); starting our own`);
    if (probe.running && probe.running.version !== version) {
      throw new SshError(
        `${spec.destination} runs Switchboard server ${probe.running.version} (pid ${probe.running.pid}); this is ${version}: quit that one (its processes stop) or connect with the app of its version`,
      );
    }
    const { port, ui, server } = probe.running
      ? { ...probe.running, server: 'reused' as const }
      : await this.startOnHost(connection, version, probe);
    await connection.forward(port);
    // Checked from here too, through the tunnel, before the UI secret or any call goes to it.
    if ((await checkServerIdentity(`http://127.0.0.1:${port}`, uiSecretOf(ui))) !== 'proved')
      throw new SshError(
        `${spec.destination}: what listens on the host's port ${port} does not prove it is our server: nothing was sent to it`,
      );
    const projects = await this.openAndForward(connection, this.dirs);
    for (const extra of this.extraPorts) await connection.forward(extra);
    connection.onDidClose(({ message }) => {
      if (this.connection !== connection || this.disposed) return;
      this.connection = undefined;
      this.scheduleReconnect(message);
    });
    this.update({ status: 'connected', message: undefined, ui, server, projects });
  }

  /** Opens `dirs` in the host's server (none: lists what it has open) and forwards each project's MCP port. */
  private async openAndForward(connection: SshConnection, dirs: string[]): Promise<RemoteProject[]> {
    const projects = await openProjects(connection, this.options.bundle().version, dirs);
    for (const project of projects) await connection.forward(Number(new URL(project.url).port));
    dirs.forEach((dir, i) => this.openedAs.set(dir, projects[i].id)); // the host answers in the order asked
    return projects.map((p) => ({ ...p, host: this.options.spec.destination }));
  }

  private async startOnHost(connection: SshConnection, version: string, { installed, platform, arch }: HostProbe) {
    if (!installed) {
      this.options.log?.(`${this.options.spec.destination}: installing Switchboard server ${version}`);
      await installServer(connection, this.options.bundle(), { platform, arch });
    }
    const started = await startServer(connection, version, this.dirs, this.options.trust);
    return { ...started, server: installed ? ('started' as const) : ('installed' as const) };
  }

  private scheduleReconnect(message: string): void {
    if (this.disposed) return;
    this.update({ status: 'disconnected', message });
    this.options.log?.(`${this.options.spec.destination}: ${message}; connecting again in ${this.reconnectDelay / 1000} s`);
    this.reconnectTimer = setTimeout(() => void this.connect(), this.reconnectDelay);
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
  }

  private update(change: Partial<RemoteHostState>): void {
    this.current = { ...this.current, ...change };
    this.changed.fire(this.current);
  }
}
