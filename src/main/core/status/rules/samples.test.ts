/**
 * Provenance of the rule samples: a rule whose `source` names a recording must have its `sample`
 * on a screen of that recording — its non-blank rows, in order and unchanged, on one frame, or,
 * for window-title rules, as a title the recording set. A recording that was replaced without
 * re-cutting its rules fails here, naming the rule.
 */
import { describe, expect, it } from 'vitest';
import { ScreenModel } from '../../sessions';
import { loadRecording, type Recording } from '../replay/asciicast';
import { listRecordingSets } from '../replay/recordingSets';
import type { StatusRule } from '../ruleSchema';
import { BUILTIN_RULE_SETS } from './index';

interface RecordingRef {
  dir: string;
  name: string;
}

/** What a recording showed: every distinct frame (visible rows), every window title and every state it reported (OSC 7501). */
interface Shown {
  frames: string[][];
  titles: Set<string>;
  states: Set<string>;
}

const ALL_RECORDINGS: RecordingRef[] = listRecordingSets().flatMap((set) => set.names.map((name) => ({ dir: set.dir, name })));

/** The recordings a source names (a recording's name as a whole word: `gemini-question`, `dev-plain-qa.cast`). */
function recordingsNamedBy(source: string): RecordingRef[] {
  return ALL_RECORDINGS.filter((r) => new RegExp(`(?<![\\w-])${r.name}(?![\\w-])`, 'u').test(source));
}

const shownCache = new Map<string, Promise<Shown>>();

function shownBy(ref: RecordingRef): Promise<Shown> {
  const key = `${ref.dir}/${ref.name}`;
  let shown = shownCache.get(key);
  if (!shown) {
    shown = replayFrames(loadRecording(ref.name, ref.dir));
    shownCache.set(key, shown);
  }
  return shown;
}

async function replayFrames(recording: Recording): Promise<Shown> {
  const screen = new ScreenModel({ cols: recording.header.width, rows: recording.header.height });
  const frames: string[][] = [];
  const titles = new Set<string>();
  const states = new Set<string>();
  let offset = 0;
  try {
    for (const event of recording.events) {
      if (event.type !== 'o') continue;
      const data = Buffer.from(event.data, 'utf8');
      offset += data.length;
      screen.write(data, offset);
      await screen.flush();
      frames.push(screen.getVisibleLines().map(asRuleRow));
      titles.add(screen.title.trimEnd());
      states.add(screen.agentState);
    }
  } finally {
    screen.dispose();
  }
  return { frames, titles, states };
}

/** A screen row as the rules read it (regions.ts): NBSP as a space, right-trimmed. */
function asRuleRow(line: string): string {
  return line.replace(/\u00a0/gu, ' ').trimEnd();
}

function sampleShown(rule: StatusRule, shown: Shown): boolean {
  if (rule.region === 'osc_title') return shown.titles.has(rule.sample.trimEnd());
  if (rule.region === 'osc_state') return shown.states.has(rule.sample);
  if (rule.sampleTitle !== undefined && !shown.titles.has(rule.sampleTitle.trimEnd())) return false;
  if (rule.sampleState !== undefined && !shown.states.has(rule.sampleState)) return false;
  const rows = rule.sample
    .split('\n')
    .map((row) => row.trimEnd())
    .filter((row) => row !== '');
  return shown.frames.some((frame) => containsInOrder(frame, rows));
}

/** Samples are crops: the rows a rule reads, blank rows and unrelated rows between them left out, each row unchanged. */
function containsInOrder(frame: string[], rows: string[]): boolean {
  let at = 0;
  for (const row of rows) {
    while (at < frame.length && frame[at] !== row) at++;
    if (at === frame.length) return false;
    at++;
  }
  return true;
}

/** For the failure message: the sample rows that no frame shows at all. */
function closest(rule: StatusRule, shown: Shown[]): string {
  if (rule.region === 'osc_title') return `titles: ${JSON.stringify(shown.flatMap((s) => [...s.titles]))}`;
  if (rule.region === 'osc_state') return `states: ${JSON.stringify(shown.flatMap((s) => [...s.states]))}`;
  const rows = rule.sample.split('\n').map((row) => row.trimEnd());
  const never = rows.filter((row) => row !== '' && !shown.some((s) => s.frames.some((frame) => frame.includes(row))));
  return `rows never shown: ${JSON.stringify(never)}`;
}

const CITING_RULES = [...BUILTIN_RULE_SETS.values()].flatMap((set) =>
  set.rules.map((rule) => ({ key: rule.key, rule, refs: recordingsNamedBy(rule.source) })).filter((r) => r.refs.length > 0),
);

describe('rule samples come from the recordings their source names', () => {
  it('finds rules that cite recordings', () => {
    expect(CITING_RULES.length).toBeGreaterThan(10);
  });

  it.each(CITING_RULES.map((r) => [r.key, r] as const))('%s', async (_key, { rule, refs }) => {
    const shown = await Promise.all(refs.map(shownBy));
    const where = refs.map((r) => r.name).join(', ');
    expect(
      shown.some((s) => sampleShown(rule, s)),
      `sample of ${rule.key} not on any screen of ${where}; ${closest(rule, shown)}`,
    ).toBe(true);
  });
});
