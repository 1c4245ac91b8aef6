/**
 * MCP endpoint discovery for several projects: every open project has its own endpoint and token,
 * written to `projects/<project id>/mcp-endpoint.json` in the data directory; the top-level
 * `mcp-endpoint.json` names the active project's (what a client that knows one endpoint finds).
 */
import { join } from 'node:path';
import { readEndpointFile, removeEndpointFile, writeEndpointFile } from '../mcp';
import { isProcessAlive } from '../sessions';
import { DisposableStore, toDisposable, type Disposable } from '../base';
import type { OpenProject, Workspace } from './workspace';

export function projectDiscoveryDir(dataDir: string, projectId: string): string {
  return join(dataDir, 'projects', projectId);
}

/** Keeps the discovery files in step with the workspace until disposed (then removes ours). */
export function publishEndpoints(workspace: Workspace, dataDir: string, pid = process.pid): Disposable {
  const store = new DisposableStore();
  // A previous instance that was killed left its discovery file naming a dead endpoint.
  const stale = readEndpointFile(dataDir);
  if (stale && stale.pid !== pid && !isProcessAlive(stale.pid)) removeEndpointFile(dataDir, stale.pid);
  const write = (dir: string, project: OpenProject) =>
    writeEndpointFile(dir, { url: project.handle.mcp.url, token: project.handle.mcp.token, pid });
  let activeId: string | undefined;
  const writeActive = () => {
    if (workspace.activeId === activeId) return;
    activeId = workspace.activeId;
    if (activeId) write(dataDir, workspace.get(activeId));
    else removeEndpointFile(dataDir, pid);
  };
  for (const project of workspace.list()) write(projectDiscoveryDir(dataDir, project.id), project);
  writeActive();
  store.add(workspace.onProjectOpened((project) => write(projectDiscoveryDir(dataDir, project.id), project)));
  store.add(workspace.onProjectClosing((project) => removeEndpointFile(projectDiscoveryDir(dataDir, project.id), pid)));
  store.add(workspace.onChanged(writeActive));
  store.add(
    toDisposable(() => {
      for (const project of workspace.list()) removeEndpointFile(projectDiscoveryDir(dataDir, project.id), pid);
      removeEndpointFile(dataDir, pid);
    }),
  );
  return store;
}
