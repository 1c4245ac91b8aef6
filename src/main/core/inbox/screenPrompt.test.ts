/**
 * The inbox reads prompts and sends keys that the recordings prove: replaying each real CLI
 * recording up to the keystroke that answered its prompt, the prompt is read, the recorded key is
 * the one the preset declares for that answer, and after the answer the prompt is gone.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptAnswersFor, resolvePreset } from '../agents';
import { ScreenModel } from '../sessions';
import { readScreenPrompt, type ScreenPrompt } from './screenPrompt';
import { recordingsRoot, loadRecording } from '../status';

interface Case {
  preset: string;
  recording: string;
  /** The `action:` marker of the answering keystroke. */
  action: string;
  choice: 'approve' | 'deny' | 'answer';
  rule: string;
}

const CASES: Case[] = [
  { preset: 'claude', recording: 'dev-permission-yes', action: 'permission_yes', choice: 'approve', rule: 'claude/permission-prompt' },
  { preset: 'claude', recording: 'dev-trust-dialog', action: 'trust_yes', choice: 'answer', rule: 'claude/trust-dialog' },
  { preset: 'gemini', recording: 'gemini-permission-yes', action: 'permission_yes', choice: 'approve', rule: 'gemini/tool-confirmation' },
  { preset: 'gemini', recording: 'gemini-permission-no', action: 'permission_no', choice: 'deny', rule: 'gemini/tool-confirmation' },
  { preset: 'qwen', recording: 'qwen-permission-yes', action: 'permission_yes', choice: 'approve', rule: 'qwen/tool-confirmation' },
  { preset: 'qwen', recording: 'qwen-permission-no', action: 'permission_no', choice: 'deny', rule: 'qwen/tool-confirmation' },
];

/** Feeds a recording's output into the real ScreenModel until `untilMs` (exclusive). */
async function screenAt(preset: string, recording: string, untilMs: number): Promise<ScreenModel> {
  const rec = loadRecording(recording, path.join(recordingsRoot(), preset));
  const screen = new ScreenModel({ cols: rec.header.width, rows: rec.header.height });
  let offset = 0;
  for (const e of rec.events) {
    if (e.ms >= untilMs) break;
    if (e.type !== 'o') continue;
    const data = Buffer.from(e.data, 'utf8');
    offset += data.length;
    screen.write(data, offset);
  }
  await screen.flush();
  return screen;
}

function actionOf(c: Case): { ms: number; keys: string } {
  const rec = loadRecording(c.recording, path.join(recordingsRoot(), c.preset));
  const i = rec.events.findIndex((e) => e.type === 'm' && e.data === `action:${c.action}`);
  if (i < 0) throw new Error(`${c.recording}: no action:${c.action} marker`);
  const key = rec.events
    .slice(0, i)
    .reverse()
    .find((e) => e.type === 'i' && e.ms === rec.events[i].ms);
  if (!key) throw new Error(`${c.recording}: no keystroke at the action marker`);
  return { ms: rec.events[i].ms, keys: key.data };
}

function promptOf(preset: string, screen: ScreenModel): ScreenPrompt | undefined {
  return readScreenPrompt(screen, screen.title, resolvePreset(preset).rules, promptAnswersFor(preset));
}

describe('inbox prompts on the real CLIs’ recordings', () => {
  for (const c of CASES) {
    it(`${c.recording}: reads the prompt and declares the recorded ${c.action} key`, async () => {
      const action = actionOf(c);
      const before = await screenAt(c.preset, c.recording, action.ms);
      const prompt = promptOf(c.preset, before);
      expect(prompt, before.getVisibleLines().join('\n')).toBeDefined();
      expect(prompt!.rule).toBe(c.rule);
      expect(prompt!.text.length).toBeGreaterThan(10);
      const answer = prompt!.answers.find((a) => a.choice === c.choice);
      expect(answer?.keys).toBe(action.keys);
      before.dispose();

      const after = await screenAt(c.preset, c.recording, action.ms + 3_000);
      expect(promptOf(c.preset, after)?.fingerprint).not.toBe(prompt!.fingerprint);
      after.dispose();
    });
  }

  it('keeps one fingerprint while the spinner of a waiting prompt turns (Qwen redraws it every frame)', async () => {
    const c = CASES.find((x) => x.recording === 'qwen-permission-yes')!;
    const action = actionOf(c);
    const fingerprints = new Set<string>();
    for (const back of [2_500, 1_500, 500, 100]) {
      const screen = await screenAt(c.preset, c.recording, action.ms - back);
      const prompt = promptOf(c.preset, screen);
      expect(prompt).toBeDefined();
      fingerprints.add(prompt!.fingerprint);
      screen.dispose();
    }
    expect(fingerprints.size).toBe(1);
  });

  it('offers Enter-means-Yes only while the menu cursor is on Yes', () => {
    const rules = resolvePreset('claude').rules;
    const HR = '─'.repeat(120);
    const dialog = (cursorOnNo: boolean) => [
      '● Bash(rm -rf build)',
      HR,
      ' Bash command',
      '   rm -rf build',
      ' Do you want to proceed?',
      cursorOnNo ? '   1. Yes' : ' ❯ 1. Yes',
      '   2. Yes, and don’t ask again for: rm *',
      cursorOnNo ? ' ❯ 3. No' : '   3. No',
      ' Esc to cancel · Tab to amend',
    ];
    const onYes = readScreenPrompt(dialog(false), '', rules, promptAnswersFor('claude'))!;
    expect(onYes.answers.map((a) => a.choice)).toEqual(['approve', 'deny']);
    expect(onYes.text).toContain('rm -rf build');
    const onNo = readScreenPrompt(dialog(true), '', rules, promptAnswersFor('claude'));
    // The claude permission rule needs "❯ 1. Yes" on screen: with the cursor elsewhere it is not even read as the dialog.
    expect(onNo?.answers.some((a) => a.choice === 'approve') ?? false).toBe(false);
  });
});
