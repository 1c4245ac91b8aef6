/**
 * Named screen regions that status rules read (after herdr's `manifest.rs`): every name maps to a
 * slice of the rendered screen here and nowhere else, and unknown names are refused at load time.
 *
 *   whole_screen                  every visible row
 *   bottom_non_empty_lines(n)     the last n rows that are not blank
 *   prompt_box                    rows strictly between the last two horizontal rules
 *   above_prompt_box[(n)]         rows above the prompt box (above the last rule when only one is
 *                                 visible); with n, only its last n non-blank rows
 *   after_last_horizontal_rule    rows below the last horizontal rule (status bar, dialogs)
 *   osc_title                     the OSC 0/2 window title, as one line
 *   osc_state                     the program's last own state report (OSC 7501 `state=…`, Codex
 *                                 CLI), as one line; empty when none came or it was cleared
 *
 * Rows are trimmed at the end (NBSP included); trailing blank rows of a region are dropped.
 */

const REGION_NAMES = [
  'whole_screen',
  'bottom_non_empty_lines',
  'prompt_box',
  'above_prompt_box',
  'after_last_horizontal_rule',
  'osc_title',
  'osc_state',
] as const;
type RegionName = (typeof REGION_NAMES)[number];

/** Regions that hold what the program told the terminal rather than rows of the screen. */
export function isReportRegion(spec: string): boolean {
  return spec === 'osc_title' || spec === 'osc_state';
}

/** Region parameter bounds: a region can never be larger than a very tall screen. */
const MAX_REGION_PARAM = 500;
/** A horizontal rule is at least this many rule characters... */
const HORIZONTAL_RULE_MIN_CHARS = 8;
/** ...and spans at least this share of the screen width (Claude Code's rules span all of it;
 *  a short `────` inside a dialog or a boxed header is not a prompt-box border). */
const HORIZONTAL_RULE_MIN_WIDTH_SHARE = 0.5;

const PARAM: Record<RegionName, 'none' | 'required' | 'optional'> = {
  whole_screen: 'none',
  bottom_non_empty_lines: 'required',
  prompt_box: 'none',
  above_prompt_box: 'optional',
  after_last_horizontal_rule: 'none',
  osc_title: 'none',
  osc_state: 'none',
};

interface ParsedRegion {
  name: RegionName;
  param?: number;
}

const REGION_SPEC = /^([a-z_]+)(?:\((\d+)\))?$/;

/** Parses `name` or `name(n)`; returns an error message a rule author can act on. */
export function parseRegion(spec: string): ParsedRegion | { error: string } {
  const m = REGION_SPEC.exec(spec);
  if (!m) return { error: `region "${spec}" is not of the form name or name(n)` };
  const name = m[1] as RegionName;
  if (!REGION_NAMES.includes(name)) {
    return { error: `unknown region "${m[1]}" (known: ${REGION_NAMES.join(', ')})` };
  }
  const param = m[2] === undefined ? undefined : Number(m[2]);
  if (PARAM[name] === 'required' && param === undefined) return { error: `region ${name} needs a line count, e.g. ${name}(8)` };
  if (PARAM[name] === 'none' && param !== undefined) return { error: `region ${name} takes no parameter` };
  if (param !== undefined && (param < 1 || param > MAX_REGION_PARAM)) {
    return { error: `region ${name}(${param}): the line count must be 1..${MAX_REGION_PARAM}` };
  }
  return param === undefined ? { name } : { name, param };
}

export function isRegionError(r: ParsedRegion | { error: string }): r is { error: string } {
  return 'error' in r;
}

export interface ScreenSnapshot {
  /** Visible rows, top to bottom. */
  lines: readonly string[];
  title: string;
  /** The program's own state report (OSC 7501), if it sends one. */
  agentState?: string;
  /** Screen width, for telling a horizontal rule from a short dash run. */
  cols: number;
}

/** A rule of box-drawing lines, or the top or bottom edge of a composer drawn as a filled bar (`╻▄▄▄`, `╹▀▀▀`: Copilot CLI on a terminal that reports its colours). */
const RULE_LINE = /^(?:[─━═]+|[╻╹][▄▀]+)$/u;

export function isHorizontalRule(line: string, cols: number): boolean {
  const t = line.trim();
  if (t.length < HORIZONTAL_RULE_MIN_CHARS) return false;
  if (t.length < cols * HORIZONTAL_RULE_MIN_WIDTH_SHARE) return false;
  return RULE_LINE.test(t);
}

/**
 * Reads regions of one snapshot; each region is computed once however many rules read it.
 * Create one per classification.
 */
export class RegionReader {
  readonly lines: readonly string[];
  private readonly cache = new Map<string, readonly string[]>();
  private rules: number[] | undefined;

  constructor(private readonly snapshot: ScreenSnapshot) {
    this.lines = snapshot.lines.map((l) => l.trimEnd());
  }

  /** The region's rows (an empty array when the screen has no such region). */
  read(spec: string): readonly string[] {
    const cached = this.cache.get(spec);
    if (cached) return cached;
    const parsed = parseRegion(spec);
    if (isRegionError(parsed)) throw new Error(parsed.error);
    const rows = dropTrailingBlank(this.slice(parsed));
    this.cache.set(spec, rows);
    return rows;
  }

  /** The region as one string, rows joined with "\n". */
  text(spec: string): string {
    return this.read(spec).join('\n');
  }

  private ruleRows(): number[] {
    if (!this.rules) {
      this.rules = [];
      for (let y = 0; y < this.lines.length; y++) {
        if (isHorizontalRule(this.lines[y], this.snapshot.cols)) this.rules.push(y);
      }
    }
    return this.rules;
  }

  private slice({ name, param }: ParsedRegion): readonly string[] {
    const lines = this.lines;
    const rules = this.ruleRows();
    switch (name) {
      case 'whole_screen':
        return lines;
      case 'osc_title':
        return [this.snapshot.title];
      case 'osc_state':
        return [this.snapshot.agentState ?? ''];
      case 'bottom_non_empty_lines':
        return lastNonEmpty(lines, param ?? lines.length);
      case 'prompt_box':
        if (rules.length < 2) return [];
        return lines.slice(rules[rules.length - 2] + 1, rules[rules.length - 1]);
      case 'above_prompt_box': {
        const end = rules.length >= 2 ? rules[rules.length - 2] : rules.length === 1 ? rules[0] : lines.length;
        const above = lines.slice(0, end);
        return param === undefined ? above : lastNonEmpty(above, param);
      }
      case 'after_last_horizontal_rule':
        return rules.length === 0 ? [] : lines.slice(rules[rules.length - 1] + 1);
    }
  }
}

function lastNonEmpty(lines: readonly string[], n: number): string[] {
  const out: string[] = [];
  for (let y = lines.length - 1; y >= 0 && out.length < n; y--) {
    if (lines[y].trim() !== '') out.push(lines[y]);
  }
  return out.reverse();
}

function dropTrailingBlank(lines: readonly string[]): readonly string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1].trim() === '') end--;
  return end === lines.length ? lines : lines.slice(0, end);
}
