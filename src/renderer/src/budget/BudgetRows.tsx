/**
 * The inbox's agents at their budget (docs/usage.md, "Budgets"): Switchboard holds what it would
 * send them until a person goes on once or raises the cap, so they are asked here, where the
 * other calls for a person are, and on a phone at the same width as the rest of the app.
 */
import { useState } from 'react';
import type { ProcessInfo } from '../../../shared/model';
import { run, useUi } from '../app/store';
import { showEntry } from '../projects/projects';
import { budgetText } from './BudgetBadge';
import { BudgetForm } from './BudgetButton';

/** The shown project's agents at their budget, the most held first. */
function agentsAtBudget(processes: Record<string, ProcessInfo>): ProcessInfo[] {
  return Object.values(processes)
    .filter((p) => p.kind === 'agent' && p.budget?.reached)
    .sort((a, b) => (b.budget?.held ?? 0) - (a.budget?.held ?? 0) || a.name.localeCompare(b.name));
}

interface BudgetRowsProps {
  /** Shows the agent (the desktop: its pane; a phone: its screen). */
  onOpen?: (id: string) => void;
  openLabel?: string;
}

/** The desktop's way to an agent: the inbox closes and its pane is shown. */
function openPane(projectId: string | undefined, id: string): void {
  useUi.getState().setOverlay(undefined);
  if (projectId) void showEntry(projectId, id);
}

export function BudgetRows({ onOpen, openLabel = 'Open pane' }: BudgetRowsProps) {
  const processes = useUi((s) => s.processes);
  const projectId = useUi((s) => s.activeProjectId);
  const open = onOpen ?? ((id: string) => openPane(projectId, id));
  const rows = agentsAtBudget(processes);
  if (rows.length === 0) return null;
  return (
    <section className="inbox-budgets" aria-labelledby="inbox-budget-title" data-testid="inbox-budgets">
      <h3 id="inbox-budget-title">At their budget</h3>
      <ul>
        {rows.map((p) => (
          <BudgetRow key={p.id} process={p} onOpen={() => open(p.id)} openLabel={openLabel} />
        ))}
      </ul>
    </section>
  );
}

function BudgetRow({ process: p, onOpen, openLabel }: { process: ProcessInfo; onOpen: () => void; openLabel: string }) {
  const [raising, setRaising] = useState(false);
  const b = p.budget!;
  const held = b.held ? `; ${b.held} held` : '';
  return (
    <li data-testid="inbox-budget" data-name={p.name}>
      <span>
        {p.name}: {b.scope === 'project' ? "the project's " : ''}budget reached ({budgetText(b)}){held}
      </span>
      <span className="inbox-budget-actions">
        <button
          type="button"
          data-testid="inbox-budget-go-once"
          disabled={b.goOnce}
          aria-label={`Go on once — ${p.name}`}
          onClick={() => void run((c) => c.call('budgetGoOnce', { id: p.id }))}
        >
          {b.goOnce ? 'Going on once' : 'Go on once'}
        </button>
        <button type="button" data-testid="inbox-budget-raise" aria-expanded={raising} onClick={() => setRaising(!raising)}>
          Raise cap
        </button>
        <button type="button" onClick={onOpen}>
          {openLabel}
        </button>
      </span>
      {raising && <BudgetForm process={p} onDone={() => setRaising(false)} />}
    </li>
  );
}
