/**
 * The window title counts entries that need a person (attention flags, agents waiting) across every
 * open project, like the dock badge of the desktop app; in a browser tab (serve) it is the badge.
 */
import { useUi } from './store';
import type { ProcessInfo } from '../../../shared/model';

function needsPerson(p: ProcessInfo): boolean {
  return p.attention !== undefined || p.agent?.primary === 'waiting';
}

export function installTitleBadge(): () => void {
  const update = () => {
    const { processes, project, workspace, activeProjectId } = useUi.getState();
    // The active project's own entries are the freshest; the others come with the workspace's counts.
    const others = (workspace?.projects ?? []).filter((p) => p.id !== activeProjectId).reduce((sum, p) => sum + p.needsAttention, 0);
    const count = Object.values(processes).filter(needsPerson).length + others;
    const base = project ? `Switchboard — ${project.name}` : 'Switchboard';
    document.title = count > 0 ? `(${count}) ${base}` : base;
  };
  update();
  return useUi.subscribe(update);
}
