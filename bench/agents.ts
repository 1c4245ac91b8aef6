/**
 * The agent-status score table: every CLI's recordings replayed through its preset's tracker
 * (agreement, missed prompts, transition delays), plus the late-counter stall probe on its rules
 * (how long after the 15 s threshold `stuck` shows). Printed by `npm run agents:score` and `npm run bench`.
 */
import { BUILTIN_PRESETS, resolvePreset, type AgentPreset } from '../src/main/core/agents';
import { listRecordingSets, probeLateCounterStalls, scoreRecordingSet, type RecordingSetScore } from '../src/main/core/status';

interface AgentScoreRow {
  cli: string;
  version: string;
  verified: string;
  recordings: number;
  scored: number;
  agreement: number;
  missedPrompts: string;
  transitionP95Ms: number;
  stuckDelay: string;
}

export async function scoreAgents(): Promise<AgentScoreRow[]> {
  const rows: AgentScoreRow[] = [];
  const scoredPresets = new Set<string>();
  for (const set of listRecordingSets()) {
    const preset = resolvePreset(set.cli);
    scoredPresets.add(preset.id);
    rows.push(rowFor(preset, await scoreRecordingSet(set, preset), await worstStallDelay(preset)));
  }
  for (const preset of [...BUILTIN_PRESETS.values(), resolvePreset('generic')]) {
    if (scoredPresets.has(preset.id)) continue;
    rows.push(rowFor(preset, undefined, await worstStallDelay(preset)));
  }
  return rows;
}

function rowFor(preset: AgentPreset, set: RecordingSetScore | undefined, stall: string): AgentScoreRow {
  const recorded = set?.recordedVersions.join(', ');
  return {
    cli: preset.id === 'generic' ? 'generic' : preset.displayName,
    version: recorded ?? (preset.verified === 'unverified' ? preset.rules.version : preset.verified.cliVersion),
    verified: preset.verified === 'unverified' ? 'unverified' : `${preset.verified.cliVersion} (${preset.verified.date})`,
    recordings: set?.recordings.length ?? 0,
    scored: set?.scored ?? 0,
    agreement: set?.agreement ?? NaN,
    missedPrompts: set ? `${set.missedPrompts}/${set.prompts}` : '—',
    transitionP95Ms: set?.transitionP95Ms ?? NaN,
    stuckDelay: set && set.stuckDelaysMs.length + set.missedStucks > 0 ? recordedStuck(set) : stall,
  };
}

/** The worst (latest) stuck call of the stall probe over the preset's busy screens, e.g. "+25 ms (probe, 9 screens)". */
async function worstStallDelay(preset: AgentPreset): Promise<string> {
  const results = await probeLateCounterStalls(preset);
  if (!results.length) return '— (no busy screen rule)';
  const never = results.filter((r) => r.delayMs === undefined).length;
  if (never) return `never on ${never}/${results.length} screens (probe)`;
  const worst = Math.max(...results.map((r) => r.delayMs!));
  return `${signed(worst)} ms (probe, ${results.length} screens)`;
}

function recordedStuck(set: RecordingSetScore): string {
  const worst = set.stuckDelaysMs.length ? Math.max(...set.stuckDelaysMs) : NaN;
  return `${Number.isNaN(worst) ? '—' : `${signed(worst)} ms`} (recordings${set.missedStucks ? `, ${set.missedStucks} missed` : ''})`;
}

function signed(ms: number): string {
  return `${ms >= 0 ? '+' : ''}${Math.round(ms)}`;
}

export function printAgentScores(rows: AgentScoreRow[]): void {
  const header = [
    'CLI',
    'version',
    'verified',
    'recordings',
    'scored samples',
    'agreement',
    'missed prompts',
    'transition p95',
    'stuck-detection delay',
  ];
  const cells = rows.map((r) => [
    r.cli,
    r.version,
    r.verified,
    String(r.recordings),
    String(r.scored),
    Number.isNaN(r.agreement) ? '—' : `${(r.agreement * 100).toFixed(1)} %`,
    r.missedPrompts,
    Number.isNaN(r.transitionP95Ms) ? '—' : `${Math.round(r.transitionP95Ms)} ms`,
    r.stuckDelay,
  ]);
  printTable(header, cells);
}

/** A Markdown table, columns padded to their widest cell. */
export function printTable(header: string[], cells: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((s, i) => s.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}
