/**
 * A remote host's dev servers reachable from this machine: every port a host entry serves (its
 * readiness port while ready, and the ports it printed that its process tree listens on) is
 * forwarded through the host's SSH connection to this machine's 127.0.0.1, at the same number when
 * that is free here, else at another free one. The laptop's views of the entry then name the local
 * URL; what the host itself reports (its MCP, its agents' env) is never rewritten. A forward ends
 * when no entry serves its port any more; the connection dropping ends them all, and the host's
 * next report after the reconnect makes them again at the local ports they had.
 */
import type { ProcessInfo } from '../../../shared/model';
import { forwardedUrl, type PortForward } from '../../../shared/ports';
import { Emitter, type Disposable } from '../base';
import type { RemoteHost } from './remoteHost';

/** Run states in which an entry's process serves what it listens on. */
const SERVING_STATES = new Set<ProcessInfo['state']>(['ready', 'running', 'unhealthy']);

interface Forward {
  hostPort: number;
  localPort?: number;
  error?: string;
  /** The entries serving this port (`project\0entry`). */
  users: Set<string>;
}

/** The host ports an entry serves now, as the host reports it. */
function servedPorts(process: ProcessInfo): number[] {
  if (!SERVING_STATES.has(process.state)) return [];
  const listening = new Set(process.ports?.listening ?? []);
  const printed = (process.ports?.sightings ?? []).map((s) => s.port).filter((port) => listening.has(port));
  const ready = process.state !== 'running' && process.readiness?.port ? [process.readiness.port] : [];
  return [...new Set([...ready, ...printed])];
}

/** What the forwards need of a host: its connection's state and its loopback forwards. */
type ForwardingHost = Pick<RemoteHost, 'state' | 'onDidChangeState' | 'forwardToLocal' | 'cancelForward'>;

export class RemotePortForwards implements Disposable {
  private readonly forwards = new Map<number, Forward>();
  /** Entry → the host ports it serves. */
  private readonly served = new Map<string, number[]>();
  /** Host port → the local port it had, so a reconnect (or a restart of the server) keeps its URL. */
  private readonly localPorts = new Map<number, number>();
  private readonly changed = new Emitter<string>();
  /** Fires with a host project id whose entries' forwards changed (its views show them again). */
  readonly onDidChange = this.changed.event;
  private readonly subscription: Disposable;
  private disposed = false;

  constructor(private readonly remote: ForwardingHost) {
    this.subscription = remote.onDidChangeState((state) => {
      if (state.status !== 'connected') this.dropAll();
    });
  }

  /** The entries of one host project as the host reports them now (its snapshot). */
  reset(project: string, processes: ProcessInfo[]): void {
    for (const key of [...this.served.keys()]) if (key.startsWith(`${project}\0`)) this.served.delete(key);
    for (const process of processes) this.served.set(entryKey(project, process.id), servedPorts(process));
    this.sync();
  }

  /** One entry as the host reports it now. */
  update(project: string, process: ProcessInfo): void {
    const ports = servedPorts(process);
    const key = entryKey(project, process.id);
    if (sameList(this.served.get(key), ports)) return;
    this.served.set(key, ports);
    this.sync();
  }

  /** An entry the host removed. */
  remove(project: string, id: string): void {
    if (this.served.delete(entryKey(project, id))) this.sync();
  }

  /** The entry as this machine shows it: URLs of forwarded ports name the local port, and its forwards are listed. */
  localize(process: ProcessInfo): ProcessInfo {
    // The ports this report of the entry serves: a view may hear of a stop before this watch does.
    const forwards = servedPorts(process)
      .map((port) => this.forwards.get(port))
      .filter((forward): forward is Forward => forward !== undefined && (forward.localPort !== undefined || forward.error !== undefined));
    if (forwards.length === 0) return process;
    const shown = forwards.map(({ hostPort, localPort, error }): PortForward => (error ? { hostPort, error } : { hostPort, localPort }));
    const local = (url: string) => forwardedUrl(url, shown);
    return {
      ...process,
      readiness: process.readiness?.url ? { ...process.readiness, url: local(process.readiness.url) } : process.readiness,
      ports: process.ports && { ...process.ports, sightings: process.ports.sightings.map((s) => ({ ...s, url: local(s.url) })) },
      forwards: shown,
    };
  }

  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
    for (const forward of this.forwards.values())
      if (forward.localPort) void this.remote.cancelForward(forward.localPort, forward.hostPort).catch(() => undefined);
    this.forwards.clear();
    this.changed.dispose();
  }

  /** Forwards every port some entry serves and is not forwarded yet; ends those no entry serves. */
  private sync(): void {
    if (this.disposed) return;
    const wanted = new Map<number, Set<string>>();
    for (const [key, ports] of this.served) for (const port of ports) (wanted.get(port) ?? wanted.set(port, new Set()).get(port)!).add(key);
    for (const [port, forward] of [...this.forwards]) {
      if (wanted.has(port)) continue;
      this.forwards.delete(port);
      // Told once it is gone: a view that showed it shows the entry again without it.
      if (forward.localPort)
        void this.remote
          .cancelForward(forward.localPort, port)
          .catch(() => undefined)
          .finally(() => this.notify(forward.users));
    }
    for (const [port, users] of wanted) {
      const forward = this.forwards.get(port);
      if (forward) this.share(forward, users);
      else if (this.remote.state.status === 'connected') this.start(port, users);
    }
  }

  /** Another entry serves a forwarded port (a restart's new run): its views learn the local port too. */
  private share(forward: Forward, users: Set<string>): void {
    const added = [...users].filter((key) => !forward.users.has(key));
    forward.users = users;
    if (added.length > 0 && (forward.localPort !== undefined || forward.error !== undefined)) this.notify(new Set(added));
  }

  private start(hostPort: number, users: Set<string>): void {
    const forward: Forward = { hostPort, users };
    this.forwards.set(hostPort, forward);
    this.remote.forwardToLocal(hostPort, this.localPorts.get(hostPort) ?? hostPort).then(
      (localPort) => {
        if (this.forwards.get(hostPort) !== forward) return void this.remote.cancelForward(localPort, hostPort).catch(() => undefined);
        forward.localPort = localPort;
        this.localPorts.set(hostPort, localPort);
        this.notify(forward.users);
      },
      (err: unknown) => {
        if (this.forwards.get(hostPort) !== forward) return;
        forward.error = err instanceof Error ? err.message : String(err); // the forward's own one line
        this.notify(forward.users);
      },
    );
  }

  /** The connection is gone and its forwards with it; the host's report after the reconnect makes them again. */
  private dropAll(): void {
    const users = [...this.forwards.values()].flatMap((forward) => [...forward.users]);
    this.forwards.clear();
    this.notify(new Set(users));
  }

  private notify(users: Set<string>): void {
    if (this.disposed) return;
    for (const project of new Set([...users].map((key) => key.split('\0')[0]))) this.changed.fire(project);
  }
}

function entryKey(project: string, id: string): string {
  return `${project}\0${id}`;
}

function sameList(a: readonly number[] | undefined, b: readonly number[]): boolean {
  return a !== undefined && a.length === b.length && a.every((value, i) => value === b[i]);
}
