/**
 * A synthetic API stall for any rule set: each of its busy screens (the `sample` of every screen
 * rule implying `active`) is redrawn for 30 s with nothing but animation on it — the spinner glyph
 * cycles, the counters keep counting, a verb rotates, an elapsed-time suffix appears after 4 s and
 * grows tokens and a key hint after 9 s, tips come and go. None of that is progress, so the tracker
 * must call the screen `stuck` at the threshold after the stall began.
 *
 * A decoration that would change what the screen classifies as (a verb that IS the rule, a row that
 * pushes the rule's region) is not animation of that screen and is left out for it.
 */
import type { AgentPrimary } from '../../../../shared/status';
import { classify } from '../classifier';
import { VirtualClock } from '../../base';
import { isReportRegion } from '../regions';
import type { StatusRule } from '../ruleSchema';
import { StatusTracker, type DetectionProfile } from '../statusTracker';
import { ReplaySession } from './replaySession';

const STALL_DURATION_MS = 30_000;
const STALL_FRAME_MS = 200;
const EPOCH = Date.UTC(2025, 0, 1);

const GLYPH_FAMILIES = ['⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏', '·✢✳✶✻✽', '•◦', '◐◓◑◒'];
const VERBS = ['Thundering', 'Pondering', 'Zesting', 'Drizzling'];
const TIPS = ['  ⎿  Tip: Press Esc twice to edit a previous message', '  ⎿  Tip: Use /memory to edit what the agent remembers'];
/** Rows that carry a CLI's busy animation: a spinner, an ellipsis, a counter, a key hint. */
const ANIMATED_ROW = /[\u2800-\u28FF]|…|\.\.\.|\besc\b|ctrl\+c|\(\d+s\b|Waiting for/u;

interface StallProbeResult {
  /** `<agent>/<rule id>` whose sample was stalled. */
  rule: string;
  /** Frames whose classification stayed busy (all of them, for a fair probe). */
  frames: number;
  /** ms after the stall began when the tracker first showed `stuck` (undefined: never). */
  stuckAtMs: number | undefined;
  /** stuckAtMs minus the threshold: how late stuck was called. */
  delayMs: number | undefined;
  /** Statuses shown during the stall, in order, for failure messages. */
  shown: Array<{ ms: number; primary: AgentPrimary; reason: string }>;
}

/**
 * The stall, run once per busy screen rule of the profile; with `retrying`, once per retry rule
 * instead (a CLI waiting out its own back-off is never stuck).
 */
export async function probeLateCounterStalls(profile: DetectionProfile, which: 'busy' | 'retrying' = 'busy'): Promise<StallProbeResult[]> {
  const busyRules = profile.rules.rules.filter(
    (r) => r.implies.primary === 'active' && !isReportRegion(r.region) && (r.implies.detail === 'retrying') === (which === 'retrying'),
  );
  const results: StallProbeResult[] = [];
  for (const rule of busyRules) results.push(await probeStall(profile, rule));
  return results;
}

async function probeStall(profile: DetectionProfile, rule: StatusRule): Promise<StallProbeResult> {
  const base = rule.sample.split('\n');
  const cols = Math.max(80, ...base.map((l) => l.length)) + 60;
  const rows = Math.max(24, base.length + TIPS.length + 4);
  const clock = new VirtualClock(EPOCH);
  const session = new ReplaySession(cols, rows);
  // Start-up grace would hide the first seconds of the stall; the probe is about stuck alone.
  const tracker = new StatusTracker(session, profile, { clock, startupGraceMs: 0 });
  const shown: StallProbeResult['shown'] = [];
  tracker.onDidChangeStatus((s) => shown.push({ ms: clock.now() - EPOCH, primary: s.primary, reason: s.reason }));
  let frames = 0;
  try {
    session.start(clock.now());
    for (let ms = 0; ms <= STALL_DURATION_MS; ms += STALL_FRAME_MS) {
      clock.advanceTo(EPOCH + ms);
      const lines = animatedFrame(base, ms, profile, cols, rule.sampleTitle ?? '');
      await session.write(titleSequence(rule.sampleTitle) + '\x1b[H\x1b[2J' + lines.join('\r\n'));
      frames++;
    }
    clock.advanceTo(EPOCH + STALL_DURATION_MS + STALL_FRAME_MS);
  } finally {
    tracker.dispose();
    session.dispose();
  }
  const stuckAtMs = shown.find((s) => s.primary === 'stuck')?.ms;
  return {
    rule: rule.key,
    frames,
    stuckAtMs,
    delayMs: stuckAtMs === undefined ? undefined : stuckAtMs - profile.thresholds.stuckThresholdMs,
    shown,
  };
}

/** The sample's own title (OSC 0), for a rule that reads it; nothing for the others. */
function titleSequence(title: string | undefined): string {
  return title === undefined ? '' : `\x1b]0;${title}\x07`;
}

/** The sample at `ms` into the stall, with every decoration that keeps it busy. */
function animatedFrame(base: string[], ms: number, profile: DetectionProfile, cols: number, title: string): string[] {
  const row = base.findIndex((l) => ANIMATED_ROW.test(l));
  if (row < 0) return base;
  const seconds = Math.floor(ms / 1000);
  const decorations: Array<(lines: string[]) => string[]> = [
    (lines) => replaceRow(lines, row, cycleGlyph(lines[row], Math.floor(ms / STALL_FRAME_MS))),
    (lines) => replaceRow(lines, row, lines[row].replace(/\b\d+s\b/gu, `${seconds}s`)),
    (lines) => replaceRow(lines, row, lines[row].replace(/\b[A-Z][a-z]+(?=…|\.\.\.)/u, VERBS[Math.floor(ms / 3_000) % VERBS.length])),
    (lines) => (seconds >= 4 ? replaceRow(lines, row, `${lines[row]} (${seconds}s${lateSuffix(seconds)})`) : lines),
    (lines) => (seconds >= 6 && seconds % 8 < 5 ? insertRow(lines, row + 1, TIPS[Math.floor(seconds / 8) % TIPS.length]) : lines),
  ];
  const stalled = ruleOf(base, title, profile);
  let lines = base;
  for (const decorate of decorations) {
    const next = decorate(lines);
    if (next !== lines && ruleOf(next, title, profile) === stalled && next.every((l) => l.length <= cols)) lines = next;
  }
  return lines;
}

function lateSuffix(seconds: number): string {
  return seconds >= 9 ? ` · ↓ ${(1 + seconds / 10).toFixed(1)}k tokens · esc to interrupt` : '';
}

function cycleGlyph(line: string, frame: number): string {
  const m = /^(\s*)(\S)/u.exec(line);
  if (!m) return line;
  const family = GLYPH_FAMILIES.find((f) => f.includes(m[2]));
  if (!family) return line;
  const glyphs = [...family];
  return m[1] + glyphs[frame % glyphs.length] + line.slice(m[0].length);
}

/** The rule a screen classifies by: a decoration that changes it (a verb that IS the rule) is not animation of that screen. */
function ruleOf(lines: string[], title: string, profile: DetectionProfile): string {
  return classify(lines, title, { rules: profile.rules, now: 0 }).reason;
}

function replaceRow(lines: string[], index: number, row: string): string[] {
  return row === lines[index] ? lines : lines.map((l, i) => (i === index ? row : l));
}

function insertRow(lines: string[], index: number, row: string): string[] {
  return [...lines.slice(0, index), row, ...lines.slice(index)];
}
