import type { UsageRecord } from '../../../shared/usage';
import { compactFigure, usageDetail, windowsNearLimit } from './usageFigure';

const formatTime = (iso: string) => new Date(iso).toLocaleString();

/** What the agent spent, compact, with every figure in its tooltip; a usage window past 80 % says so beside it. */
export function UsageFigure({ usage }: { usage: UsageRecord }) {
  const figure = compactFigure(usage);
  const near = windowsNearLimit(usage);
  if (!figure && near.length === 0) return null;
  const detail = usageDetail(usage, formatTime);
  return (
    <>
      {figure && (
        <span className="usage-figure" title={detail} aria-label={`usage: ${figure}`} data-testid="usage-figure">
          {figure}
        </span>
      )}
      {near.map((w) => (
        <span
          key={w.name}
          className="usage-warning"
          role="note"
          title={`${w.name} usage window ${Math.round(w.used_percent)} % used${w.resets_at ? `; resets ${formatTime(w.resets_at)}` : ''}`}
          aria-label={`${w.name} usage window at ${Math.round(w.used_percent)} percent`}
          data-testid="usage-warning"
        >
          {w.name} {Math.round(w.used_percent)}%
        </span>
      ))}
    </>
  );
}
