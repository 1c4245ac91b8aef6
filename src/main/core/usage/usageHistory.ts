/**
 * Usage totals per day and worktree, kept across restarts in the app's data folder (one file per
 * project, 0600, replaced atomically). What a session file adds is counted once: the running
 * totals already counted per file are kept with the days, so a file read again from its start
 * after a restart adds only what is new. Bounded: the newest `MAX_DAYS` days and `MAX_FILES`
 * files are kept.
 */
import { readFileSync, renameSync } from 'node:fs';
import { hostname } from 'node:os';
import { writeFileAtomic } from '../base';
import { EMPTY_TOKENS, type TokenCounts, type UsageDay } from '../../../shared/usage';
import { addTokens } from './usageAccumulator';
import { roundUsd } from './pricing';

export const MAX_DAYS = 90;
const MAX_FILES = 1_000;
const VERSION = 1;

/** Tokens and USD counted (a day's row, or what a read added). */
export interface Counted extends TokenCounts {
  cost_usd: number;
}

interface FileBaseline extends Counted {
  /** When it last changed (ms), to drop the oldest past the bound. */
  at: number;
}

interface HistoryFile {
  version: number;
  host: string;
  /** day (YYYY-MM-DD, local) → worktree ("main" for the project folder) → totals. */
  days: Record<string, Record<string, Counted>>;
  /** day → agent (`spendKeyOf`) → totals: what day budgets count; only the newest two days are kept. */
  agentDays?: Record<string, Record<string, Counted>>;
  files: Record<string, FileBaseline>;
}

/** What one session file adds up to so far, and whose it is. */
export interface FileObservation extends TokenCounts {
  path: string;
  cost_usd: number | null;
  worktree: string | undefined;
  /** Whose spending it is, across app restarts (`spendKeyOf`). */
  agent?: string;
}

export class UsageHistory {
  private data: HistoryFile;

  constructor(
    private readonly path: string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.data = path ? load(path) : empty();
  }

  /** Adds what the file gained since it was last counted to today's row of its worktree; true when something was added. */
  observe(o: FileObservation): boolean {
    return this.gainOf(o) !== undefined;
  }

  /** As `observe`, returning what was added (what the budget counts: new spending, never a file read again). */
  gainOf(o: FileObservation): Counted | undefined {
    const before = this.data.files[o.path] ?? { ...EMPTY_TOKENS, cost_usd: 0, at: 0 };
    const gained = gain(o, before);
    if (!gained) return undefined;
    const day = localDay(this.now());
    addInto((this.data.days[day] ??= {}), o.worktree ?? 'main', gained);
    if (o.agent) addInto(((this.data.agentDays ??= {})[day] ??= {}), o.agent, gained);
    this.data.files[o.path] = { ...pick(o), cost_usd: o.cost_usd ?? before.cost_usd, at: this.now() };
    this.bound();
    return gained;
  }

  /** Today's totals over every worktree (the project's day). */
  dayTotal(day = localDay(this.now())): Counted {
    const total: Counted = { ...EMPTY_TOKENS, cost_usd: 0 };
    for (const row of Object.values(this.data.days[day] ?? {})) {
      addTokens(total, row);
      total.cost_usd = roundUsd(total.cost_usd + row.cost_usd);
    }
    return total;
  }

  /** What one agent (`spendKeyOf`) spent on `day`, kept across restarts. */
  agentDayTotal(agent: string, day = localDay(this.now())): Counted {
    return { ...EMPTY_TOKENS, cost_usd: 0, ...this.data.agentDays?.[day]?.[agent] };
  }

  rows(): UsageDay[] {
    return Object.entries(this.data.days)
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([day, rows]) => Object.entries(rows).map(([worktree, counted]) => ({ day, worktree, host: this.data.host, ...counted })));
  }

  save(): void {
    if (this.path) writeFileAtomic(this.path, JSON.stringify(this.data), 0o600);
  }

  private bound(): void {
    const days = Object.keys(this.data.days).sort();
    for (const day of days.slice(0, Math.max(0, days.length - MAX_DAYS))) delete this.data.days[day];
    const agentDays = Object.keys(this.data.agentDays ?? {}).sort();
    for (const day of agentDays.slice(0, Math.max(0, agentDays.length - 2))) delete this.data.agentDays![day];
    const files = Object.entries(this.data.files);
    if (files.length <= MAX_FILES) return;
    files.sort(([, a], [, b]) => a.at - b.at);
    for (const [path] of files.slice(0, files.length - MAX_FILES)) delete this.data.files[path];
  }
}

function addInto(rows: Record<string, Counted>, key: string, gained: Counted): void {
  const row = (rows[key] ??= { ...EMPTY_TOKENS, cost_usd: 0 });
  addTokens(row, gained);
  row.cost_usd = roundUsd(row.cost_usd + gained.cost_usd);
}

/** The increase since the baseline; a file whose totals went down was rewritten and counts from zero. */
function gain(o: FileObservation, before: Counted): Counted | undefined {
  const shrank = o.input_tokens < before.input_tokens || o.output_tokens < before.output_tokens;
  const base = shrank ? { ...EMPTY_TOKENS, cost_usd: 0 } : before;
  const d: Counted = {
    input_tokens: o.input_tokens - base.input_tokens,
    output_tokens: o.output_tokens - base.output_tokens,
    cache_read_tokens: Math.max(0, o.cache_read_tokens - base.cache_read_tokens),
    cache_write_tokens: Math.max(0, o.cache_write_tokens - base.cache_write_tokens),
    cost_usd: Math.max(0, (o.cost_usd ?? base.cost_usd) - base.cost_usd),
  };
  return d.input_tokens + d.output_tokens + d.cache_read_tokens + d.cache_write_tokens > 0 || d.cost_usd > 0 ? d : undefined;
}

function pick(t: TokenCounts): TokenCounts {
  return {
    input_tokens: t.input_tokens,
    output_tokens: t.output_tokens,
    cache_read_tokens: t.cache_read_tokens,
    cache_write_tokens: t.cache_write_tokens,
  };
}

export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function empty(): HistoryFile {
  return { version: VERSION, host: hostname(), days: {}, files: {} };
}

/** A file that cannot be read as history is moved aside (kept for a person to look at) and history starts empty. */
function load(path: string): HistoryFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return empty();
  }
  try {
    const data = JSON.parse(text) as Partial<HistoryFile>;
    if (data.version !== VERSION || typeof data.days !== 'object' || typeof data.files !== 'object') throw new Error('not a usage history');
    return { ...empty(), days: data.days ?? {}, agentDays: data.agentDays ?? {}, files: data.files ?? {} };
  } catch {
    try {
      renameSync(path, `${path}.unreadable-${Date.now()}`);
    } catch {
      // Nothing to keep.
    }
    return empty();
  }
}
