/**
 * The welcome view: shown when no project is open (and from the switcher's "+"). Recent projects
 * with what ran last time and what waits for a person, "Open folder…" (the native dialog in the
 * desktop app), a path field completed by the core within the allowed folders, dropping a folder,
 * and remote hosts (RemoteHosts).
 */
import { useEffect, useRef, useState, type DragEvent } from 'react';
import type { RecentProjectInfo } from '../../../shared/workspace';
import { useUi } from '../app/store';
import { chooseFolder, completePath, focusProject, openFolder } from './projects';
import { RemoteHosts } from '../remote/RemoteHosts';

/** Completions are asked for once typing pauses this long. */
const COMPLETION_DELAY_MS = 120;
const MAX_SHOWN_COMPLETIONS = 8;

export function Welcome() {
  const workspace = useUi((s) => s.workspace);
  const [dropMessage, setDropMessage] = useState<string>();
  if (!workspace) return null;
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    const file = event.dataTransfer.files[0];
    if (!file) return;
    // Only the desktop app can tell where a dropped folder lives; a browser hands over its contents at most.
    const dir = window.switchboard?.pathForFile(file);
    if (dir) void openFolder(dir, setDropMessage);
    else setDropMessage(`A browser cannot tell Switchboard where "${file.name}" lives: type its path in the field above.`);
  };
  return (
    <main className="welcome" data-testid="welcome" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      <section className="welcome-card">
        <h2>Open a project</h2>
        <div className="welcome-actions">
          {workspace.hasFolderDialog && (
            <button type="button" onClick={() => void chooseFolder()} data-testid="open-folder">
              Open folder…
            </button>
          )}
          <PathField />
        </div>
        <p className="welcome-hint" data-testid="drop-hint">
          {dropMessage ?? `Or drop a folder here. Folders you may open: ${workspace.roots.join(', ')}`}
        </p>
        <RecentList recent={workspace.recent} />
        <RemoteHosts />
      </section>
    </main>
  );
}

function PathField() {
  const [value, setValue] = useState('');
  const [folders, setFolders] = useState<string[]>([]);
  const [error, setError] = useState<string>();
  const asked = useRef(0);
  useEffect(() => {
    const serial = ++asked.current;
    const timer = setTimeout(() => {
      void completePath(value).then((completion) => {
        if (serial === asked.current) setFolders(completion?.folders ?? []);
      });
    }, COMPLETION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [value]);
  const open = (dir: string) => {
    setError(undefined);
    if (dir.trim()) void openFolder(dir.trim(), setError);
  };
  const complete = (dir: string) => {
    setValue(`${dir}/`);
    setError(undefined);
  };
  return (
    <form
      className="path-field"
      onSubmit={(e) => {
        e.preventDefault();
        open(value);
      }}
    >
      <input
        aria-label="Folder path"
        placeholder="~/code/my-project"
        value={value}
        spellCheck={false}
        autoFocus
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Tab' && folders.length > 0 && !e.shiftKey) {
            e.preventDefault();
            complete(folders[0]);
          }
        }}
        data-testid="path-input"
      />
      <button type="submit" data-testid="path-open">
        Open
      </button>
      {error && (
        <div className="path-error" role="alert" data-testid="path-error">
          {error}
        </div>
      )}
      {folders.length > 0 && (
        <ul className="path-completions" data-testid="path-completions">
          {folders.slice(0, MAX_SHOWN_COMPLETIONS).map((dir) => (
            <li key={dir}>
              <button type="button" onClick={() => complete(dir)} data-testid="path-completion" data-path={dir}>
                {dir}
              </button>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}

function RecentList({ recent }: { recent: RecentProjectInfo[] }) {
  if (recent.length === 0) return <p className="welcome-hint">No recent projects yet.</p>;
  return (
    <ul className="recent-projects" data-testid="recent-projects">
      {recent.map((project) => (
        <li key={project.dir}>
          <button
            type="button"
            data-testid="recent-project"
            data-dir={project.dir}
            onClick={() => void (project.openId ? focusProject(project.openId) : openFolder(project.dir))}
          >
            <span className="recent-name">{project.name}</span>
            {project.openId && <span className="recent-open">open</span>}
            {project.needsAttention > 0 && (
              <span className="recent-attention" data-testid="recent-attention">
                {project.needsAttention} need{project.needsAttention === 1 ? 's' : ''} you
              </span>
            )}
            <span className="recent-dir">{project.dir}</span>
            <span className="recent-ran">{describeRuns(project)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function describeRuns(project: RecentProjectInfo): string {
  const names = project.lastRun.join(', ');
  if (project.openId) return names ? `running: ${names}` : 'open, nothing running';
  return names ? `ran last time: ${names}` : 'nothing ran last time';
}
