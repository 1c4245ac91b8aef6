/**
 * The active project's worktrees as the sidebar groups them (docs/ui.md, "Worktrees"): their
 * status from `listWorktrees`, re-read when entries come and go, after every worktree action, when
 * the page is shown again, and every few seconds while it shows worktrees (an agent's edits change
 * a worktree's counts without any event).
 */
import { create } from 'zustand';
import type { ControlClient } from '../../../shared/api';
import type { ProcessInfo } from '../../../shared/model';
import { MAIN_WORKTREE_ID, type WorktreeStatus } from '../../../shared/worktree';
import { useUi } from '../app/store';

/** Often enough that a changed-files count follows an agent's work, seldom enough to cost nothing (a `git status` per worktree). */
const REFRESH_INTERVAL_MS = 5_000;

interface WorktreesState {
  /** The client the list was read through: a list from another project is never shown. */
  client?: ControlClient;
  list: WorktreeStatus[];
  /** Why nothing is listed: the folder is not trusted yet, so no git ran (docs/security.md). */
  untrusted?: string;
}

export const useWorktrees = create<WorktreesState>(() => ({ list: [] }));

/** Re-reads the active project's worktrees; a project outside git lists its main checkout only. */
export async function refreshWorktrees(): Promise<void> {
  const { client } = useUi.getState();
  if (!client) return useWorktrees.setState({ client: undefined, list: [] });
  try {
    const { worktrees, untrusted } = await client.call('listWorktrees', {});
    if (useUi.getState().client === client) useWorktrees.setState({ client, list: worktrees, untrusted });
  } catch {
    // A project being closed, or a core built without worktrees: the sidebar stays ungrouped.
  }
}

/** Keeps the list current while the window is open; returns the uninstaller. */
export function installWorktreeRefresh(): () => void {
  let entryCount = -1;
  let client: ControlClient | undefined;
  let folderTrusted: boolean | undefined;
  const unsubscribe = useUi.subscribe((state) => {
    // Trusting the folder is what lets the list be read at all.
    const trusted = state.trust?.folderTrusted;
    if (state.client === client && state.order.length === entryCount && trusted === folderTrusted) return;
    if (state.client !== client) useWorktrees.setState({ client: undefined, list: [], untrusted: undefined });
    client = state.client;
    entryCount = state.order.length;
    folderTrusted = trusted;
    void refreshWorktrees();
  });
  const stopPolling = pollWorktrees({
    refresh: refreshWorktrees,
    page: document,
    hasWorktrees: () => useWorktrees.getState().list.some((w) => !w.isMain),
  });
  void refreshWorktrees();
  return () => {
    unsubscribe();
    stopPolling();
  };
}

/** What the polling reads of the page: whether it is hidden, and when that changes. */
type PageVisibility = Pick<Document, 'hidden' | 'addEventListener' | 'removeEventListener'>;

/**
 * Re-reads the list every few seconds, only while it can show something that changes without an
 * event (an agent's edits to a worktree's files): never while the page is hidden, nor while the
 * project has its main checkout only (a new worktree comes with an event: an entry in it, an
 * action in this window, or the page shown again). Showing the page re-reads at once.
 */
export function pollWorktrees(options: {
  refresh: () => Promise<void>;
  page: PageVisibility;
  hasWorktrees: () => boolean;
  intervalMs?: number;
}): () => void {
  const { refresh, page, hasWorktrees, intervalMs = REFRESH_INTERVAL_MS } = options;
  // A list runs git in every worktree; on a loaded machine it can outlast the interval, so reads never overlap.
  let isReading = false;
  const read = () => {
    if (isReading) return;
    isReading = true;
    void refresh().finally(() => (isReading = false));
  };
  const timer = setInterval(() => {
    if (!page.hidden && hasWorktrees()) read();
  }, intervalMs);
  const onVisibility = () => {
    if (!page.hidden) read();
  };
  page.addEventListener('visibilitychange', onVisibility);
  return () => {
    clearInterval(timer);
    page.removeEventListener('visibilitychange', onVisibility);
  };
}

export interface WorktreeGroup {
  id: string;
  /** Absent for an entry's worktree the list does not (yet) know. */
  status?: WorktreeStatus;
  ids: string[];
}

/**
 * Entries grouped by the worktree they run in, the main checkout first, then the worktrees in the
 * order they were made; a worktree with no entries still shows (its branch waits for review).
 * Null when there is nothing to group: a project with only its main checkout keeps a flat list.
 */
export function groupByWorktree(
  ids: readonly string[],
  worktreeIds: Readonly<Record<string, string | undefined>>,
  worktrees: readonly WorktreeStatus[],
): WorktreeGroup[] | null {
  const worktreeOf = (id: string) => worktreeIds[id] ?? MAIN_WORKTREE_ID;
  const others = new Set([...worktrees.filter((w) => !w.isMain).map((w) => w.id), ...ids.map(worktreeOf)]);
  others.delete(MAIN_WORKTREE_ID);
  if (others.size === 0) return null;
  const order = [MAIN_WORKTREE_ID, ...others];
  return order.map((id) => {
    const status = worktrees.find((w) => w.id === id);
    return { id, ...(status ? { status } : {}), ids: ids.filter((entryId) => worktreeOf(entryId) === id) };
  });
}

/** Each entry's worktree id (absent: the main checkout), the one fact of an entry the grouping reads. */
export function worktreeIdsOf(processes: Record<string, ProcessInfo>): Record<string, string | undefined> {
  return Object.fromEntries(Object.values(processes).map((p) => [p.id, p.worktree]));
}

/** The ready URLs of a group's servers, one per address. */
export function readyUrlsOf(ids: readonly string[], processes: Record<string, ProcessInfo>): Array<{ name: string; url: string }> {
  const seen = new Set<string>();
  return ids.flatMap((id) => {
    const p = processes[id];
    const url = p?.readiness?.url;
    if (!p || !url || p.state !== 'ready' || seen.has(url)) return [];
    seen.add(url);
    return [{ name: p.name, url }];
  });
}
