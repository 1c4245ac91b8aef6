/**
 * The top of the sidebar: every open project, the active one highlighted, each with how many of
 * its entries need a person; "+" opens one more (the welcome view), "×" closes one (only its trees stop).
 */
import { useUi } from '../app/store';
import type { RemoteHostInfo } from '../../../shared/workspace';
import { closeProject, focusProject } from './projects';
import { HOST_TONES } from '../remote/RemoteHosts';

export function ProjectSwitcher() {
  const projects = useUi((s) => s.workspace?.projects ?? []);
  const hosts = useUi((s) => s.workspace?.hosts ?? []);
  const activeId = useUi((s) => s.activeProjectId);
  const isOpeningAnother = useUi((s) => s.isOpeningAnother);
  return (
    <nav className="project-switcher" aria-label="Open projects" data-testid="project-switcher">
      {projects.map((project) => (
        <div
          key={project.id}
          className={`project-tab${project.id === activeId && !isOpeningAnother ? ' active' : ''}`}
          data-testid="project-tab"
          data-project={project.name}
          data-id={project.id}
        >
          <button type="button" className="project-name" title={project.dir} onClick={() => void focusProject(project.id)}>
            {project.name}
            {project.host && <HostTag host={hosts.find((h) => h.destination === project.host)} destination={project.host} />}
            {project.needsAttention > 0 && (
              <span className="project-attention" data-testid="project-attention" title="Entries that need you">
                {project.needsAttention}
              </span>
            )}
          </button>
          <button
            type="button"
            className="project-close"
            title={`Close ${project.name} (stops its processes)`}
            aria-label={`Close ${project.name}`}
            onClick={() => void closeProject(project.id)}
            data-testid="project-close"
          >
            ×
          </button>
        </div>
      ))}
      <button
        type="button"
        className={`project-add${isOpeningAnother ? ' active' : ''}`}
        title="Open another project"
        onClick={() => useUi.setState({ isOpeningAnother: !isOpeningAnother })}
        data-testid="project-add"
      >
        +
      </button>
    </nav>
  );
}

/** A remote project's host; a host that is not connected says so (its panes wait for the reconnect). */
function HostTag({ host, destination }: { host: RemoteHostInfo | undefined; destination: string }) {
  const status = host?.status ?? 'connected';
  const title = status === 'connected' ? `On ${destination} over ssh` : `${destination}: ${host?.message ?? status}`;
  return (
    <span
      className={`project-host${status === 'connected' ? '' : ` ${HOST_TONES[status]}`}`}
      data-testid="project-host"
      data-status={status}
      title={title}
    >
      {destination}
    </span>
  );
}
