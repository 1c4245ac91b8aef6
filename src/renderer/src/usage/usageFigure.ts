/** The compact usage figure of a row and a pane header, and its warning before a usage window's wall (docs/usage.md). */
import { WINDOW_WARNING_PERCENT, type CostSource, type UsageRecord, type UsageWindow } from '../../../shared/usage';

/** `$0.07` when priced (`~` marks an estimate), else the tokens processed (`12.3k tok`); empty before any usage. */
export function compactFigure(u: UsageRecord): string {
  const tokens = u.input_tokens + u.output_tokens + u.cache_read_tokens + u.cache_write_tokens;
  if (tokens === 0 && !u.cost_usd) return '';
  if (u.cost_usd !== null) return costText(u.cost_usd, u.cost_source);
  return `${compactCount(tokens)} tok`;
}

/** The windows at or past the warning share, fullest first. */
export function windowsNearLimit(u: UsageRecord): UsageWindow[] {
  return u.windows.filter((w) => w.used_percent >= WINDOW_WARNING_PERCENT).sort((a, b) => b.used_percent - a.used_percent);
}

/** Every figure in words, for the tooltip. */
export function usageDetail(u: UsageRecord, formatTime: (iso: string) => string): string {
  const lines = [
    `input ${u.input_tokens.toLocaleString('en')} · output ${u.output_tokens.toLocaleString('en')} · cache read ${u.cache_read_tokens.toLocaleString('en')} · cache write ${u.cache_write_tokens.toLocaleString('en')} tokens`,
    u.cost_usd === null ? 'cost: unpriced (no figure from the CLI, no price for the model)' : `cost $${usd(u.cost_usd)} (${costWords(u)})`,
  ];
  if (u.context_used !== null) {
    const window = u.context_window
      ? ` of ${compactCount(u.context_window)} (${Math.round((100 * u.context_used) / u.context_window)} %)`
      : '';
    lines.push(`context ${compactCount(u.context_used)}${window}`);
  }
  for (const w of u.windows)
    lines.push(`${w.name} window ${Math.round(w.used_percent)} % used${w.resets_at ? `, resets ${formatTime(w.resets_at)}` : ''}`);
  if (u.model) lines.push(`model ${u.model}, from the ${u.source ?? 'CLI'}`);
  return lines.join('\n');
}

function costWords(u: UsageRecord): string {
  return u.cost_source === 'cli' ? "the CLI's own figure" : 'estimated from the price table';
}

/** A cost as the view shows it: `~$0.23` for an estimate, `$0.23` for the CLI's own, `unpriced` for none. */
export function costText(cost: number | null, source: CostSource): string {
  if (cost === null) return 'unpriced';
  return `${source === 'estimated' ? '~' : ''}$${usd(cost)}`;
}

/** When a window resets, short: the time today, the weekday and time within a week, else the date. */
export function resetWords(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  if (at.toDateString() === now.toDateString()) return time;
  const inAWeek = at.getTime() - now.getTime() < 6 * 24 * 3600 * 1000 && at.getTime() > now.getTime();
  if (inAWeek) return `${at.toLocaleDateString('en-GB', { weekday: 'short' })} ${time}`;
  return `${at.toLocaleDateString('en-CA')} ${time}`;
}

export function usd(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toFixed(n >= 0.01 || n === 0 ? 2 : 4);
}

export function compactCount(n: number): string {
  if (n < 1_000) return String(n);
  if (n < 1_000_000) return `${(n / 1_000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 1 : 0)}M`;
}
