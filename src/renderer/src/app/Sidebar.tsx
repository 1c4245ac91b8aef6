import { memo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { run, useUi } from './store';
import { arrangedIds } from '../panes/view';
import { ViewSettings } from '../settings/ViewSettings';
import { StatusBadges } from '../panes/StatusBadges';
import { NewTaskForm } from '../tasks/TaskPanel';
import { ConnectPanel } from '../mcp/ConnectPanel';
import { TrustBanner } from '../trust/TrustPrompt';
import { AGENT_PRESET_IDS } from '../../../shared/agentPresets';
import { waitingCount } from '../inbox/Inbox';
import { usageWarningRows } from '../usage/UsageWarningRows';
import { withChord } from './shortcuts';
import { ProjectSwitcher } from '../projects/ProjectSwitcher';
import { WorktreeGroups } from '../worktrees/WorktreeGroups';
import { groupByWorktree, useWorktrees, worktreeIdsOf } from '../worktrees/worktrees';

export function Sidebar() {
  // Only the list of ids here: each row subscribes to its own entry, so a change re-renders one row.
  const ids = useUi(useShallow((s) => arrangedIds(s.order, s.processes, s.view)));
  const project = useUi((s) => s.project);
  const issues = useUi((s) => s.configIssues);
  const waiting = useUi((s) => waitingCount(s.processes));
  const nearLimit = useUi((s) => usageWarningRows(s.processes).length);
  const screenReaderMode = useUi((s) => s.screenReaderMode);
  const worktreeIds = useUi(useShallow((s) => worktreeIdsOf(s.processes)));
  const worktrees = useWorktrees((s) => s.list);
  const untrustedWorktrees = useWorktrees((s) => s.untrusted);
  const groups = groupByWorktree(ids, worktreeIds, worktrees);
  return (
    <aside className="sidebar" data-testid="sidebar">
      <h1>Switchboard</h1>
      <ProjectSwitcher />
      <div className="project" title={project?.dir}>
        {project?.dir}
      </div>
      <div className="sidebar-tools">
        <button
          className={`inbox-button${waiting + nearLimit > 0 ? ' has-waiting' : ''}`}
          data-testid="open-inbox"
          title={withChord('Attention inbox', 'inbox')}
          onClick={() => useUi.getState().setOverlay({ kind: 'inbox' })}
        >
          Inbox{waiting > 0 ? ` · ${waiting} waiting` : ''}
          {nearLimit > 0 ? ` · ${nearLimit} near limit` : ''}
        </button>
        <button
          data-testid="open-palette"
          title={withChord('Command palette', 'palette')}
          onClick={() => useUi.getState().setOverlay({ kind: 'palette' })}
        >
          Commands
        </button>
        <button
          data-testid="open-usage"
          title="Usage: cost, tokens and limits per agent and day"
          onClick={() => useUi.getState().setOverlay({ kind: 'usage' })}
        >
          Usage
        </button>
        <button
          data-testid="open-new-worktree"
          title="New agent in a worktree…: its own branch and checkout"
          onClick={() => useUi.getState().setOverlay({ kind: 'newWorktree' })}
        >
          Worktree…
        </button>
        <button
          data-testid="open-devices"
          title="Devices and notifications: pair a phone, where notifications go"
          onClick={() => useUi.getState().setOverlay({ kind: 'devices' })}
        >
          Devices…
        </button>
      </div>
      <TrustBanner />
      {issues.length > 0 && (
        <ul className="config-issues" data-testid="config-issues">
          {issues.map((issue, i) => (
            <li key={i}>{issue.path ? `${issue.path} ${issue.message}` : issue.message}</li>
          ))}
        </ul>
      )}
      {untrustedWorktrees && (
        <p className="worktrees-untrusted" data-testid="worktrees-untrusted">
          {untrustedWorktrees}
        </p>
      )}
      {groups ? (
        <WorktreeGroups groups={groups} renderRow={(id) => <SidebarRow key={id} id={id} />} />
      ) : (
        <ul className="entries" aria-label="Processes">
          {ids.map((id) => (
            <SidebarRow key={id} id={id} />
          ))}
        </ul>
      )}
      <ViewSettings />
      <AddEntryForm />
      <details className="new-task" data-testid="new-task-toggle">
        <summary>New headless task</summary>
        <NewTaskForm />
      </details>
      <label className="check screen-reader-toggle">
        <input
          type="checkbox"
          data-testid="screen-reader-mode"
          checked={screenReaderMode}
          onChange={(e) => useUi.getState().setScreenReaderMode(e.target.checked)}
        />
        Screen reader mode (terminals)
      </label>
      <ConnectPanel />
    </aside>
  );
}

const SidebarRow = memo(function SidebarRow({ id }: { id: string }) {
  const p = useUi((s) => s.processes[id]);
  const isFocused = useUi((s) => s.focusedId === id);
  if (!p) return null;
  return (
    <li data-testid="sidebar-entry" data-id={id} className={isFocused ? 'focused' : ''} onClick={() => useUi.getState().focus(id)}>
      <EntryName id={id} name={p.name} isFocused={isFocused} />
      <StatusBadges process={p} />
    </li>
  );
});

function EntryName({ id, name, isFocused }: { id: string; name: string; isFocused: boolean }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  const startRename = () => {
    setValue(name);
    setEditing(true);
  };
  if (!editing) {
    // A button: reachable with Tab, Enter/Space focuses the pane, F2 renames.
    return (
      <button
        type="button"
        className="entry-name"
        data-testid="entry-name"
        aria-current={isFocused ? 'true' : undefined}
        title="Double-click or F2 to rename"
        onDoubleClick={startRename}
        onKeyDown={(e) => {
          if (e.key === 'F2') {
            e.preventDefault();
            startRename();
          }
        }}
      >
        {name}
      </button>
    );
  }
  const commit = () => {
    setEditing(false);
    if (value.trim() && value !== name) void run((c) => c.call('renameProcess', { id, name: value.trim() }));
  };
  return (
    <input
      className="rename"
      aria-label={`New name for ${name}`}
      data-testid="rename-input"
      autoFocus
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        if (e.key === 'Escape') setEditing(false);
      }}
    />
  );
}

