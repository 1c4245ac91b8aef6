/**
 * The sidebar's entries grouped by worktree (docs/ui.md, "Worktrees"): each group's header shows
 * its branch, commits ahead/behind its base, uncommitted files, its agents' state and its servers'
 * ready URLs; its entries show by their plain name inside it.
 */
import { useShallow } from 'zustand/react/shallow';
import type { ProcessInfo } from '../../../shared/model';
import type { WorktreeStatus } from '../../../shared/worktree';
import { useUi } from '../app/store';
import { stateLabel } from '../panes/stateLabel';
import { openLink } from '../terminal/terminalPane';
import { readyUrlsOf, type WorktreeGroup } from './worktrees';

export function WorktreeGroups({ groups, renderRow }: { groups: WorktreeGroup[]; renderRow: (id: string) => React.ReactNode }) {
  return (
    <ul className="worktree-groups" aria-label="Worktrees">
      {groups.map((group) => (
        <li key={group.id} className="worktree-group" data-testid="worktree-group" data-worktree={group.id}>
          <WorktreeHeader group={group} />
          <ul className="entries" aria-label={`Entries in ${group.id}`}>
            {group.ids.map(renderRow)}
          </ul>
        </li>
      ))}
      <li className="worktree-prune-link">
        <button
          type="button"
          data-testid="open-prune"
          title="Stale worktrees (folder gone, branch merged, unused for days) with their disk use"
          onClick={() => useUi.getState().setOverlay({ kind: 'pruneWorktrees' })}
        >
          Prune…
        </button>
      </li>
    </ul>
  );
}

function WorktreeHeader({ group }: { group: WorktreeGroup }) {
  const entries = useUi(useShallow((s) => group.ids.map((id) => s.processes[id]).filter((p): p is ProcessInfo => p !== undefined)));
  const processes = Object.fromEntries(entries.map((p) => [p.id, p]));
  const urls = readyUrlsOf(group.ids, processes);
  const agents = entries.filter((p) => p.kind === 'agent');
  const status = group.status;
  return (
    <div className="worktree-header">
      <div className="worktree-title">
        <span className="worktree-name" data-testid="worktree-name">
          {status?.isMain ? 'main checkout' : group.id}
        </span>
        {status && !status.isMain && (
          <button
            type="button"
            className="worktree-diff-button"
            data-testid="worktree-open-diff"
            title={`Review ${group.id} against ${status.base ?? 'its base'}: diff, commit, merge, discard`}
            onClick={() => useUi.getState().setOverlay({ kind: 'worktreeDiff', worktree: group.id })}
          >
            Review
          </button>
        )}
      </div>
      {status && <WorktreeCounts status={status} />}
      {agents.length > 0 && (
        <div className="worktree-agents" data-testid="worktree-agents">
          {agents.map((agent) => {
            const label = stateLabel(agent);
            return (
              <span key={agent.id} className={`state tone-${label.tone}`} title={label.title}>
                {agent.name} {label.glyph} {label.text}
              </span>
            );
          })}
        </div>
      )}
      {urls.length > 0 && (
        <div className="worktree-urls">
          {urls.map(({ name, url }) => (
            <a
              key={url}
              className="port-link"
              data-testid="worktree-url"
              href={url}
              title={`${name}: ${url}`}
              onClick={(e) => {
                e.preventDefault();
                openLink(url);
              }}
            >
              {name} {url.replace(/^https?:\/\//, '')}
            </a>
          ))}
        </div>
      )}
    </div>
  );
}

function WorktreeCounts({ status }: { status: WorktreeStatus }) {
  const branch = status.branch && (
    <span className="worktree-branch" data-testid="worktree-branch" title={status.base ? `branched from ${status.base}` : undefined}>
      ⎇ {status.branch}
    </span>
  );
  if (status.isMissing)
    return (
      <div className="worktree-status">
        {branch}
        <span className="worktree-counts missing" data-testid="worktree-counts">
          folder gone: review to remove it
        </span>
      </div>
    );
  const parts = [
    ...(status.isMain ? [] : [`↑${status.ahead} ↓${status.behind}`]),
    status.changedFiles === 0 ? 'clean' : `${status.changedFiles} changed`,
  ];
  return (
    <div className="worktree-status">
      {branch}
      <span
        className="worktree-counts"
        data-testid="worktree-counts"
        title={status.isMain ? undefined : `${status.ahead} commits ahead of ${status.base}, ${status.behind} behind; uncommitted files`}
      >
        {parts.join(' · ')}
      </span>
    </div>
  );
}
