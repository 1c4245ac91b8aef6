import { useState } from 'react';
import type { ProcessInfo } from '../../../shared/model';
import type { BudgetConfig, BudgetPeriod, BudgetUnit } from '../../../shared/budget';
import { run } from '../app/store';
import { budgetText } from './BudgetBadge';

/**
 * Set or raise an agent's budget for this app run (the `setBudget` command `serve` takes too):
 * a cap in US dollars or tokens, per day or per run. switchboard.json keeps a lasting one.
 */
export function BudgetButton({ process: p }: { process: ProcessInfo }) {
  const [open, setOpen] = useState(false);
  if (p.kind !== 'agent') return null;
  const b = p.budget;
  return (
    <>
      <button
        className={b?.reached ? 'budget on' : 'budget'}
        title={b ? `Budget: ${budgetText(b)} (${b.scope === 'project' ? "the project's" : b.source})` : 'Set a budget'}
        aria-label={`Budget of ${p.name}`}
        data-testid="budget"
        onClick={() => setOpen(!open)}
      >
        $
      </button>
      {open && <BudgetForm process={p} onDone={() => setOpen(false)} />}
    </>
  );
}

/** The cap's form: the pane's budget button and the inbox's "Raise cap" open the same one. */
export function BudgetForm({ process: p, onDone }: { process: ProcessInfo; onDone: () => void }) {
  const b = p.budget;
  const [cap, setCap] = useState(b ? String(b.reached ? b.cap * 2 : b.cap) : '');
  const [unit, setUnit] = useState<BudgetUnit>(b?.unit ?? 'usd');
  const [period, setPeriod] = useState<BudgetPeriod>(b?.period ?? 'day');
  const scope = b?.scope ?? 'agent';
  const submit = (budget: BudgetConfig | null) => void run((c) => c.call('setBudget', { id: p.id, budget, scope })).then(onDone);
  return (
    <form
      className="budget-form"
      data-testid="budget-form"
      onSubmit={(e) => {
        e.preventDefault();
        const value = Number(cap);
        if (!(value > 0)) return;
        submit(unit === 'usd' ? { usd: value, period } : { tokens: Math.round(value), period });
      }}
    >
      <label>
        {scope === 'project' ? "Project's cap" : 'Cap'}
        <input type="number" min="0" step="any" value={cap} onChange={(e) => setCap(e.target.value)} data-testid="budget-cap" autoFocus />
      </label>
      <select value={unit} onChange={(e) => setUnit(e.target.value as BudgetUnit)} aria-label="Unit">
        <option value="usd">USD</option>
        <option value="tokens">tokens</option>
      </select>
      <select value={period} onChange={(e) => setPeriod(e.target.value as BudgetPeriod)} aria-label="Period">
        <option value="day">per day</option>
        <option value="run">per run</option>
      </select>
      <button type="submit" data-testid="budget-set">
        Set
      </button>
      {b && scope === 'agent' && (
        <button type="button" onClick={() => submit(null)}>
          Remove
        </button>
      )}
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
