import { memo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { run, useUi } from '../store';
import { arrangedIds } from '../view';
import { ViewSettings } from './ViewSettings';
import { StatusBadges } from './StatusBadges';
import { NewTaskForm } from './TaskPanel';
import { ConnectPanel } from './ConnectPanel';
import { TrustBanner } from './TrustPrompt';

export function Sidebar() {
  // Only the list of ids here: each row subscribes to its own entry, so a change re-renders one row.
  const ids = useUi(useShallow((s) => arrangedIds(s.order, s.processes, s.view)));
  const project = useUi((s) => s.project);
  const issues = useUi((s) => s.configIssues);
  return (
    <aside className="sidebar" data-testid="sidebar">
      <h1>Switchboard</h1>
      <div className="project" title={project?.dir}>
        {project?.name}
      </div>
      <TrustBanner />
      {issues.length > 0 && (
        <ul className="config-issues" data-testid="config-issues">
          {issues.map((issue, i) => (
            <li key={i}>{issue.path ? `${issue.path} ${issue.message}` : issue.message}</li>
          ))}
        </ul>
      )}
      <ul className="entries">
        {ids.map((id) => (
          <SidebarRow key={id} id={id} />
        ))}
      </ul>
      <ViewSettings />
      <AddEntryForm />
      <details className="new-task" data-testid="new-task-toggle">
        <summary>New headless task</summary>
        <NewTaskForm />
      </details>
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
      <EntryName id={id} name={p.name} />
      <StatusBadges process={p} />
    </li>
  );
});

function EntryName({ id, name }: { id: string; name: string }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  if (!editing) {
    return (
      <span
        className="entry-name"
        title="Double-click to rename"
        onDoubleClick={() => {
          setValue(name);
          setEditing(true);
        }}
      >
        {name}
      </span>
    );
  }
  const commit = () => {
    setEditing(false);
    if (value.trim() && value !== name) void run((c) => c.call('renameProcess', { id, name: value.trim() }));
  };
  return (
    <input
      className="rename"
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

/** Presets offered by "new agent" (core/agents has the definitions; unknown names run as generic). */
const AGENT_PRESETS = ['claude', 'codex', 'gemini', 'opencode', 'qwen', 'aider', 'cursor-agent', 'generic'] as const;

function AddEntryForm() {
  const [kind, setKind] = useState<'terminal' | 'command' | 'agent'>('terminal');
  const [preset, setPreset] = useState<string>('claude');
  const [commandLine, setCommandLine] = useState('');
  const [name, setName] = useState('');
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
      <select value={kind} onChange={(e) => setKind(e.target.value as typeof kind)} data-testid="add-kind">
        <option value="terminal">terminal</option>
        <option value="command">command</option>
        <option value="agent">agent</option>
      </select>
      {kind === 'agent' && (
        <select value={preset} onChange={(e) => setPreset(e.target.value)} data-testid="add-preset">
          {AGENT_PRESETS.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      )}
      <input placeholder={placeholder} value={commandLine} onChange={(e) => setCommandLine(e.target.value)} data-testid="add-command" />
      <input placeholder="name (optional)" value={name} onChange={(e) => setName(e.target.value)} data-testid="add-name" />
      <button type="submit" data-testid="add-submit">
        Add
      </button>
    </form>
  );
}
