/** Several projects open in one window: the registry of open projects and where typed folders may lie. */
export { Workspace, type OpenProject } from './workspace';
export { FolderRoots } from './folderRoots';
export { createHostWorkspace, type HostWorkspace } from './hostWorkspace';
export type { LinkedProjects, ProjectView } from './linkedProjects';
