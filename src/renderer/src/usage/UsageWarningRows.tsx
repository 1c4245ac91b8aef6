/**
 * The inbox's usage-window warnings: each agent window at 80 % or more, once, with its reset
 * (docs/usage.md, "Warnings before the wall"). Dismissed, a row goes for good for that window and
 * reset; the core keeps which.
 */
import type { ProcessInfo } from '../../../shared/model';
import type { UsageWarning } from '../../../shared/usage';
import { run, useUi } from '../app/store';
import { resetWords } from './usageFigure';

interface WarningRow {
  process: ProcessInfo;
  warning: UsageWarning;
}

/** Every open warning of the shown project's agents, the fullest window first. */
export function usageWarningRows(processes: Record<string, ProcessInfo>): WarningRow[] {
  return Object.values(processes)
    .flatMap((process) => (process.usageWarnings ?? []).map((warning) => ({ process, warning })))
    .sort((a, b) => b.warning.used_percent - a.warning.used_percent || a.warning.raised_at - b.warning.raised_at);
}

export function UsageWarningRows() {
  const processes = useUi((s) => s.processes);
  const rows = usageWarningRows(processes);
  if (rows.length === 0) return null;
  return (
    <section className="inbox-usage-warnings" aria-labelledby="inbox-usage-title" data-testid="inbox-usage-warnings">
      <h3 id="inbox-usage-title">Near a usage limit</h3>
      <ul>
        {rows.map(({ process, warning }) => {
          const used = Math.round(warning.used_percent);
          const dismiss = () =>
            void run((c) => c.call('dismissUsageWarning', { id: process.id, window: warning.window, resets_at: warning.resets_at }));
          return (
            <li
              key={`${process.id} ${warning.window} ${warning.resets_at ?? ''}`}
              data-testid="inbox-usage-warning"
              data-name={process.name}
            >
              <span title={warning.resets_at ? new Date(warning.resets_at).toLocaleString() : undefined}>
                {process.name}: {warning.window} usage window at {used} %
                {warning.resets_at ? `, resets ${resetWords(warning.resets_at)}` : ''}
              </span>
              <button
                data-testid="inbox-usage-dismiss"
                aria-label={`Dismiss the ${warning.window} warning of ${process.name}`}
                onClick={dismiss}
              >
                Dismiss
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
