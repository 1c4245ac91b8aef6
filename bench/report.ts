/** One benchmark figure; `ratio` compares it with a baseline measured in the same run. */
export interface BenchRow {
  section: string;
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  goal?: string;
  /** Whether `value` (or `ratio`) meets `goal`, where the section judges it. */
  met?: boolean;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function printTable(rows: BenchRow[]): void {
  const header = ['section', 'figure', 'value', 'baseline', 'ratio', 'goal', 'met'];
  const lines = rows.map((r) => [
    r.section,
    r.name,
    `${fmt(r.value)} ${r.unit}`,
    r.baseline === undefined ? '' : `${fmt(r.baseline)} ${r.unit}`,
    r.ratio === undefined ? '' : r.ratio.toFixed(2),
    r.goal ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const row = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(row(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(row(line));
}

function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2);
}
