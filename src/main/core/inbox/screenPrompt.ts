/**
 * Reads the prompt a waiting agent shows: the waiting rule that recognises it, the text of the
 * region that rule reads, and a fingerprint of that text. Animation (spinner glyphs, elapsed
 * time) is left out of the fingerprint so a prompt stays the same prompt while its spinner turns;
 * a different prompt (another command, another question) gets another fingerprint.
 */
import { createHash } from 'node:crypto';
import { classify, meaningfulRow, RegionReader, toSnapshot, type RuleSet, type ScreenLike } from '../status';
import type { PromptAnswer, PromptAnswers } from '../agents';

export interface ScreenPrompt {
  /** `<agent>/<rule id>` of the waiting rule that recognised it. */
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

/** Rows of a boxed dialog carry its frame: `│ text │` reads as `text`. */
const BOX_FRAME = /^[\s│┃║]+|[\s│┃║]+$/gu;
const FINGERPRINT_HEX_CHARS = 16;

/** The prompt on this screen, or undefined when no waiting rule matches it. */
export function readScreenPrompt(screen: ScreenLike, title: string, rules: RuleSet, answers: PromptAnswers): ScreenPrompt | undefined {
  const cls = classify(screen, title, { rules, now: 0 });
  if (cls.primary !== 'waiting' || cls.detail === null) return undefined;
  const winner = cls.evaluated.find((e) => e.rule === cls.reason);
  if (!winner) return undefined;
  const reader = new RegionReader(toSnapshot(screen, title));
  const shown: string[] = [];
  const meaningful: string[] = [];
  for (const raw of reader.read(winner.region)) {
    const row = meaningfulRow(raw, rules.progressNormalizers);
    if (row === undefined) continue;
    meaningful.push(row);
    shown.push(raw.replace(BOX_FRAME, ''));
  }
  const ruleId = cls.reason.slice(cls.reason.indexOf('/') + 1);
  const rows = reader.lines.join('\n');
  return {
    rule: cls.reason,
    detail: cls.detail as 'permission' | 'question',
    text: shown.join('\n'),
    fingerprint: fingerprintOf(cls.reason, meaningful),
    answers: (answers[ruleId] ?? []).filter((a) => a.selected === undefined || a.selected.test(rows)),
    screenRows: rows,
  };
}

function fingerprintOf(rule: string, rows: readonly string[]): string {
  return createHash('sha256').update(rule).update('\n').update(rows.join('\n')).digest('hex').slice(0, FINGERPRINT_HEX_CHARS);
}
