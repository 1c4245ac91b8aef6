export { proposeConfig, configPath, isOnPath } from './proposeConfig';
export { writeConfig, configFromEntries, SCHEMA_REFERENCE } from './writeConfig';
export type { ProposalContext } from './manifests/context';
export { parseProcfile } from './manifests/procfile';
export { RecentProjects, MAX_RECENT_PROJECTS, type RecentProjectRecord, type ProjectCloseRecord } from './recentProjects';
