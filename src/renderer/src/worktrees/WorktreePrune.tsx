/**
 * The prune view (docs/ui.md, "Worktrees"): the project's stale worktrees — folder gone, branch
 * merged into its base, or unused for N days — each with its disk use, removed on request through
 * the same core removal as Discard: one with entries running is refused, and one holding
 * uncommitted or unmerged work is removed only forced, which saves that work to a branch first.
 */
import { useCallback, useEffect, useState } from 'react';
import { DEFAULT_UNUSED_DAYS, type StaleReason, type StaleWorktree } from '../../../shared/worktree';
import { useUi } from '../app/store';
import { refreshWorktrees } from './worktrees';
import { OverlayDialog } from '../common/Overlay';
import { messageOf } from './WorktreeReview';

const REASON_LABELS: Record<StaleReason, string> = { 'folder-gone': 'folder gone', 'branch-merged': 'branch merged', unused: 'unused' };

type RowOutcome = { tone: 'done' | 'problem'; text: string };

export function WorktreePrune() {
  const client = useUi((s) => s.client);
  const [unusedDays, setUnusedDays] = useState(DEFAULT_UNUSED_DAYS);
  const [stale, setStale] = useState<StaleWorktree[] | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [outcomes, setOutcomes] = useState<Record<string, RowOutcome>>({});
  const [busy, setBusy] = useState<string | undefined>(undefined);

  const reload = useCallback(async () => {
    if (!client) return;
    try {
      setStale((await client.call('listStaleWorktrees', { unusedDays })).worktrees);
      setProblem(undefined);
    } catch (err) {
      setProblem(messageOf(err));
    }
  }, [client, unusedDays]);

  useEffect(() => void reload(), [reload]);

  const remove = async (entry: StaleWorktree) => {
    const id = entry.worktree.id;
    setBusy(id);
    try {
      const removed = await client!.call('removeWorktree', { worktree: id, force: hasWork(entry) });
      const saved = removed.savedTo ? ` Its work is saved on branch ${removed.savedTo}.` : '';
      setOutcomes((all) => ({ ...all, [id]: { tone: 'done', text: `Removed.${saved}` } }));
      setStale((list) => list?.filter((s) => s.worktree.id !== id));
      await Promise.all([reload(), refreshWorktrees()]);
    } catch (err) {
      setOutcomes((all) => ({ ...all, [id]: { tone: 'problem', text: messageOf(err) } }));
    } finally {
      setBusy(undefined);
    }
  };

  const removedRows = Object.entries(outcomes).filter(([id, o]) => o.tone === 'done' && !stale?.some((s) => s.worktree.id === id));
  return (
    <OverlayDialog label="Prune worktrees" testId="worktree-prune" className="worktree-prune">
      <header className="overlay-header">
        <h2>Stale worktrees</h2>
        <label className="prune-days">
          unused for{' '}
          <input
            type="number"
            min={0}
            max={3650}
            aria-label="Unused for days"
            data-testid="prune-unused-days"
            value={unusedDays}
            onChange={(e) => setUnusedDays(Math.max(0, Math.min(3650, Number(e.target.value) || 0)))}
          />{' '}
          days
        </label>
      </header>
      {problem && (
        <p className="review-outcome problem" role="alert" data-testid="prune-problem">
          {problem}
        </p>
      )}
      {stale === undefined && !problem && <p className="review-note">Reading the worktrees…</p>}
      {stale?.length === 0 && (
        <p className="review-note" data-testid="prune-empty">
          Nothing stale: no worktree with its folder gone, its branch merged, or unused for {unusedDays} days.
        </p>
      )}
      <ul className="prune-list">
        {stale?.map((entry) => (
          <PruneRow
            key={entry.worktree.id}
            entry={entry}
            outcome={outcomes[entry.worktree.id]}
            disabled={busy !== undefined}
            onRemove={() => void remove(entry)}
          />
        ))}
      </ul>
      {removedRows.map(([id, outcome]) => (
        <p key={id} className="review-outcome done" role="status" data-testid="prune-removed" data-worktree={id}>
          {id}: {outcome.text}
        </p>
      ))}
    </OverlayDialog>
  );
}

function PruneRow({
  entry,
  outcome,
  disabled,
  onRemove,
}: {
  entry: StaleWorktree;
  outcome?: RowOutcome;
  disabled: boolean;
  onRemove: () => void;
}) {
  const { worktree } = entry;
  const work = hasWork(entry);
  return (
    <li className="prune-row" data-testid="prune-row" data-worktree={worktree.id}>
      <span className="prune-name">{worktree.id}</span>
      {worktree.branch && <span className="worktree-branch"> ⎇ {worktree.branch}</span>}
      <span className="prune-reasons" data-testid="prune-reasons">
        {entry.reasons.map((r) => REASON_LABELS[r]).join(' · ')}
      </span>
      <span className="prune-disk" data-testid="prune-disk" title={`${entry.diskBytes} bytes on disk`}>
        {formatBytes(entry.diskBytes)}
      </span>
      <span className="prune-used" title={entry.lastUsedAt}>
        last used {entry.lastUsedAt.slice(0, 10)}
      </span>
      <button
        type="button"
        className="danger"
        data-testid="prune-remove"
        disabled={disabled}
        title={work ? 'Holds uncommitted or unmerged work: it is saved to a branch first' : 'Nothing unsaved in it'}
        onClick={onRemove}
      >
        {work ? 'Save to a branch and remove' : 'Remove'}
      </button>
      {outcome && (
        <p className={`review-outcome ${outcome.tone}`} role={outcome.tone === 'problem' ? 'alert' : 'status'} data-testid="prune-outcome">
          {outcome.text}
        </p>
      )}
    </li>
  );
}

/** Uncommitted files or commits the base lacks: removal must be forced, and then saves them first. */
function hasWork({ worktree }: StaleWorktree): boolean {
  return worktree.changedFiles > 0 || worktree.ahead > 0;
}

function formatBytes(bytes: number): string {
  if (bytes === 0) return '0 B';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  const power = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** power;
  return `${value >= 10 || power === 0 ? Math.round(value) : value.toFixed(1)} ${units[power]}`;
}