function AddEntryForm() {
  const [kind, setKind] = useState<'terminal' | 'command' | 'agent'>('terminal');
  const [preset, setPreset] = useState<string>('claude');
  const [commandLine, setCommandLine] = useState('');
  const [name, setName] = useState('');
  // Before the first snapshot there is nobody to send an entry to: the button waits, it does not drop the click.
  const isConnected = useUi((s) => s.client !== undefined);
  const submit = async () => {
    const line = commandLine.trim();
    const label = name.trim() ? { name: name.trim() } : {};
    const created = await run((c) =>
      kind === 'agent'
        ? c.call('spawnAgent', { preset, ...label, ...(line ? { argv: ['/bin/sh', '-c', line] } : {}) })
        : c.call('spawnProcess', { kind, ...(line ? { shell: line } : {}), ...label }),
    );
    if (created) {
      setCommandLine('');
      setName('');
      useUi.getState().focus(created.id);
    }
  };
  const placeholder =
    kind === 'terminal' ? 'shell (default)' : kind === 'agent' ? "command (default: the preset's)" : 'command line, e.g. npm run dev';
  return (
    <form
      className="add-entry"
      data-testid="add-entry"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <select aria-label="Kind of entry" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)} data-testid="add-kind">
        <option value="terminal">terminal</option>
        <option value="command">command</option>
        <option value="agent">agent</option>
      </select>
      {kind === 'agent' && (
        <select aria-label="Agent preset" value={preset} onChange={(e) => setPreset(e.target.value)} data-testid="add-preset">
          {AGENT_PRESET_IDS.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      )}
      <input
        aria-label="Command"
        placeholder={placeholder}
        value={commandLine}
        onChange={(e) => setCommandLine(e.target.value)}
        data-testid="add-command"
      />
      <input
        aria-label="Name (optional)"
        placeholder="name (optional)"
        value={name}
        onChange={(e) => setName(e.target.value)}
        data-testid="add-name"
      />
      <button type="submit" data-testid="add-submit" disabled={!isConnected}>
        Add
      </button>
    </form>
  );
}
