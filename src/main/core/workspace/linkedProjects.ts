/**
 * Projects another machine's core runs (a remote host's), shown in this workspace beside the local
 * ones. The workspace and its viewers know them only through this interface; `remote/` implements it.
 */
import type { ControlEvent } from '../../../shared/api';
import type { ProjectWaitingAgent } from '../../../shared/inbox';
import type { OpenProjectInfo, RemoteHostInfo } from '../../../shared/workspace';
import type { Disposable, Event } from '../base';

/** One viewer's door to one project: the control API's calls, its events to `emit`. */
export interface ProjectView extends Disposable {
  call(cmd: unknown, rawArgs: unknown): Promise<unknown>;
}

export interface LinkedProjects {
  /** The linked projects open now, each naming its `host`. */
  list(): OpenProjectInfo[];
  /** The list or its counts changed. */
  readonly onChanged: Event<void>;
  /** A waiting agent of a linked project changed: what it asks may have, with no count changing. */
  readonly onWaitingChanged: Event<void>;
  /** A view of one linked project for one viewer; its events come to `emit`. */
  view(id: string, emit: (event: ControlEvent) => void): ProjectView;
  /** The linked projects' waiting agents, each naming its project by the id `list()` gives. */
  listWaiting(): Promise<ProjectWaitingAgent[]>;
  /** This run's hosts in the order added, then the remembered ones (most recent first). */
  hosts(): RemoteHostInfo[];
  /** Connects a host and opens `dir` there when given; rejects with one line when it cannot. */
  addHost(destination: string, dir?: string): Promise<{ host: RemoteHostInfo; projectId?: string }>;
  /** Ends one host's connection (nothing on the host stops); returns it as listed now. */
  disconnectHost(destination: string): RemoteHostInfo;
  /** Disconnects a host when connected and stops remembering it; nothing on the host is touched. */
  forgetHost(destination: string): void;
}
