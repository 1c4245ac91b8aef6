import type { ProcessInfo } from '../../../shared/model';
import type { BudgetState } from '../../../shared/budget';
import { run } from '../app/store';

/** "$1.02 / $1.00 day", "120k / 100k tok run". */
export function budgetText(b: BudgetState): string {
  const amount = (n: number) => (b.unit === 'usd' ? `$${n.toFixed(2)}` : n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));
  return `${amount(b.spent)} / ${amount(b.cap)}${b.unit === 'tokens' ? ' tok' : ''} ${b.period}`;
}

/**
 * An agent at its budget (docs/usage.md, "Budgets"): shown apart from every other state, with the
 * person's one-off release. Raising the cap is the pane's budget button.
 */
export function BudgetBadge({ process: p }: { process: ProcessInfo }) {
  const b = p.budget;
  if (!b?.reached) return null;
  const whose = b.scope === 'project' ? "project's budget" : 'budget';
  const held = b.held ? `; ${b.held} held` : '';
  return (
    <span
      className="budget-reached"
      data-testid="budget-reached"
      title={`${whose} reached: ${budgetText(b)}${held}. Switchboard sends it nothing more until you go on once or raise the cap.`}
    >
      {whose} reached{held}
      <button
        type="button"
        data-testid="budget-go-once"
        disabled={b.goOnce}
        title={b.goOnce ? 'The next delivery goes through' : 'Let exactly one held delivery through, then hold again'}
        onClick={(e) => {
          e.stopPropagation();
          void run((c) => c.call('budgetGoOnce', { id: p.id }));
        }}
      >
        {b.goOnce ? 'going on once' : 'Go on once'}
      </button>
    </span>
  );
}
