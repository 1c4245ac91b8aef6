/** The phone view's list of entries: grouped by what their state asks of a person, most urgent first. */
import type { ProcessInfo } from '../../../shared/model';
import { stateLabel } from '../panes/stateLabel';

interface EntryGroup {
  id: 'attention' | 'failed' | 'working' | 'ready' | 'stopped';
  label: string;
  entries: ProcessInfo[];
}

const GROUPS: readonly Omit<EntryGroup, 'entries'>[] = [
  { id: 'attention', label: 'Needs you' },
  { id: 'failed', label: 'Failed' },
  { id: 'working', label: 'Working' },
  { id: 'ready', label: 'Ready or idle' },
  { id: 'stopped', label: 'Stopped' },
];

/** A state badge's tone (panes/stateLabel.ts) → its group; a tone not listed is shown as working. */
const GROUP_OF_TONE: Readonly<Record<string, EntryGroup['id']>> = {
  waiting: 'attention',
  stuck: 'attention',
  dead: 'failed',
  error: 'failed',
  unhealthy: 'failed',
  active: 'working',
  starting: 'working',
  dependencies: 'working',
  idle: 'ready',
  ready: 'ready',
  running: 'ready',
  completed: 'ready',
  stopped: 'stopped',
};

/** Non-empty groups in urgency order; within a group, the entries' own order. */
export function groupByState(entries: readonly ProcessInfo[]): EntryGroup[] {
  const byGroup = new Map<EntryGroup['id'], ProcessInfo[]>();
  for (const entry of entries) {
    const group = GROUP_OF_TONE[stateLabel(entry).tone] ?? 'working';
    byGroup.set(group, [...(byGroup.get(group) ?? []), entry]);
  }
  return GROUPS.filter((g) => byGroup.has(g.id)).map((g) => ({ ...g, entries: byGroup.get(g.id)! }));
}
