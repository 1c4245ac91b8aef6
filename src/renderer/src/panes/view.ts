/**
 * What the grid shows, derived from the entries and the project's view state: the order the user
 * arranged, the group in view, each pane's zoom, attention per group.
 */
import type { ProcessInfo } from '../../../shared/model';
import {
  BUILTIN_GROUPS,
  DEFAULT_TERMINAL_FONT_SIZE_PX,
  MAX_TERMINAL_FONT_SIZE_PX,
  MIN_TERMINAL_FONT_SIZE_PX,
  layoutKeyOf,
  type UiState as ViewState,
} from '../../../shared/uiState';

export { layoutKeyOf, DEFAULT_TERMINAL_FONT_SIZE_PX };

export const GROUP_LABELS: Record<(typeof BUILTIN_GROUPS)[number], string> = { all: 'All', servers: 'Servers', agents: 'Agents' };

export function clampFontSize(size: number): number {
  return Math.min(MAX_TERMINAL_FONT_SIZE_PX, Math.max(MIN_TERMINAL_FONT_SIZE_PX, Math.round(size)));
}

export function fontSizeOf(view: ViewState, key: string): number {
  return view.paneFontSizes[key] ?? view.fontSize;
}

/** Entry ids in the user's order: arranged keys first, then the rest in the order they came. */
export function arrangedIds(ids: string[], processes: Record<string, ProcessInfo>, view: ViewState): string[] {
  const rank = new Map(view.order.map((key, i) => [key, i]));
  const rankOf = (id: string) => {
    const p = processes[id];
    return (p && rank.get(layoutKeyOf(p))) ?? Number.MAX_SAFE_INTEGER;
  };
  return ids
    .map((id, i) => ({ id, i, rank: rankOf(id) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.id);
}

export function isInGroup(process: ProcessInfo, group: string, view: ViewState): boolean {
  if (group === 'all') return true;
  if (group === 'servers') return process.kind === 'command';
  if (group === 'agents') return process.kind === 'agent' || process.kind === 'task';
  return view.customGroups[group]?.includes(layoutKeyOf(process)) ?? false;
}

export function groupNames(view: ViewState): string[] {
  return [...BUILTIN_GROUPS, ...Object.keys(view.customGroups)];
}

/** Needs a person: an attention request, or an agent waiting for an answer. */
export function needsAttention(process: ProcessInfo): boolean {
  return process.attention !== undefined || process.agent?.primary === 'waiting';
}

/** The order as layout keys after moving `movedKey` to where `targetKey` is. */
export function moveBefore(arrangedKeys: string[], movedKey: string, targetKey: string): string[] {
  if (movedKey === targetKey) return arrangedKeys;
  const from = arrangedKeys.indexOf(movedKey);
  const to = arrangedKeys.indexOf(targetKey);
  if (from < 0 || to < 0) return arrangedKeys;
  const next = arrangedKeys.filter((k) => k !== movedKey);
  next.splice(next.indexOf(targetKey) + (from < to ? 1 : 0), 0, movedKey);
  return next;
}
