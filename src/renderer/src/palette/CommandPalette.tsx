/**
 * The command palette: every action of the window, searchable by words in any order. Arrow keys
 * move, Enter runs, Escape closes. Entry actions go through the same control calls as the buttons.
 */
import { useId, useMemo, useState } from 'react';
import type { ProcessInfo } from '../../../shared/model';
import { run, useUi, type UiState } from '../app/store';
import { applyUiCommand } from '../app/uiCommands';
import { OverlayDialog } from '../common/Overlay';
import { AGENT_PRESET_IDS } from '../../../shared/agentPresets';
import type { KeyCommand } from '../../../shared/keymap';
import { chordHint } from '../app/shortcuts';
import { useWorktrees } from '../worktrees/worktrees';
import { addHost, disconnectHost } from '../projects/projects';
import { requestHostField } from '../remote/RemoteHosts';

interface PaletteAction {
  id: string;
  label: string;
  perform: () => void;
  /** The keymap command whose chord the row shows as a hint. */
  command?: KeyCommand;
}

function entryActions(p: ProcessInfo, ui: UiState): PaletteAction[] {
  const isRunning = p.pid !== undefined;
  const call = (cmd: 'startProcess' | 'stopProcess' | 'restartProcess') => () => void run((c) => c.call(cmd, { id: p.id }));
  const actions: PaletteAction[] = [
    { id: `focus:${p.id}`, label: `Focus ${p.name}`, perform: () => ui.focus(p.id) },
    isRunning
      ? { id: `stop:${p.id}`, label: `Stop ${p.name}`, perform: call('stopProcess') }
      : { id: `start:${p.id}`, label: `Start ${p.name}`, perform: call('startProcess') },
    { id: `restart:${p.id}`, label: `Restart ${p.name}`, perform: call('restartProcess') },
    {
      id: `maximize:${p.id}`,
      label: `${ui.maximizedId === p.id ? 'Restore' : 'Maximise'} ${p.name}`,
      perform: () => ui.toggleMaximize(p.id),
    },
  ];
  if (isRunning)
    actions.push({ id: `timer:${p.id}`, label: `New timer for ${p.name}`, perform: () => ui.setOverlay({ kind: 'timer', ownerId: p.id }) });
  return actions;
}

function allActions(ui: UiState): PaletteAction[] {
  const spawn = (preset: string) => () =>
    void run(async (c) => {
      const created = await c.call('spawnAgent', { preset });
      useUi.getState().focus(created.id);
    });
  return [
    { id: 'inbox', label: 'Open attention inbox', perform: () => ui.setOverlay({ kind: 'inbox' }), command: 'inbox' },
    { id: 'usage', label: 'Open usage: cost, tokens and limits per agent and day', perform: () => ui.setOverlay({ kind: 'usage' }) },
    { id: 'devices', label: 'Devices and notifications…', perform: () => ui.setOverlay({ kind: 'devices' }) },
    ...ui.order.flatMap((id) => (ui.processes[id] ? entryActions(ui.processes[id], ui) : [])),
    ...AGENT_PRESET_IDS.filter((p) => p !== 'generic').map((preset) => ({
      id: `agent:${preset}`,
      label: `New agent: ${preset}`,
      perform: spawn(preset),
    })),
    { id: 'add-host', label: 'Add SSH host…', perform: requestHostField },
    ...(ui.workspace?.hosts ?? [])
      .filter((host) => host.status === 'remembered' || host.status === 'failed')
      .map((host) => ({
        id: `host:${host.destination}`,
        label: `Connect to ${host.destination}`,
        perform: () => void addHost(host.destination, ''),
      })),
    ...(ui.workspace?.hosts ?? [])
      .filter((host) => host.status !== 'remembered' && host.status !== 'failed')
      .map((host) => ({
        id: `host-disconnect:${host.destination}`,
        label: `Disconnect from ${host.destination}`,
        perform: () => void disconnectHost(host.destination),
      })),
    { id: 'worktree-agent', label: 'New agent in a worktree…', perform: () => ui.setOverlay({ kind: 'newWorktree' }) },
    { id: 'worktree-prune', label: 'Prune stale worktrees…', perform: () => ui.setOverlay({ kind: 'pruneWorktrees' }) },
    ...useWorktrees
      .getState()
      .list.filter((w) => !w.isMain)
      .map((w) => ({
        id: `review:${w.id}`,
        label: `Review worktree ${w.id}`,
        perform: () => ui.setOverlay({ kind: 'worktreeDiff', worktree: w.id }),
      })),
    {
      id: 'terminal',
      label: 'New terminal',
      perform: () =>
        void run(async (c) => {
          const created = await c.call('spawnProcess', { kind: 'terminal' });
          useUi.getState().focus(created.id);
        }),
    },
    {
      id: 'sidebar',
      label: ui.isSidebarHidden ? 'Show sidebar' : 'Hide sidebar',
      perform: () => applyUiCommand('toggleSidebar'),
      command: 'toggleSidebar',
    },
    { id: 'zoom-in', label: 'Zoom terminals in', perform: () => applyUiCommand('terminalZoomIn'), command: 'zoomIn' },
    { id: 'zoom-out', label: 'Zoom terminals out', perform: () => applyUiCommand('terminalZoomOut'), command: 'zoomOut' },
    { id: 'zoom-reset', label: 'Reset terminal zoom', perform: () => applyUiCommand('terminalZoomReset'), command: 'zoomReset' },
    {
      id: 'screen-reader',
      label: `Turn screen reader mode ${ui.screenReaderMode ? 'off' : 'on'}`,
      perform: () => ui.setScreenReaderMode(!ui.screenReaderMode),
    },
  ];
}

