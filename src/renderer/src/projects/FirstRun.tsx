/**
 * A folder without switchboard.json: what Switchboard found in the project's own manifests, ticked
 * or not, for the person to keep; "Create switchboard.json" writes the kept entries and loads them.
 */
import { useEffect, useState } from 'react';
import type { ConfigProposal, ProposedEntry } from '../../../shared/proposal';
import { run, useUi } from '../app/store';

export function FirstRun() {
  const client = useUi((s) => s.client);
  const [proposal, setProposal] = useState<ConfigProposal>();
  const [kept, setKept] = useState<Set<string>>(new Set());
  const [isDismissed, setDismissed] = useState(false);
  useEffect(() => {
    if (!client) return;
    void run((c) => c.call('proposeConfig', {})).then((p) => {
      if (!p) return;
      setProposal(p);
      setKept(new Set(p.entries.filter((e) => e.selected).map(keyOf)));
    });
  }, [client]);
  if (!proposal || proposal.hasConfig || isDismissed) return <EmptyGrid />;
  if (proposal.entries.length === 0)
    return <EmptyGrid hint="Nothing to propose here: no package.json scripts, Procfile, manage.py or other manifest was found." />;
  const toggle = (entry: ProposedEntry) => {
    const next = new Set(kept);
    if (next.has(keyOf(entry))) next.delete(keyOf(entry));
    else next.add(keyOf(entry));
    setKept(next);
  };
  const create = () => void run((c) => c.call('writeConfig', { entries: proposal.entries.filter((e) => kept.has(keyOf(e))) }));
  return (
    <main className="grid empty">
      <section className="first-run" data-testid="first-run" aria-labelledby="first-run-title">
        <h2 id="first-run-title">Set up {useUi.getState().project?.name}</h2>
        <p>This folder has no switchboard.json yet. Switchboard found these in the project; keep what you want to run here.</p>
        <ul>
          {proposal.entries.map((entry) => (
            <li key={keyOf(entry)}>
              <label>
                <input
                  type="checkbox"
                  checked={kept.has(keyOf(entry))}
                  onChange={() => toggle(entry)}
                  data-testid="proposal-entry"
                  data-section={entry.section}
                  data-name={entry.name}
                />
                <span className="proposal-name">{entry.section === 'agents' ? `agent ${entry.name}` : entry.name}</span>
                <code className="proposal-command">{commandOf(entry)}</code>
              </label>
              <div className="proposal-source">
                {entry.source}
                {entry.note ? ` — ${entry.note}` : ''}
              </div>
            </li>
          ))}
        </ul>
        <div className="first-run-actions">
          <button type="button" onClick={create} disabled={kept.size === 0} data-testid="proposal-create">
            Create switchboard.json ({kept.size})
          </button>
          <button type="button" onClick={() => setDismissed(true)}>
            Not now
          </button>
        </div>
      </section>
    </main>
  );
}

function EmptyGrid({ hint }: { hint?: string }) {
  return <main className="grid empty">No processes yet — add one from the sidebar or switchboard.json.{hint ? ` ${hint}` : ''}</main>;
}

const keyOf = (entry: ProposedEntry) => `${entry.section}/${entry.name}`;

function commandOf(entry: ProposedEntry): string {
  if (entry.section === 'agents') return entry.config.command ?? entry.config.preset ?? '';
  const line = [entry.config.command, ...(entry.config.args ?? [])].join(' ');
  return entry.config.cwd ? `${line}   (in ${entry.config.cwd})` : line;
}
