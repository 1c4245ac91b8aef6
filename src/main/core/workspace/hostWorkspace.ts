/**
 * What a host (the Electron shell, `serve`) holds: the workspace whose projects are built by the
 * composition root, their endpoint discovery files, and the recent-projects list, all in one data
 * directory. Both hosts build it here, so they open, route and close projects the same way.
 */
import { createCore } from '../composition';
import { endSharedPtys } from '../sessions';
import { RecentProjects } from '../projects';
import { publishEndpoints } from './endpointDiscovery';
import { FolderRoots } from './folderRoots';
import { Workspace } from './workspace';

interface HostWorkspaceOptions {
  dataDir: string;
  /** Folders a typed path may lie in. */
  roots: string[];
  /** The native folder dialog, where there is one. */
  chooseFolder?: () => Promise<string | undefined>;
  killGraceMs?: number;
  /** Problems while restoring or saving a project's entries (continuity). */
  log?: (line: string) => void;
}

export interface HostWorkspace {
  workspace: Workspace;
  recent: RecentProjects;
  /** Every project's trees end within their grace, discovery files are removed. */
  dispose(): Promise<void>;
  /** Synchronous last resort: SIGKILL every tree, drop discovery files. */
  killNow(): void;
}

export function createHostWorkspace(options: HostWorkspaceOptions): HostWorkspace {
  const recent = new RecentProjects(options.dataDir);
  const workspace = new Workspace({
    createProject: (dir, { grantTrust }) =>
      createCore({
        projectDir: dir,
        dataDir: options.dataDir,
        grantTrust,
        killGraceMs: options.killGraceMs,
        onContinuityProblem: options.log && ((message) => options.log?.(`switchboard: ${message}`)),
      }),
    recent,
    roots: new FolderRoots(options.roots),
    chooseFolder: options.chooseFolder,
  });
  const discovery = publishEndpoints(workspace, options.dataDir);
  return {
    workspace,
    recent,
    async dispose() {
      discovery.dispose();
      await workspace.dispose();
    },
    killNow() {
      discovery.dispose();
      workspace.killNow();
      endSharedPtys(); // node-pty reporting an exit while the process is torn down would abort it
    },
  };
}
