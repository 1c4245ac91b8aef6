/**
 * One screen → one state, with its explanation. The highest-priority matching rule wins, but every
 * rule is evaluated and recorded with whether it matched and a preview of the region it read, so
 * the badge tooltip, `get_process_status` and tests can say why. When no rule matches, output
 * activity decides and the result carries a named fallback reason.
 */
import type { AgentDetail } from '../../../shared/status';
import { matches } from './matcher';
import { RegionReader, type ScreenSnapshot } from './regions';
import type { RulePrimary, RuleSet } from './ruleSchema';
import { readUnknownDialog } from './unknownDialog';

/** Region previews are capped like herdr's: enough to recognise the screen, small enough to log. */
export const REGION_PREVIEW_CHARS = 240;
/** With no rule matching, output this recent means the program is doing something (a spinner
 *  redraws at least every ~200 ms; 2 s leaves room for slow frames). */
export const FALLBACK_ACTIVITY_WINDOW_MS = 2_000;

export const FALLBACK_RECENT_OUTPUT = 'fallback:recent-output';
const FALLBACK_QUIET = 'fallback:quiet';
/** No screen rule matched but the screen looks like a dialog (unknownDialog.ts): waiting, low confidence. */
export const UNRECOGNISED_DIALOG = 'unrecognised-dialog';

interface ClassifyContext {
  rules: RuleSet;
  /** Epoch ms of this classification. */
  now: number;
  /** Epoch ms of the last output byte of the current run. */
  lastOutputAt?: number;
  /** The program's own state report (OSC 7501, region `osc_state`). */
  agentState?: string;
}

interface RuleEvaluation {
  /** `<agent>/<rule id>`. */
  rule: string;
  priority: number;
  region: string;
  implies: { primary: RulePrimary; detail: AgentDetail };
  matched: boolean;
  /** The last REGION_PREVIEW_CHARS characters of the rule's region. */
  preview: string;
}

export interface Classification {
  primary: RulePrimary;
  /** null: active with the detail unknown (the tracker keeps the previous one). */
  detail: AgentDetail;
  /** The winning rule key, or `<agent>/fallback:…`. */
  reason: string;
  /** The winning rule is a strong idle signal (see StatusRuleInput.strongIdle). */
  isStrongIdle?: boolean;
  /** Set when no screen rule matched (a window-title hint may have). */
  fallback?: typeof FALLBACK_RECENT_OUTPUT | typeof FALLBACK_QUIET | typeof UNRECOGNISED_DIALOG;
  evaluated: RuleEvaluation[];
}

/** Anything with rows: a ScreenView, a ScreenModel, or plain lines. */
export type ScreenLike = readonly string[] | { getVisibleLines(): string[]; readonly cols: number };

export function classify(screen: ScreenLike, title: string, ctx: ClassifyContext): Classification {
  const snapshot = { ...toSnapshot(screen, title), agentState: ctx.agentState };
  const reader = new RegionReader(snapshot);
  const evaluated: RuleEvaluation[] = [];
  let winner: RuleEvaluation | undefined;
  let isStrongIdle = false;
  for (const rule of ctx.rules.rules) {
    const matched = matches(rule.match, reader, rule.region);
    const evaluation: RuleEvaluation = {
      rule: rule.key,
      priority: rule.priority,
      region: rule.region,
      implies: rule.implies,
      matched,
      preview: preview(reader.text(rule.region)),
    };
    evaluated.push(evaluation);
    // Rules are sorted by priority, so the first match is the winner.
    if (matched && !winner) {
      winner = evaluation;
      isStrongIdle = rule.strongIdle === true;
    }
  }
  if (!isSpecificEvidence(winner, isStrongIdle) && readUnknownDialog(reader.lines)) {
    return {
      primary: 'waiting',
      detail: 'question',
      reason: `${ctx.rules.agent}/${UNRECOGNISED_DIALOG}`,
      fallback: UNRECOGNISED_DIALOG,
      evaluated,
    };
  }
  if (winner) {
    return {
      primary: winner.implies.primary,
      detail: winner.implies.detail,
      reason: winner.rule,
      ...(isStrongIdle ? { isStrongIdle } : {}),
      evaluated,
    };
  }
  const recent = ctx.lastOutputAt !== undefined && ctx.now - ctx.lastOutputAt < FALLBACK_ACTIVITY_WINDOW_MS;
  const fallback = recent ? FALLBACK_RECENT_OUTPUT : FALLBACK_QUIET;
  return {
    primary: recent ? 'active' : 'idle',
    detail: recent ? null : 'ready',
    reason: `${ctx.rules.agent}/${fallback}`,
    fallback,
    evaluated,
  };
}

/**
 * Whether the winning rule says more than an unknown dialog on the same screen would. A title hint
 * (`✳` while a dialog is drawn) or silence is no evidence of the input prompt; a weak idle rule
 * (a prompt glyph: Claude Code's `❯` also marks the selected option of its menus) is not proof
 * that the prompt is there and empty, only a strong idle rule is; a generic busy marker (detail
 * unknown: Codex keeps `esc to interrupt` under its question) only says a turn is under way — a
 * dialog drawn during it is the turn waiting for a person.
 */
function isSpecificEvidence(winner: RuleEvaluation | undefined, isStrongIdle: boolean): boolean {
  if (winner === undefined || winner.region === 'osc_title') return false;
  if (winner.implies.primary === 'idle') return isStrongIdle;
  return winner.implies.detail !== null;
}

/** A screen rule (not a window-title hint, not a fallback) recognised the screen. */
export function isScreenRecognised(cls: Classification): boolean {
  return cls.fallback === undefined && cls.evaluated.find((e) => e.rule === cls.reason)?.region !== 'osc_title';
}

export function toSnapshot(screen: ScreenLike, title: string): ScreenSnapshot {
  if (isLines(screen)) {
    const cols = screen.reduce((w, l) => Math.max(w, l.length), 0);
    return { lines: screen, title, cols };
  }
  return { lines: screen.getVisibleLines(), title, cols: screen.cols };
}

function isLines(screen: ScreenLike): screen is readonly string[] {
  return Array.isArray(screen);
}

function preview(text: string): string {
  return text.length <= REGION_PREVIEW_CHARS ? text : '…' + text.slice(text.length - REGION_PREVIEW_CHARS + 1);
}
