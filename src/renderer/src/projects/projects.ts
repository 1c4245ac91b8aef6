/**
 * The window's project dimension: which open project the grid shows, following the workspace's
 * active project, and the actions of the switcher and the welcome view.
 */
import type { ControlClient, ControlEvent, WorkspaceClient } from '../../../shared/api';
import type { WorkspaceState } from '../../../shared/workspace';
import { projectClient } from '../app/transport';
import { useUi } from '../app/store';
import { panes } from '../terminal/terminalPane';

/** Takes the workspace's state; loads the active project's snapshot when it changed. */
async function applyWorkspace(workspace: WorkspaceState): Promise<void> {
  const ui = useUi.getState();
  useUi.setState({ workspace });
  if (workspace.activeId === ui.activeProjectId && (ui.client || !workspace.activeId)) return;
  await loadProject(workspace.activeId);
}

async function loadProject(projectId: string | undefined): Promise<void> {
  const { workspaceClient, showProject } = useUi.getState();
  if (!workspaceClient) return;
  showProject(projectId);
  if (!projectId) return;
  await loadProjectView(projectClient(workspaceClient, projectId), projectId);
}

/**
 * The project's entries and its view state (layout, zoom, theme: kept per project by its core).
 * The snapshot is asked last and taken in the same tick its answer arrives: every event the core
 * sends after it is newer and lands on top of it, and none can fall between it and the store (an
 * entry that became ready in that gap would read "starting" until its next change).
 */
async function loadProjectView(client: ControlClient, projectId: string): Promise<void> {
  const view = await client.call('getUiState', {});
  const snapshot = await client.call('getSnapshot', {});
  // Another switch happened while this snapshot travelled: that one wins.
  if (useUi.getState().activeProjectId !== projectId) return;
  useUi.setState({ view });
  useUi.getState().setClient(client, snapshot);
}

/**
 * After the transport reconnected: the projects may have changed (or all be new, if serve
 * restarted), so read the workspace again. The active project, if still open, keeps its mounted
 * panes: each shows the core's current screen again; entries that are gone unmount with their entry.
 */
export async function resyncWorkspace(): Promise<void> {
  const { workspaceClient, activeProjectId, client } = useUi.getState();
  if (!workspaceClient) return;
  const workspace = await workspaceClient.workspace('getWorkspace', {});
  useUi.setState({ workspace });
  if (!client || workspace.activeId !== activeProjectId || activeProjectId === undefined) return loadProject(workspace.activeId);
  await loadProjectView(client, activeProjectId);
  await Promise.all([...panes.values()].map((pane) => pane.attach().catch(() => undefined)));
}

/** Events of the active project (or of none: connection notices) update the view; others show in the workspace counts. */
export function routeProjectEvent(event: ControlEvent, project: string | undefined): void {
  if (event.type === 'workspaceChanged') {
    void applyWorkspace(event.workspace).catch(showError);
    return;
  }
  if (project === undefined || project === useUi.getState().activeProjectId) useUi.getState().apply(event);
}

export async function connectWorkspace(client: WorkspaceClient): Promise<void> {
  useUi.setState({ workspaceClient: client });
  await applyWorkspace(await client.workspace('getWorkspace', {}));
}

/** Runs a workspace action, its error shown where the person acted (`onError`) or as the toast. */
async function workspaceAction<T>(action: (client: WorkspaceClient) => Promise<T>, onError = showError): Promise<T | undefined> {
  const { workspaceClient } = useUi.getState();
  if (!workspaceClient) return undefined;
  try {
    return await action(workspaceClient);
  } catch (err) {
    onError(err instanceof Error ? err.message : String(err));
    return undefined;
  }
}

export const openFolder = (dir: string, onError?: (message: string) => void) =>
  workspaceAction((c) => c.workspace('openProject', { dir }), onError);
export const chooseFolder = () => workspaceAction((c) => c.workspace('chooseFolder', {}));
/** Connects a remote host (and opens `dir` there); its one-line failure goes to `onError`. */
export async function addHost(destination: string, dir: string, onError?: (message: string) => void) {
  const added = await workspaceAction((c) => c.workspace('addHost', { destination, ...(dir ? { dir } : {}) }), onError);
  // The welcome view stays while it failed: its line shows there.
  if (added?.project) useUi.setState({ isOpeningAnother: false });
  return added;
}
/** Ends one host's connection; its processes and files stay as they are there. */
export const disconnectHost = (destination: string, onError?: (message: string) => void) =>
  workspaceAction((c) => c.workspace('disconnectHost', { destination }), onError);
/** Stops remembering a host (disconnecting it first); nothing on the host is touched. */
export const forgetHost = (destination: string, onError?: (message: string) => void) =>
  workspaceAction((c) => c.workspace('forgetHost', { destination }), onError);
export const closeProject = (projectId: string) => workspaceAction((c) => c.workspace('closeProject', { projectId }));
export const focusProject = (projectId: string) => {
  useUi.setState({ isOpeningAnother: false });
  return workspaceAction((c) => c.workspace('focusProject', { projectId }));
};
/** How long the window waits for a project it switched to before focusing one of its panes anyway. */
const PROJECT_LOAD_TIMEOUT_MS = 10_000;

/** Shows an entry of any open project: switches to its project first when another one is shown, then focuses its pane. */
export async function showEntry(projectId: string, id: string): Promise<void> {
  if (useUi.getState().activeProjectId !== projectId) {
    await focusProject(projectId);
    await untilShown(projectId, id);
  }
  useUi.getState().focus(id);
}

function untilShown(projectId: string, id: string): Promise<void> {
  const isShown = () => {
    const ui = useUi.getState();
    return ui.activeProjectId === projectId && ui.processes[id] !== undefined;
  };
  if (isShown()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      unsubscribe();
      window.clearTimeout(timer);
      resolve();
    };
    const unsubscribe = useUi.subscribe(() => {
      if (isShown()) done();
    });
    const timer = window.setTimeout(done, PROJECT_LOAD_TIMEOUT_MS);
  });
}

export const completePath = (partial: string) =>
  workspaceAction(
    (c) => c.workspace('completePath', { partial }),
    () => undefined,
  );

function showError(message: string): void {
  useUi.getState().setError(message);
}
