/**
 * One laptop viewer of one project on a remote host: the host's own UI socket (one per viewer, so
 * the host keeps each viewer's attachments and flow control apart), its events tagged with the host.
 * When the connection comes back after a drop, every pane the viewer had attached is told to attach
 * again: the host answers with its current screen, the same path a browser takes after a `serve`
 * restart, so nothing is shown twice and nothing is missed.
 */
import type { ControlEvent } from '../../../shared/api';
import type { ProcessInfo } from '../../../shared/model';
import type { Disposable } from '../base';
import type { ProjectView } from '../workspace';
import { HostUiClient } from './hostUiClient';
import type { RemoteHost } from './remoteHost';
import type { RemotePortForwards } from './remotePortForwards';

export class RemoteProjectView implements ProjectView {
  private client: Promise<HostUiClient> | undefined;
  private readonly attached = new Set<string>();
  /** Each entry as the host last reported it: shown again when its forwards change. */
  private readonly entries = new Map<string, ProcessInfo>();
  private readonly subscriptions: Disposable[];
  private hasConnected = false;
  private disposed = false;

  constructor(
    private readonly host: RemoteHost,
    private readonly forwards: RemotePortForwards,
    private readonly hostProjectId: string,
    private readonly emit: (event: ControlEvent) => void,
  ) {
    this.subscriptions = [
      host.onDidChangeState((state) => {
        if (state.status === 'connected' && !this.client) this.open();
      }),
      forwards.onDidChange((project) => {
        if (project === hostProjectId)
          for (const entry of this.entries.values()) this.emit({ type: 'processChanged', process: this.shown(entry) });
      }),
    ];
    if (host.state.status === 'connected') this.open();
  }

  async call(cmd: unknown, rawArgs: unknown): Promise<unknown> {
    const host = this.host.state.host;
    if (!this.client) throw new Error(`${host} is ${this.host.state.status}: ${this.host.state.message ?? 'reconnecting'}`);
    const client = await this.client;
    const value = await client.call(String(cmd), rawArgs, this.hostProjectId);
    const id = (rawArgs as { id?: string } | undefined)?.id;
    if (cmd === 'attach' && id) this.attached.add(id);
    if (cmd === 'detach' && id) this.attached.delete(id);
    return cmd === 'getSnapshot' ? this.shownSnapshot(value as { processes: ProcessInfo[] }) : value;
  }

  dispose(): void {
    this.disposed = true;
    for (const subscription of this.subscriptions) subscription.dispose();
    void this.client?.then((client) => client.close()).catch(() => undefined);
  }

  private open(): void {
    const ui = this.host.state.ui;
    if (!ui || this.disposed) return;
    const opening = HostUiClient.open(ui, this.host.state.host, (event, project) => this.receive(event, project));
    this.client = opening;
    opening.then(
      (client) => {
        if (this.disposed) return client.close();
        client.onDidClose(() => {
          if (this.client === opening) this.client = undefined;
        });
        if (this.hasConnected) this.resetPanes();
        this.hasConnected = true;
      },
      () => {
        if (this.client === opening) this.client = undefined;
      },
    );
  }

  /** Back after a drop: the host has no attachment of ours any more; each pane attaches again. */
  private resetPanes(): void {
    const ids = [...this.attached];
    this.attached.clear();
    for (const id of ids) this.emit({ type: 'outputReset', id });
  }

  private receive(event: ControlEvent, project: string | undefined): void {
    if (event.type === 'output') return this.emit(event);
    if (project !== this.hostProjectId) return; // the host's other projects and its workspace events
    if (event.type === 'processAdded' || event.type === 'processChanged') {
      this.entries.set(event.process.id, event.process);
      return this.emit({ ...event, process: this.shown(event.process) });
    }
    if (event.type === 'processRemoved') this.entries.delete(event.id);
    this.emit(event);
  }

  /** The entry as this machine shows it: tagged with its host, its served ports' URLs the local forwards'. */
  private shown(process: ProcessInfo): ProcessInfo {
    return this.forwards.localize({ ...process, host: this.host.state.host });
  }

  private shownSnapshot<T extends { processes: ProcessInfo[] }>(snapshot: T): T {
    for (const process of snapshot.processes) this.entries.set(process.id, process);
    return { ...snapshot, processes: snapshot.processes.map((process) => this.shown(process)) };
  }
}