/** How many query words start a word of the label: "start" ranks "Start web" above "Restart web". */
function wordStartHits(label: string, query: string): number {
  const starts = label.toLowerCase().split(/\s+/);
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word && starts.some((s) => s.startsWith(word))).length;
}

/** Actions whose label holds every query word, those whose words start with the query words first. */
function rankActions<T extends { label: string }>(actions: readonly T[], query: string): T[] {
  const hits = new Map(actions.map((a) => [a, wordStartHits(a.label, query)]));
  return actions.filter((a) => matchesQuery(a.label, query)).sort((a, b) => hits.get(b)! - hits.get(a)!);
}

/** Every word of the query appears in the label (case-insensitive), in any order. */
function matchesQuery(label: string, query: string): boolean {
  const text = label.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}

export function CommandPalette() {
  const ui = useUi();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const actions = useMemo(() => rankActions(allActions(ui), query), [ui, query]);
  const current = Math.min(active, Math.max(0, actions.length - 1));
  const perform = (action: PaletteAction | undefined) => {
    if (!action) return;
    // Close first: an action may open another overlay (inbox, timer form).
    useUi.getState().setOverlay(undefined);
    action.perform();
  };
  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <OverlayDialog label="Command palette" testId="palette" className="palette">
      <input
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={actions.length > 0 ? optionId(current) : undefined}
        aria-label="Search commands"
        placeholder="Type a command…"
        data-testid="palette-input"
        data-autofocus
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setActive((current + 1) % Math.max(1, actions.length));
          else if (e.key === 'ArrowUp') setActive((current - 1 + actions.length) % Math.max(1, actions.length));
          else if (e.key === 'Enter') perform(actions[current]);
          else return;
          e.preventDefault();
        }}
      />
      <ul role="listbox" id={listId} aria-label="Commands" className="palette-list" data-testid="palette-list">
        {actions.map((a, i) => (
          <li
            key={a.id}
            id={optionId(i)}
            role="option"
            aria-selected={i === current}
            className={i === current ? 'active' : ''}
            data-testid="palette-item"
            onMouseMove={() => setActive(i)}
            onClick={() => perform(a)}
          >
            {a.label}
            {a.command && <PaletteHint command={a.command} />}
          </li>
        ))}
        {actions.length === 0 && (
          <li role="option" aria-selected="false" aria-disabled="true" className="palette-empty">
            No command matches “{query}”
          </li>
        )}
      </ul>
    </OverlayDialog>
  );
}

/** The chord that runs the action without the palette, when this platform has one. */
function PaletteHint({ command }: { command: KeyCommand }) {
  const hint = chordHint(command);
  return hint ? (
    <kbd className="palette-hint" data-testid="palette-hint">
      {hint}
    </kbd>
  ) : null;
}
