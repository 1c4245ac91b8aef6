/**
 * One viewer of the whole workspace (an Electron window or a browser tab): a ControlClientSession
 * per open project, so each project's events reach the viewer tagged with its id, and calls are
 * routed to the project they name. IPC and the WebSocket bridge both wrap this class.
 */
import { randomUUID } from 'node:crypto';
import type { ControlEvent } from '../../../shared/api';
import { InvalidArgumentError } from '../../../shared/errors';
import { WorkspaceCommandArgs, type WorkspaceCommandName, type OpenProjectInfo } from '../../../shared/workspace';
import { DisposableStore } from '../base';
import type { OpenProject, ProjectView, Workspace } from '../workspace';
import { ControlClientSession } from './controlClientSession';
import { parseArgsWith } from './commandDispatch';

/** Sends one event to the viewer; `project` is the id of the project it belongs to. */
type EmitToViewer = (event: ControlEvent, project?: string) => void;

export class WorkspaceClientSession {
  private readonly perProject = new Map<string, ProjectView>();
  private readonly store = new DisposableStore();
  /** Names this viewer in presence reports. */
  private readonly viewer = `viewer-${randomUUID()}`;
  private hasReportedPresence = false;

  constructor(
    private readonly workspace: Workspace,
    private readonly emit: EmitToViewer,
  ) {
    for (const project of workspace.list()) this.follow(project);
    this.store.add(workspace.onProjectOpened((project) => this.follow(project)));
    this.store.add(workspace.onProjectClosing((project) => this.unfollow(project.id)));
    this.store.add(
      workspace.onChanged((state) => {
        this.followLinked(state.projects.filter((p) => p.host !== undefined).map((p) => p.id));
        this.emit({ type: 'workspaceChanged', workspace: state });
      }),
    );
    this.followLinked(
      workspace
        .state()
        .projects.filter((p) => p.host !== undefined)
        .map((p) => p.id),
    );
  }

  /** Validate and run one command: a workspace command, or a project's (the active one without `project`). */
  async call(cmd: unknown, rawArgs: unknown, project?: unknown): Promise<unknown> {
    if (isWorkspaceCommand(cmd)) return this.workspaceCall(cmd, parseWorkspaceArgs(cmd, rawArgs));
    if (project !== undefined && typeof project !== 'string') throw new InvalidArgumentError('project must be a project id string');
    const id = project ?? this.workspace.shownId;
    const linked = this.workspace.linkedOwning(id);
    if (linked && id !== undefined)
      return (this.perProject.get(id) ?? this.followOne(id, linked.view(id, this.emitFor(id)))).call(cmd, rawArgs);
    const target = project === undefined ? this.workspace.activeProject() : this.workspace.get(project);
    const session = this.perProject.get(target.id) ?? this.follow(target);
    return session.call(cmd, rawArgs);
  }

  dispose(): void {
    // A closed tab no longer counts as the person being at it.
    if (this.hasReportedPresence) this.leavePresence();
    for (const id of [...this.perProject.keys()]) this.unfollow(id);
    this.store.dispose();
  }

  private async workspaceCall(cmd: WorkspaceCommandName, args: Record<string, string>): Promise<unknown> {
    const ws = this.workspace;
    switch (cmd) {
      case 'getWorkspace':
        return ws.state();
      case 'openProject':
        return info(ws, await ws.openTyped(args.dir));
      case 'closeProject':
        if (ws.linkedOwning(args.projectId))
          throw new InvalidArgumentError('A remote project stays open on its host: close it there, or disconnect the host');
        await ws.close(args.projectId);
        return { closed: true };
      case 'focusProject':
        return ws.linkedOwning(args.projectId) ? ws.focusLinked(args.projectId) : info(ws, ws.focus(args.projectId));
      case 'completePath':
        return ws.completePath(args.partial);
      case 'addHost':
        return ws.addHost(args.destination, args.dir);
      case 'disconnectHost':
        return ws.disconnectHost(args.destination);
      case 'forgetHost':
        return ws.forgetHost(args.destination);
      case 'listWaitingAcrossProjects':
        return { agents: await ws.listWaitingEverywhere() };
      case 'chooseFolder': {
        const opened = await ws.chooseAndOpen();
        return opened ? info(ws, opened) : null;
      }
      case 'reportPresence':
        this.hasReportedPresence = true;
        return ws.callDeviceCommand(cmd, { ...args, viewer: this.viewer });
      default:
        return ws.callDeviceCommand(cmd, args);
    }
  }

  /** Unfocused, with no new input: its last keystroke still counts. */
  private leavePresence(): void {
    try {
      void this.workspace.callDeviceCommand('reportPresence', { viewer: this.viewer, focused: false }).catch(() => undefined);
    } catch {
      // the device commands were taken down first (shutdown): nobody to tell
    }
  }

  private follow(project: OpenProject): ProjectView {
    const existing = this.perProject.get(project.id);
    if (existing) return existing;
    return this.followOne(project.id, new ControlClientSession(project.handle.core, this.emitFor(project.id)));
  }

  /** Every linked project open now has a view (its attention events reach this viewer); gone ones are let go. */
  private followLinked(ids: string[]): void {
    for (const id of ids) {
      const linked = this.workspace.linkedOwning(id);
      if (linked && !this.perProject.has(id)) this.followOne(id, linked.view(id, this.emitFor(id)));
    }
    for (const id of this.perProject.keys()) {
      const isLocal = this.workspace.list().some((p) => p.id === id);
      if (!isLocal && !ids.includes(id)) this.unfollow(id);
    }
  }

  private followOne(id: string, view: ProjectView): ProjectView {
    this.perProject.set(id, view);
    return view;
  }

  private emitFor(project: string): (event: ControlEvent) => void {
    return (event) => this.emit(event, project);
  }

  private unfollow(id: string): void {
    this.perProject.get(id)?.dispose();
    this.perProject.delete(id);
  }
}

function info(workspace: Workspace, project: OpenProject): OpenProjectInfo {
  const found = workspace.state().projects.find((p) => p.id === project.id);
  if (!found) throw new InvalidArgumentError(`Project ${project.dir} closed while it was opening`);
  return found;
}

function isWorkspaceCommand(cmd: unknown): cmd is WorkspaceCommandName {
  return typeof cmd === 'string' && Object.prototype.hasOwnProperty.call(WorkspaceCommandArgs, cmd);
}

function parseWorkspaceArgs(cmd: WorkspaceCommandName, raw: unknown): Record<string, string> {
  return parseArgsWith(WorkspaceCommandArgs[cmd], cmd, raw) as Record<string, string>;
}
