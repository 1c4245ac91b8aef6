/**
 * The usage view (docs/usage.md, "The usage view"): what every agent of the open projects and
 * hosts spent and how close it is to its windows, the kept history per day with a chart, and the
 * totals per project, worktree, host and day. Figures are the cores' own (`getUsage`).
 */
import type { ReactNode } from 'react';
import { useUi } from '../app/store';
import { OverlayDialog } from '../common/Overlay';
import type { TokenCounts, UsageWindow } from '../../../shared/usage';
import { WINDOW_WARNING_PERCENT } from '../../../shared/usage';
import { compactCount, costText, resetWords, usd } from './usageFigure';
import { useProjectUsage } from './useProjectUsage';
import { budgetText } from '../budget/BudgetBadge';
import type { BudgetState } from '../../../shared/budget';
import {
  agentRows,
  agentsTotal,
  chartBars,
  dayRows,
  localDate,
  totalsBy,
  type AgentRow,
  type DayRow,
  type TotalDimension,
  type UsageTotal,
} from './usageTable';

const count = (n: number) => n.toLocaleString('en');

export function UsageView() {
  const { sources, refresh } = useProjectUsage();
  const agents = agentRows(sources ?? []);
  const days = dayRows(sources ?? []);
  const problems = (sources ?? []).filter((s) => s.problem);
  return (
    <OverlayDialog label="Usage" testId="usage-view" className="usage-view">
      <header className="overlay-header">
        <h2>Usage</h2>
        <span className="usage-header-actions">
          <button data-testid="usage-refresh" onClick={refresh}>
            Refresh
          </button>
          <button aria-label="Close usage" data-testid="usage-close" onClick={() => useUi.getState().setOverlay(undefined)}>
            ✕
          </button>
        </span>
      </header>
      {sources === undefined && <p className="review-note">Reading usage…</p>}
      {problems.map((s) => (
        <p key={s.project.id} className="review-outcome problem" role="alert" data-testid="usage-problem">
          {s.project.name}
          {s.project.host ? ` on ${s.project.host}` : ''}: {s.problem}
        </p>
      ))}
      {sources && (
        <>
          <AgentTable rows={agents} />
          <DaySection rows={days} />
          <TotalsSection rows={days} />
        </>
      )}
    </OverlayDialog>
  );
}

