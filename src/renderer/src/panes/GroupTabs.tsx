import type { DragEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { BUILTIN_GROUPS } from '../../../shared/uiState';
import { useUi } from '../app/store';
import { GROUP_LABELS, groupNames, isInGroup, layoutKeyOf, needsAttention } from './view';
import { PANE_DRAG_TYPE } from './paneDrag';

/** Most columns offered: past four, panes are narrower than an 80-column terminal on a laptop. */
const MAX_COLUMNS = 4;

/** Servers / Agents / custom groups, each with how many of its entries need a person. */
export function GroupTabs() {
  const view = useUi((s) => s.view);
  const counts = useUi(
    useShallow((s) =>
      groupNames(s.view).map((group) => Object.values(s.processes).filter((p) => needsAttention(p) && isInGroup(p, group, s.view)).length),
    ),
  );
  const { updateView } = useUi.getState();
  const addGroup = () => {
    const name = window.prompt('Name of the new group (the focused pane joins it; drop more panes on its tab):')?.trim();
    if (!name || groupNames(view).includes(name)) return;
    const { focusedId, processes } = useUi.getState();
    const focused = focusedId ? processes[focusedId] : undefined;
    const members = focused ? [layoutKeyOf(focused)] : [];
    updateView({ customGroups: { ...view.customGroups, [name]: members }, group: name });
  };
  const removeGroup = (name: string) => {
    const { [name]: _removed, ...rest } = view.customGroups;
    updateView({ customGroups: rest, group: view.group === name ? 'all' : view.group });
  };
  const dropInto = (name: string) => (e: DragEvent) => {
    const key = e.dataTransfer.getData(PANE_DRAG_TYPE);
    if (!key || isBuiltin(name)) return;
    e.preventDefault();
    const members = view.customGroups[name] ?? [];
    if (!members.includes(key)) updateView({ customGroups: { ...view.customGroups, [name]: [...members, key] } });
  };
  return (
    <nav className="group-tabs" aria-label="Pane groups">
      {/* Only tabs inside the tablist (its required children); the group actions follow it. */}
      <div role="tablist" className="tabs">
        {groupNames(view).map((name, i) => (
          <button
            key={name}
            role="tab"
            aria-selected={view.group === name}
            className={`tab${view.group === name ? ' active' : ''}`}
            data-testid="group-tab"
            data-group={name}
            onClick={() => updateView({ group: name })}
            onDragOver={(e) => !isBuiltin(name) && e.dataTransfer.types.includes(PANE_DRAG_TYPE) && e.preventDefault()}
            onDrop={dropInto(name)}
          >
            {isBuiltin(name) ? GROUP_LABELS[name] : name}
            {(counts[i] ?? 0) > 0 && (
              <span className="group-attention" data-testid="group-attention" aria-label={`${counts[i]} need attention`}>
                {counts[i]}
              </span>
            )}
          </button>
        ))}
      </div>
      {!isBuiltin(view.group) && (
        <button
          className="tab-remove"
          data-testid="remove-group"
          aria-label={`Remove group ${view.group}`}
          title="Remove the group shown (not its panes)"
          onClick={() => removeGroup(view.group)}
        >
          ×
        </button>
      )}
      <button
        className="tab add-group"
        aria-label="New group"
        title="New group with the focused pane"
        data-testid="add-group"
        onClick={addGroup}
      >
        +
      </button>
      <label className="columns-select">
        Columns
        <select
          aria-label="Columns"
          data-testid="columns"
          value={view.columnWeights.length}
          onChange={(e) => updateView({ columnWeights: Array.from({ length: Number(e.target.value) }, () => 1) })}
        >
          <option value={0}>auto</option>
          {Array.from({ length: MAX_COLUMNS }, (_, i) => (
            <option key={i + 1} value={i + 1}>
              {i + 1}
            </option>
          ))}
        </select>
      </label>
    </nav>
  );
}

function isBuiltin(name: string): name is (typeof BUILTIN_GROUPS)[number] {
  return (BUILTIN_GROUPS as readonly string[]).includes(name);
}
