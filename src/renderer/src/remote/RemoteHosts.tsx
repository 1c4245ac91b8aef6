/**
 * The welcome view's remote hosts: "Add host" (an SSH destination as the user's ssh takes it, and
 * optionally a folder there) and every host connected or remembered, with its open projects and
 * its remembered folders. Connecting is the core's `addHost` (what `serve --remote` does); a
 * failure shows as the core's one line under the form. Disconnect ends one host's connection and
 * Forget (after a confirm) drops it from the remembered ones; neither stops anything on the host.
 */
import { useEffect, useRef, useState } from 'react';
import type { OpenProjectInfo, RemoteHostInfo } from '../../../shared/workspace';
import { useUi } from '../app/store';
import { addHost, disconnectHost, focusProject, forgetHost } from '../projects/projects';

const STATUS_LABELS: Record<RemoteHostInfo['status'], string> = {
  remembered: 'not connected',
  connecting: 'connecting…',
  connected: 'connected',
  disconnected: 'disconnected, reconnecting',
  failed: 'failed',
};

/** A host's status in the colours the entries' states use. */
export const HOST_TONES: Record<RemoteHostInfo['status'], string> = {
  remembered: 'tone-stopped',
  connecting: 'tone-starting',
  connected: 'tone-running',
  disconnected: 'tone-waiting',
  failed: 'tone-error',
};

/** Set by the palette's "Add SSH host…": the host field takes the keyboard when the view shows. */
let isHostFieldRequested = false;
export function requestHostField(): void {
  isHostFieldRequested = true;
  useUi.setState({ isOpeningAnother: true });
}

export function RemoteHosts() {
  const hosts = useUi((s) => s.workspace?.hosts ?? []);
  const projects = useUi((s) => s.workspace?.projects ?? []);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const connect = async (destination: string, dir = '') => {
    setError(undefined);
    setBusy(destination);
    try {
      await addHost(destination, dir, setError);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section className="remote-hosts" data-testid="remote-hosts">
      <h3>Remote hosts</h3>
      <AddHostForm busy={busy} connect={connect} error={error} />
      {hosts.length > 0 && (
        <ul className="host-list" data-testid="host-list">
          {hosts.map((host) => (
            <HostRow
              key={host.destination}
              host={host}
              projects={projects.filter((p) => p.host === host.destination)}
              isBusy={busy === host.destination}
              connect={connect}
              onError={setError}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

interface AddHostFormProps {
  busy: string | undefined;
  error: string | undefined;
  connect: (destination: string, dir?: string) => Promise<void>;
}

function AddHostForm({ busy, error, connect }: AddHostFormProps) {
  const [destination, setDestination] = useState('');
  const [dir, setDir] = useState('');
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!isHostFieldRequested) return;
    isHostFieldRequested = false;
    field.current?.focus();
  }, []);
  return (
    <form
      className="host-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (destination.trim()) void connect(destination.trim(), dir.trim());
      }}
    >
      <input
        ref={field}
        aria-label="SSH host"
        placeholder="user@host or an ~/.ssh/config alias"
        value={destination}
        spellCheck={false}
        onChange={(e) => setDestination(e.target.value)}
        data-testid="host-input"
      />
      <input
        aria-label="Folder on the host"
        placeholder="~/code/app (optional)"
        value={dir}
        spellCheck={false}
        onChange={(e) => setDir(e.target.value)}
        data-testid="host-folder"
      />
      <button type="submit" disabled={busy !== undefined} data-testid="host-connect">
        {busy === destination.trim() && busy ? 'Connecting…' : 'Connect'}
      </button>
      {error && (
        <div className="path-error" role="alert" data-testid="host-error">
          {error}
        </div>
      )}
    </form>
  );
}

interface HostRowProps {
  host: RemoteHostInfo;
  projects: OpenProjectInfo[];
  isBusy: boolean;
  connect: (destination: string, dir?: string) => Promise<void>;
  onError: (message: string) => void;
}

function HostRow({ host, projects, isBusy, connect, onError }: HostRowProps) {
  const closedDirs = host.folders.filter((folder) => folder.projectId === undefined).map((folder) => folder.dir);
  return (
    <li className="host-row" data-testid="remote-host" data-host={host.destination} data-status={host.status}>
      <div className="host-head">
        <span className="host-name">{host.destination}</span>
        <span className={`host-status ${HOST_TONES[host.status]}`}>{isBusy ? 'connecting…' : STATUS_LABELS[host.status]}</span>
        {host.status !== 'connected' && (
          <button type="button" disabled={isBusy} onClick={() => void connect(host.destination)} data-testid="host-reconnect">
            Connect
          </button>
        )}
        {host.status !== 'remembered' && host.status !== 'failed' && (
          <button
            type="button"
            title="End this connection: its processes keep running on the host"
            onClick={() => void disconnectHost(host.destination, onError)}
            data-testid="host-disconnect"
          >
            Disconnect
          </button>
        )}
        <ForgetHost destination={host.destination} onError={onError} />
      </div>
      {host.message && (
        <div className="host-message" data-testid="host-message">
          {host.message}
        </div>
      )}
      <ul className="host-projects">
        {projects.map((project) => (
          <li key={project.id}>
            <button type="button" onClick={() => void focusProject(project.id)} data-testid="host-project" data-id={project.id}>
              {project.name} <span className="recent-dir">{project.dir}</span>
            </button>
          </li>
        ))}
        {closedDirs.map((dir) => (
          <li key={dir}>
            <button type="button" disabled={isBusy} onClick={() => void connect(host.destination, dir)} data-testid="host-folder-open">
              Open {dir}
            </button>
          </li>
        ))}
      </ul>
    </li>
  );
}

/** Forget asks first: the host leaves the lists here; its processes and files there stay as they are. */
function ForgetHost({ destination, onError }: { destination: string; onError: (message: string) => void }) {
  const [isConfirming, setConfirming] = useState(false);
  if (!isConfirming)
    return (
      <button type="button" onClick={() => setConfirming(true)} data-testid="host-forget">
        Forget…
      </button>
    );
  return (
    <span className="host-forget-confirm">
      Forget {destination} here? Nothing on the host stops or is deleted.
      <button type="button" className="danger" onClick={() => void forgetHost(destination, onError)} data-testid="host-forget-confirm">
        Forget
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        Keep
      </button>
    </span>
  );
}