function Scroll({ label, children }: { label: string; children: ReactNode }) {
  // Focusable so a keyboard can scroll a table wider than the window.
  return (
    <div className="usage-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

function TokenCells({ t }: { t: TokenCounts }) {
  return (
    <>
      <td className="num" data-testid="usage-input">
        {count(t.input_tokens)}
      </td>
      <td className="num" data-testid="usage-output">
        {count(t.output_tokens)}
      </td>
      <td className="num col-cache" data-testid="usage-cache-read">
        {count(t.cache_read_tokens)}
      </td>
      <td className="num col-cache" data-testid="usage-cache-write">
        {count(t.cache_write_tokens)}
      </td>
    </>
  );
}

const WHERE_HEADERS = (
  <>
    <th scope="col" className="col-where">
      Project
    </th>
    <th scope="col" className="col-where">
      Worktree
    </th>
    <th scope="col" className="col-where">
      Host
    </th>
  </>
);

interface Placed {
  project: string;
  worktree: string;
  host: string;
}

function WhereCells({ row }: { row: Placed }) {
  return (
    <>
      <td className="col-where">{row.project}</td>
      <td className="col-where">{row.worktree}</td>
      <td className="col-where">{row.host}</td>
    </>
  );
}

/** At phone width the project, worktree and host go under the row's name instead of three columns. */
function Where({ row }: { row: Placed }) {
  return (
    <span className="usage-where">
      {row.project} · {row.worktree} · {row.host}
    </span>
  );
}

const TOKEN_HEADERS = (
  <>
    <th scope="col" className="num">
      Input
    </th>
    <th scope="col" className="num">
      Output
    </th>
    <th scope="col" className="num col-cache">
      Cache read
    </th>
    <th scope="col" className="num col-cache">
      Cache write
    </th>
  </>
);

function AgentTable({ rows }: { rows: AgentRow[] }) {
  const hasBudget = rows.some((r) => r.budget !== null && r.budget !== undefined);
  const total = agentsTotal(rows);
  return (
    <section className="usage-section" aria-labelledby="usage-agents-title">
      <h3 id="usage-agents-title">Agents</h3>
      {rows.length === 0 ? (
        <p className="inbox-empty">No agent whose usage Switchboard reads is open.</p>
      ) : (
        <Scroll label="Usage per agent">
          <table className="usage-table" data-testid="usage-agents">
            <thead>
              <tr>
                <th scope="col">Agent</th>
                {WHERE_HEADERS}
                <th scope="col" className="num">
                  Cost
                </th>
                {TOKEN_HEADERS}
                <th scope="col">Context</th>
                <th scope="col">Usage windows</th>
                {hasBudget && <th scope="col">Budget</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key} data-testid="usage-agent-row" data-process-id={row.processId} data-project-id={row.projectId}>
                  <th scope="row">
                    {row.agent}
                    <Where row={row} />
                  </th>
                  <WhereCells row={row} />
                  <td className="num" data-testid="usage-cost" title={costTitle(row.cost_source)}>
                    {costText(row.cost_usd, row.cost_source)}
                    {row.cost_source === 'estimated' && <span className="usage-estimated"> est.</span>}
                  </td>
                  <TokenCells t={row} />
                  <td data-testid="usage-context">{contextText(row)}</td>
                  <td data-testid="usage-windows">
                    <Windows windows={row.windows} />
                  </td>
                  {hasBudget && <td>{budgetCell(row.budget)}</td>}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr data-testid="usage-agents-total">
                <th scope="row">All agents</th>
                <td className="col-where" colSpan={3} />
                <td className="num" data-testid="usage-cost" title={costTitle(total.cost_source)}>
                  {costText(total.cost_usd, total.cost_source)}
                  {total.cost_source === 'estimated' && <span className="usage-estimated"> est.</span>}
                </td>
                <TokenCells t={total} />
                <td colSpan={hasBudget ? 3 : 2} />
              </tr>
            </tfoot>
          </table>
        </Scroll>
      )}
      <p className="usage-note">
        ~ and “est.”: estimated from Switchboard&apos;s price table; without them the cost is the CLI&apos;s own figure.
      </p>
    </section>
  );
}

function Windows({ windows }: { windows: UsageWindow[] }) {
  if (windows.length === 0) return <span className="usage-muted">none known</span>;
  return (
    <ul className="usage-windows">
      {windows.map((w) => (
        <li key={w.name} className={w.used_percent >= WINDOW_WARNING_PERCENT ? 'usage-window-near' : undefined}>
          {w.name} {Math.round(w.used_percent)} %{w.resets_at ? ` · resets ${resetWords(w.resets_at)}` : ''}
        </li>
      ))}
    </ul>
  );
}

function DaySection({ rows }: { rows: DayRow[] }) {
  const { bars, measure } = chartBars(rows, localDate(new Date()));
  return (
    <section className="usage-section" aria-labelledby="usage-days-title">
      <h3 id="usage-days-title">Per day</h3>
      <p className="usage-note" data-testid="usage-chart-scale">
        The last {bars.length} days; the longest bar is {largestText(bars, measure)}.
      </p>
      <ol
        className="usage-chart"
        aria-label={`${measure === 'cost' ? 'Cost' : 'Tokens'} per day, the last ${bars.length} days`}
        data-testid="usage-chart"
      >
        {bars.map((bar) => {
          const value = measure === 'cost' ? `$${usd(bar.cost_usd)}` : `${compactCount(bar.tokens)} tok`;
          return (
            <li key={bar.day} title={`${bar.day}: ${value}`} data-day={bar.day} data-testid="usage-chart-bar">
              <span className="usage-bar" style={{ height: `${Math.max(bar.percent, bar.percent > 0 ? 3 : 0)}%` }} aria-hidden="true" />
              <span className="usage-bar-day" aria-hidden="true">
                {bar.day.slice(8)}
              </span>
              <span className="visually-hidden">
                {bar.day}: {value}
              </span>
            </li>
          );
        })}
      </ol>
      {rows.length === 0 ? (
        <p className="inbox-empty">No usage kept yet.</p>
      ) : (
        <Scroll label="Usage per day">
          <table className="usage-table" data-testid="usage-days">
            <thead>
              <tr>
                <th scope="col">Day</th>
                {WHERE_HEADERS}
                <th scope="col" className="num">
                  Cost
                </th>
                {TOKEN_HEADERS}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key} data-testid="usage-day-row" data-day={row.day} data-worktree={row.worktree}>
                  <th scope="row">
                    {row.day}
                    <Where row={row} />
                  </th>
                  <WhereCells row={row} />
                  <td className="num" data-testid="usage-cost">
                    ${usd(row.cost_usd)}
                  </td>
                  <TokenCells t={row} />
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      <p className="usage-note">Kept across restarts: the newest 90 days. A day&apos;s cost counts the priced agents only.</p>
    </section>
  );
}

const DIMENSIONS: Array<{ dimension: TotalDimension; title: string }> = [
  { dimension: 'project', title: 'Per project' },
  { dimension: 'worktree', title: 'Per worktree' },
  { dimension: 'host', title: 'Per host' },
  { dimension: 'day', title: 'Per day' },
];

function TotalsSection({ rows }: { rows: DayRow[] }) {
  if (rows.length === 0) return null;
  return (
    <section className="usage-section" aria-labelledby="usage-totals-title">
      <h3 id="usage-totals-title">Totals over the kept days</h3>
      <div className="usage-totals">
        {DIMENSIONS.map(({ dimension, title }) => (
          <TotalsTable key={dimension} title={title} dimension={dimension} totals={totalsBy(rows, dimension)} />
        ))}
      </div>
    </section>
  );
}

function TotalsTable({ title, dimension, totals }: { title: string; dimension: TotalDimension; totals: UsageTotal[] }) {
  return (
    <table className="usage-table usage-total-table" data-testid={`usage-totals-${dimension}`}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{dimension === 'day' ? 'Day' : dimension[0].toUpperCase() + dimension.slice(1)}</th>
          <th scope="col" className="num">
            Tokens
          </th>
          <th scope="col" className="num">
            Cost
          </th>
        </tr>
      </thead>
      <tbody>
        {totals.map((t) => (
          <tr key={t.label} data-testid="usage-total" data-label={t.label}>
            <th scope="row">{t.label}</th>
            <td
              className="num"
              title={`input ${count(t.input_tokens)} · output ${count(t.output_tokens)} · cache read ${count(t.cache_read_tokens)} · cache write ${count(t.cache_write_tokens)}`}
            >
              {compactCount(t.input_tokens + t.output_tokens + t.cache_read_tokens + t.cache_write_tokens)}
            </td>
            <td className="num" data-testid="usage-cost">
              ${usd(t.cost_usd)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function largestText(bars: ReturnType<typeof chartBars>['bars'], measure: 'cost' | 'tokens'): string {
  const largest = Math.max(0, ...bars.map((b) => (measure === 'cost' ? b.cost_usd : b.tokens)));
  return measure === 'cost' ? `$${usd(largest)}` : `${compactCount(largest)} tokens`;
}

function costTitle(source: AgentRow['cost_source']): string {
  if (source === 'cli') return "The CLI's own figure";
  if (source === 'estimated') return "Estimated from Switchboard's price table";
  return 'No figure from the CLI and no price for the model';
}

function contextText(row: AgentRow): string {
  if (row.context_used === null) return '—';
  if (!row.context_window) return compactCount(row.context_used);
  return `${compactCount(row.context_used)} / ${compactCount(row.context_window)} (${Math.round((100 * row.context_used) / row.context_window)} %)`;
}

/** "$0.17 / $0.05 day · reached · 1 held", or a dash without a cap. */
function budgetCell(budget: BudgetState | null): string {
  if (!budget) return '—';
  return [budgetText(budget), budget.reached ? 'reached' : '', budget.held ? `${budget.held} held` : ''].filter(Boolean).join(' · ');
}
