/** Several projects open in one window: the registry of open projects and where typed folders may lie. */
export { Workspace, UnknownProjectError, projectIdOf, type OpenProject, type ProjectFactory, type WorkspaceOptions } from './workspace';
export { FolderRoots, MAX_COMPLETIONS } from './folderRoots';
export { publishEndpoints, projectDiscoveryDir } from './endpointDiscovery';
export { createHostWorkspace, type HostWorkspace, type HostWorkspaceOptions } from './hostWorkspace';
