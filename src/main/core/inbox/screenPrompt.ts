/**
 * Reads the prompt a waiting agent shows: the waiting rule that recognises it, the prompt's own
 * rows (the rule's prompt layout; the rule's region for a rule without one), and a fingerprint of
 * that text. Animation (spinner glyphs, elapsed
 * time) is left out of the fingerprint so a prompt stays the same prompt while its spinner turns;
 * a different prompt (another command, another question) gets another fingerprint.
 */
import { createHash } from 'node:crypto';
import {
  classify,
  meaningfulRow,
  promptRows,
  readUnknownDialog,
  RegionReader,
  toSnapshot,
  UNRECOGNISED_DIALOG,
  type RuleSet,
  type ScreenLike,
} from '../status';
import type { PromptAnswer, PromptAnswers } from '../agents';

export interface ScreenPrompt {
  /** `<agent>/<rule id>` of the waiting rule that recognised it, or `<agent>/unrecognised-dialog`
   *  (no answers: its keys are unknown, a person answers in the terminal). */
  rule: string;
  detail: 'permission' | 'question';
  /** The prompt's rows as shown, blank and pure-animation rows left out. */
  text: string;
  fingerprint: string;
  /** The answers whose keys mean what they say on this screen right now. */
  answers: PromptAnswer[];
  /** The rows of the screen the prompt was read from (where a typed answer finds its option). */
  screenRows: string;
}

/** Rows of a boxed dialog carry its frame: `│ text │` reads as ` text` (indentation inside the box kept). */
const BOX_FRAME = /^[\s│┃║]*[│┃║]|[\s│┃║]+$/gu;
/**
 * A row that is only frame: a box's top or bottom edge, a rule — any box-drawing or block
 * character (solid, dashed `╌`, double, rounded). Rules span the terminal's width, so a resize
 * changes them: they are neither shown nor part of the fingerprint.
 */
const FRAME_ROW = /^[\s\u2500-\u259F]*$/u;
const FINGERPRINT_HEX_CHARS = 16;
/**
 * A numbered menu option (`❯ 1. Yes`, `3. No, … (Esc to stop)`) is part of the prompt even when it
 * names a key the progress model reads as a busy hint (`Esc to stop`).
 */
const MENU_OPTION = /^\s*(?:[❯›●]\s*)?\d+\.\s+\S/u;

/** The prompt on this screen, or undefined when no waiting rule matches it. */
export function readScreenPrompt(screen: ScreenLike, title: string, rules: RuleSet, answers: PromptAnswers): ScreenPrompt | undefined {
  const cls = classify(screen, title, { rules, now: 0 });
  // Blocked states (login, limit, …) show the CLI's line, not a prompt to answer.
  if (cls.primary !== 'waiting' || (cls.detail !== 'permission' && cls.detail !== 'question')) return undefined;
  const reader = new RegionReader(toSnapshot(screen, title));
  const rows = promptRowsOf(cls.reason, cls.fallback === UNRECOGNISED_DIALOG, reader, rules);
  if (!rows) return undefined;
  const shown: string[] = [];
  const meaningful: string[] = [];
  for (const raw of rows) {
    const unframed = raw.replace(BOX_FRAME, '');
    const row = meaningfulRow(raw, rules.progressNormalizers) ?? (MENU_OPTION.test(unframed) ? unframed.trim() : undefined);
    if (row === undefined || FRAME_ROW.test(raw)) continue;
    meaningful.push(row);
    shown.push(unframed);
  }
  const ruleId = cls.reason.slice(cls.reason.indexOf('/') + 1);
  const screenRows = reader.lines.join('\n');
  return {
    rule: cls.reason,
    detail: cls.detail,
    text: dedent(shown).join('\n'),
    fingerprint: fingerprintOf(cls.reason, meaningful),
    answers: (answers[ruleId] ?? []).filter((a) => a.selected === undefined || a.selected.test(screenRows)),
    screenRows,
  };
}

/** The prompt's rows: the rule's prompt layout or region, or an unrecognised dialog's own rows. */
function promptRowsOf(reason: string, isUnrecognised: boolean, reader: RegionReader, rules: RuleSet): readonly string[] | undefined {
  if (isUnrecognised) return readUnknownDialog(reader.lines);
  const winner = rules.rules.find((r) => r.key === reason);
  if (!winner) return undefined;
  return (winner.prompt && promptRows(reader.lines, winner.prompt)) ?? reader.read(winner.region);
}

/** The rows without the indentation they share (the prompt's place on the screen), options still indented under their question. */
function dedent(rows: readonly string[]): string[] {
  const indent = Math.min(...rows.map((r) => r.length - r.trimStart().length));
  return rows.map((r) => r.slice(indent));
}

/**
 * The prompt's identity, not its layout: the words in order, whitespace and line breaks folded, so
 * the same dialog re-wrapped by a resize (its pane shown, the window narrowed) keeps its fingerprint
 * and an answer chosen before the redraw still reaches it.
 */
function fingerprintOf(rule: string, rows: readonly string[]): string {
  const words = rows.join(' ').replace(/\s+/g, ' ').trim();
  return createHash('sha256').update(rule).update('\n').update(words).digest('hex').slice(0, FINGERPRINT_HEX_CHARS);
}
