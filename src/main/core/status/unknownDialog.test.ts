/**
 * Unknown dialogs are never idle (docs/agent-status.md): the real dialogs of every CLI — the
 * waiting rules' samples and the recorded sessions — read `waiting` with their own rules switched
 * off, and no idle prompt, busy screen or streamed answer reads as a dialog.
 */
import { isBlockedDetail } from '../../../shared/status';
import { describe, expect, it } from 'vitest';
import { resolvePreset } from '../agents';
import { classify, UNRECOGNISED_DIALOG } from './classifier';
import { isReportRegion } from './regions';
import type { RuleSet, StatusRule } from './ruleSchema';
import { BUILTIN_RULE_SETS } from './rules';
import { isInToleranceWindow, loadRecording, truthAt } from './replay/asciicast';
import { isCandidateSet, listRecordingSets, recordingSetLabel } from './replay/recordingSets';
import { replayRecording } from './replay/replayRecording';
import { DIALOG_CUES, readUnknownDialog } from './unknownDialog';

const rows = (text: string) => text.split('\n');
/** The rule set without its waiting rules: every dialog is one the rules never saw. */
const withoutWaitingRules = (set: RuleSet): RuleSet => ({ ...set, rules: set.rules.filter((r) => r.implies.primary !== 'waiting') });
const ruleSets = [...BUILTIN_RULE_SETS.values()];
const screenRules = (predicate: (r: StatusRule) => boolean) =>
  ruleSets.flatMap((set) => set.rules.filter((r) => !isReportRegion(r.region) && predicate(r)).map((r) => [r.key, r, set] as const));

describe('unknown dialogs', () => {
  it.each(DIALOG_CUES.map((c) => [c.id, c] as const))('cue %s finds a dialog in its own sample', (_id, cue) => {
    const sample = rows(cue.sample);
    const hits = sample.filter((row, i) => cue.row.test(cue.withNextRow ? `${row}\n${sample[i + 1] ?? ''}` : row));
    expect(hits.length).toBeGreaterThanOrEqual(cue.minRows);
    expect(readUnknownDialog(rows(cue.sample))).toBeDefined();
  });

  // Blocked states (login, limit, …) are the CLI's error line under an idle prompt, not dialogs,
  // unless the CLI draws a dialog of its own for them (the rule then locates it: `prompt`).
  it.each(screenRules((r) => r.implies.primary === 'waiting' && (!isBlockedDetail(r.implies.detail) || r.prompt !== undefined)))(
    '%s: its dialog reads waiting as an unrecognised dialog with the waiting rules off',
    (_key, rule, set) => {
      const cls = classify(rows(rule.sample), rule.sampleTitle ?? '', { rules: withoutWaitingRules(set), now: 0 });
      expect([cls.primary, cls.detail, cls.reason]).toEqual(['waiting', 'question', `${set.agent}/${UNRECOGNISED_DIALOG}`]);
    },
  );

  it.each(screenRules((r) => isBlockedDetail(r.implies.detail) && r.prompt === undefined))(
    '%s: a blocked screen is no dialog',
    (_key, rule, set) => {
      const cls = classify(rows(rule.sample), rule.sampleTitle ?? '', { rules: withoutWaitingRules(set), now: 0 });
      expect(cls.fallback).not.toBe(UNRECOGNISED_DIALOG);
    },
  );

  it.each(screenRules((r) => r.implies.primary !== 'waiting'))(
    '%s: its sample and look-alikes (idle prompts, busy screens, answers) are no dialog',
    (_key, rule, set) => {
      for (const [i, sample] of [rule.sample, ...(rule.lookalikes ?? []).map((l) => l.sample)].entries()) {
        const cls = classify(rows(sample), i === 0 ? (rule.sampleTitle ?? '') : '', { rules: set, now: 0 });
        expect(cls.fallback, `sample ${i}`).not.toBe(UNRECOGNISED_DIALOG);
      }
    },
  );

  it('keeps the dialog from the rule above its first option to its key hints', () => {
    const claude = BUILTIN_RULE_SETS.get('claude')!;
    const trust = claude.rules.find((r) => r.id === 'trust-dialog')!;
    const dialog = readUnknownDialog(rows(trust.sample))!;
    expect(dialog[0]).toBe(' Accessing workspace:');
    expect(dialog.at(-1)).toBe(' Enter to confirm · Esc to cancel');
    expect(dialog).toContain(' ❯ 1. Yes, I trust this folder');
  });

  it('an idle title under an unknown dialog is no idle prompt (Claude Code shows ✳ during its dialogs)', () => {
    const claude = BUILTIN_RULE_SETS.get('claude')!;
    const permission = claude.rules.find((r) => r.id === 'permission-prompt')!;
    const cls = classify(rows(permission.sample), '✳ Claude Code', { rules: withoutWaitingRules(claude), now: 0 });
    expect(cls.reason).toBe(`claude/${UNRECOGNISED_DIALOG}`);
    // Without a dialog on screen the title hint still decides.
    expect(classify(['some text the rules do not know'], '✳ Claude Code', { rules: claude, now: 0 }).reason).toBe('claude/title-idle');
  });
});

describe('recorded sessions with every waiting rule switched off', () => {
  // A newer CLI version's set awaiting the pin is held to "no missed prompt" only (recordings.test.ts).
  const sets = listRecordingSets().filter((set) => !isCandidateSet(set, resolvePreset(set.cli).npmPackage));
  it.each(sets.map((s) => [recordingSetLabel(s), s] as const))(
    '%s: every recorded dialog still reads waiting, and nothing else does',
    async (_cli, set) => {
      const preset = resolvePreset(set.cli);
      const profile = { ...preset, rules: withoutWaitingRules(preset.rules) };
      const wrong: string[] = [];
      let dialogs = 0;
      for (const name of set.names) {
        const recording = loadRecording(name, set.dir);
        // Screen only: a hook saying "waiting" would hide what the screen reads.
        const replay = await replayRecording(recording, profile);
        for (const { ms, status } of replay.samples) {
          const truth = truthAt(recording.truth, ms);
          if (!truth || truth.primary === 'starting' || isInToleranceWindow(recording.truth, ms)) continue;
          // A blocked agent's line (signed out, at its limit) is read by its own rule, and is no dialog (above).
          if (isBlockedDetail(truth.detail)) continue;
          if (truth.primary === 'waiting') dialogs++;
          if ((truth.primary === 'waiting') !== (status.primary === 'waiting')) {
            wrong.push(`${name} @ ${ms} ms: truth ${truth.primary}, got ${status.primary} (${status.reason})`);
          }
        }
      }
      expect(wrong).toEqual([]);
      if (set.names.some((n) => /permission|question|trust/.test(n))) expect(dialogs).toBeGreaterThan(0);
    },
    120_000,
  );
});
