/**
 * The UI at phone width: what needs a person first (every waiting or blocked agent of every open
 * project and host, with the inbox's answers), then the shown project's entries by state; an
 * entry opens as its screen, read-only, with a reply box. Same stores and commands as the desktop.
 */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ProjectWaitingAgent } from '../../../shared/inbox';
import { useUi } from '../app/store';
import { focusProject, showEntry } from '../projects/projects';
import { useNowEverySecond, useWaitingAgents } from '../inbox/useWaitingAgents';
import { WaitingAgentItem } from '../inbox/WaitingAgentItem';
import { stateLabel } from '../panes/stateLabel';
import { groupByState } from './entryGroups';
import { PhoneScreen } from './PhoneScreen';
import { NotifyOnThisDevice } from './NotifyOnThisDevice';
import { UsageWarningRows } from '../usage/UsageWarningRows';
import { BudgetRows } from '../budget/BudgetRows';
import { isAtThisMachine } from '../devices/notificationForm';

export function PhoneView() {
  const [screenId, setScreenId] = useState<string>();
  const shownEntry = useUi((s) => (screenId ? s.processes[screenId] : undefined));
  if (screenId && shownEntry) return <PhoneScreen process={shownEntry} onBack={() => setScreenId(undefined)} />;
  return (
    <main className="phone" data-testid="phone-view">
      <header className="phone-header">
        <h1>Switchboard</h1>
        <button className="phone-usage" data-testid="open-usage" onClick={() => useUi.getState().setOverlay({ kind: 'usage' })}>
          Usage
        </button>
        {isAtThisMachine(location.hostname, window.switchboard !== undefined) && (
          <button data-testid="open-devices" onClick={() => useUi.getState().setOverlay({ kind: 'devices' })}>
            Devices…
          </button>
        )}
        <NotifyOnThisDevice />
      </header>
      <NeedsYou
        onOpen={(agent) => void showEntry(agent.project.id, agent.id).then(() => setScreenId(agent.id))}
        onOpenShown={setScreenId}
      />
      <EntriesByState onOpen={setScreenId} />
    </main>
  );
}

/** `onOpenShown`: an agent of the shown project (the budget and usage rows are the shown project's). */
function NeedsYou({ onOpen, onOpenShown }: { onOpen: (agent: ProjectWaitingAgent) => void; onOpenShown: (id: string) => void }) {
  const waiting = useWaitingAgents();
  const { agents, notice } = waiting;
  const now = useNowEverySecond();
  return (
    <section className="phone-section" aria-labelledby="phone-needs-title" data-testid="phone-needs-you">
      <h2 id="phone-needs-title">Needs you{agents ? ` (${agents.length})` : ''}</h2>
      <div role="status" aria-live="polite" className="inbox-notice" data-testid="inbox-notice">
        {notice}
      </div>
      {agents && agents.length === 0 && <p className="inbox-empty">No agent is waiting.</p>}
      <ol className="inbox-list phone-waiting" aria-labelledby="phone-needs-title">
        {(agents ?? []).map((agent) => (
          <WaitingAgentItem key={agent.id} agent={agent} now={now} waiting={waiting} onOpen={onOpen} openLabel="Screen" />
        ))}
      </ol>
      <BudgetRows onOpen={onOpenShown} openLabel="Screen" />
      <UsageWarningRows />
    </section>
  );
}

function EntriesByState({ onOpen }: { onOpen: (id: string) => void }) {
  const entries = useUi(useShallow((s) => s.order.map((id) => s.processes[id]).filter((p) => p !== undefined)));
  const projects = useUi((s) => s.workspace?.projects ?? []);
  const activeProjectId = useUi((s) => s.activeProjectId);
  return (
    <section className="phone-section" aria-labelledby="phone-entries-title" data-testid="phone-entries">
      <h2 id="phone-entries-title">Agents and servers</h2>
      {projects.length > 1 && (
        <label className="phone-project">
          Project
          <select value={activeProjectId ?? ''} onChange={(event) => void focusProject(event.target.value)}>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
                {p.host ? ` on ${p.host}` : ''}
                {p.needsAttention ? ` (${p.needsAttention} waiting)` : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      {entries.length === 0 && <p className="inbox-empty">No entries in this project.</p>}
      {groupByState(entries).map((group) => (
        <div key={group.id} className="phone-group" data-testid={`phone-group-${group.id}`}>
          <h3 id={`phone-group-${group.id}`}>{group.label}</h3>
          <ul aria-labelledby={`phone-group-${group.id}`}>
            {group.entries.map((p) => {
              const label = stateLabel(p);
              return (
                <li key={p.id}>
                  <button
                    className="phone-entry"
                    data-testid="phone-entry"
                    data-name={p.name}
                    title={label.title}
                    onClick={() => onOpen(p.id)}
                  >
                    <span className="phone-entry-name">{p.name}</span>
                    <span className={`state tone-${label.tone}`} data-testid="state">
                      <span aria-hidden="true">{label.glyph}</span> {label.text}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </section>
  );
}
