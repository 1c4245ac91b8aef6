import type { UsageRecord } from '../../../shared/usage';
import { compactFigure, resetWords, usageDetail, windowsNearLimit } from './usageFigure';

const formatTime = (iso: string) => new Date(iso).toLocaleString();

/**
 * What the agent spent, compact, with every figure in its tooltip; a usage window past 80 % says
 * so beside it with its reset. In a narrow row whole parts drop, least important first (the
 * other windows, the cost, the reset), never a figure cut in half; the tooltip keeps them all.
 */
export function UsageFigure({ usage }: { usage: UsageRecord }) {
  const figure = compactFigure(usage);
  const [fullest, ...others] = windowsNearLimit(usage);
  if (!figure && !fullest) return null;
  const detail = usageDetail(usage, formatTime);
  return (
    <span className="usage-badges" title={detail} data-testid="usage-badges">
      {fullest && <WindowWarning name={fullest.name} percent={fullest.used_percent} resetsAt={fullest.resets_at} />}
      {fullest?.resets_at && (
        <span className="usage-reset" data-testid="usage-reset">
          resets {resetWords(fullest.resets_at)}
        </span>
      )}
      {figure && (
        <span className="usage-figure" title={detail} aria-label={`usage: ${figure}`} data-testid="usage-figure">
          {figure}
        </span>
      )}
      {others.map((w) => (
        <WindowWarning key={w.name} name={w.name} percent={w.used_percent} resetsAt={w.resets_at} />
      ))}
    </span>
  );
}

function WindowWarning({ name, percent, resetsAt }: { name: string; percent: number; resetsAt: string | null }) {
  const used = Math.round(percent);
  return (
    <span
      className="usage-warning"
      role="note"
      title={`${name} usage window ${used} % used${resetsAt ? `; resets ${formatTime(resetsAt)}` : ''}`}
      aria-label={`${name} usage window at ${used} percent${resetsAt ? `, resets ${resetWords(resetsAt)}` : ''}`}
      data-testid="usage-warning"
    >
      {name} {used}%
    </span>
  );
}
