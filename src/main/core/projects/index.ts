export { proposeConfig, isOnPath } from './proposeConfig';
export { writeConfig } from './writeConfig';
export { RecentProjects } from './recentProjects';
