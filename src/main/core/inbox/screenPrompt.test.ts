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
import { recordingsRoot, loadRecording, promptRows, ruleSetFor } from '../status';
import { isBlockedDetail } from '../../../shared/status';

interface Case {
  preset: string;
  /** The recording's folder under the recordings root when not the preset's pinned set (`claude/2.1.197`). */
  set?: string;
  recording: string;
  /** The `action:` marker of the answering keystroke. */
  action: string;
  choice: 'approve' | 'deny' | 'answer';
  rule: string;
}

const CASES: Case[] = [
  { preset: 'claude', recording: 'dev-permission-yes', action: 'permission_yes', choice: 'approve', rule: 'claude/permission-prompt' },
  { preset: 'claude', recording: 'dev-permission-no', action: 'permission_no', choice: 'deny', rule: 'claude/permission-prompt' },
  { preset: 'claude', recording: 'dev-trust-dialog', action: 'trust_yes', choice: 'answer', rule: 'claude/trust-dialog' },
  { preset: 'claude', recording: 'dev-permission-no', action: 'decline_auto_mode', choice: 'deny', rule: 'claude/auto-mode-offer' },
  {
    preset: 'claude',
    recording: 'dev-auto-mode-gateway',
    action: 'permission_no',
    choice: 'deny',
    rule: 'claude/auto-mode-check-unreachable',
  },
  { preset: 'claude', recording: 'dev-plan-approval', action: 'plan_no', choice: 'deny', rule: 'claude/plan-exit' },
  {
    preset: 'claude',
    set: 'claude/2.1.197',
    recording: 'dev-permission-yes',
    action: 'permission_yes',
    choice: 'approve',
    rule: 'claude/permission-prompt',
  },
  {
    preset: 'claude',
    set: 'claude/2.1.197',
    recording: 'dev-trust-dialog',
    action: 'trust_yes',
    choice: 'answer',
    rule: 'claude/trust-dialog',
  },
  { preset: 'gemini', recording: 'gemini-permission-yes', action: 'permission_yes', choice: 'approve', rule: 'gemini/tool-confirmation' },
  { preset: 'gemini', recording: 'gemini-permission-no', action: 'permission_no', choice: 'deny', rule: 'gemini/tool-confirmation' },
  { preset: 'qwen', recording: 'qwen-permission-yes', action: 'permission_yes', choice: 'approve', rule: 'qwen/tool-confirmation' },
  { preset: 'qwen', recording: 'qwen-permission-no', action: 'permission_no', choice: 'deny', rule: 'qwen/tool-confirmation' },
  { preset: 'gemini', recording: 'gemini-question', action: 'answer', choice: 'answer', rule: 'gemini/ask-user-question' },
  { preset: 'qwen', recording: 'qwen-question', action: 'answer_question', choice: 'answer', rule: 'qwen/ask-user-question' },
  { preset: 'codex', recording: 'codex-permission-yes', action: 'permission_yes', choice: 'approve', rule: 'codex/approval-request' },
  { preset: 'codex', recording: 'codex-permission-no', action: 'permission_no', choice: 'deny', rule: 'codex/approval-request' },
  { preset: 'codex', recording: 'codex-question', action: 'answer_question', choice: 'answer', rule: 'codex/question' },
  {
    preset: 'copilot',
    recording: 'copilot-permission-yes',
    action: 'permission_yes',
    choice: 'approve',
    rule: 'copilot/permission-prompt',
  },
  { preset: 'copilot', recording: 'copilot-permission-no', action: 'permission_no', choice: 'deny', rule: 'copilot/permission-prompt' },
  { preset: 'copilot', recording: 'copilot-question', action: 'answer_question', choice: 'answer', rule: 'copilot/ask-user' },
];

const setDir = (c: { preset: string; set?: string }) => path.join(recordingsRoot(), c.set ?? c.preset);

/** Feeds a recording's output into the real ScreenModel until `untilMs` (exclusive). */
async function screenAt(c: { preset: string; set?: string }, recording: string, untilMs: number): Promise<ScreenModel> {
  const rec = loadRecording(recording, setDir(c));
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
  const rec = loadRecording(c.recording, setDir(c));
  const i = rec.events.findIndex((e) => e.type === 'm' && e.data === `action:${c.action}`);
  if (i < 0) throw new Error(`${c.recording}: no action:${c.action} marker`);
  const key = rec.events
    .slice(0, i)
    .reverse()
    .find((e) => e.type === 'i' && e.ms === rec.events[i].ms);
  if (!key) throw new Error(`${c.recording}: no keystroke at the action marker`);
  return { ms: rec.events[i].ms, keys: key.data };
}

/** The screen just before the recording's (first, or first `detail`) waiting interval ends (the person answers). */
async function waitingScreenOf(c: TextCase): Promise<ScreenModel> {
  const rec = loadRecording(c.recording, setDir(c));
  const waiting = rec.truth.intervals.find((i) => i.primary === 'waiting' && (!c.detail || i.detail === c.detail));
  if (!waiting) throw new Error(`${c.recording}: no waiting interval in its truth`);
  return screenAt(c, c.recording, waiting.end_ms - WAITING_END_MARGIN_MS);
}

/** Far enough before the answer that its keystroke's redraw is not on screen yet. */
const WAITING_END_MARGIN_MS = 100;

interface TextCase {
  preset: string;
  set?: string;
  recording: string;
  /** The waiting interval's detail, where the recording has more than one (2.1.332's start-up offer, then the permission). */
  detail?: 'permission' | 'question';
  /** The question (or the request) and what it is about. */
  asks: string[];
  options: string[];
  /** Banner, transcript and key-hint rows on the same screen. */
  notShown: string[];
}

const GEMINI_PERMISSION = {
  asks: ['Allow execution of [Shell]?', 'sleep 2 && echo posted'],
  options: ['1. Allow once', '2. Allow for this session', '3. No, suggest changes (esc)'],
  notShown: ['Gemini CLI v0.61.0', 'Tips for getting started', 'Post the data with a shell command', 'I will post it.'],
};
const QWEN_PERMISSION = {
  asks: ["Allow execution of: 'curl'?", 'curl -X POST http://127.0.0.1:9/deploy'],
  options: ['1. Yes, allow once', "2. Always allow run 'curl *' commands in this project", '4. No, suggest changes (esc)'],
  notShown: ['Qwen Code (v0.24.4)', 'Tips: Add a QWEN.md', 'Trigger the deploy hook', 'Waiting for user confirmation'],
};
const OPENCODE_PERMISSION = {
  asks: ['Permission required', '# Shell command', '$ curl -X POST http://127.0.0.1:9/deploy'],
  options: ['Allow once   Allow always   Reject'],
  notShown: ['Trigger the deploy hook', 'Build · Switchboard Mock'],
};

const CODEX_PERMISSION = {
  asks: ['Would you like to run the following command?', 'Reason: Post the deploy hook', '$ curl -X POST http://127.0.0.1:9/deploy'],
  options: ['› 1. Yes, proceed (y)', '3. No, and tell Codex what to do differently (esc)'],
  notShown: ['OpenAI Codex (v0.171.0)', 'Trigger the deploy hook', 'Press enter to confirm or esc to cancel'],
};
const COPILOT_PERMISSION = {
  asks: ['Post the deploy hook', 'touch deploy-requested.flag', 'Do you want to run this command?'],
  options: [
    '❯ 1. Yes',
    "2. Yes, and don't ask again for `touch` in this repo (~/project)",
    '3. No, and tell Copilot what to do differently (Esc to stop)',
  ],
  notShown: ['Copilot v1.0.102 uses AI.', 'Trigger the deploy hook', 'enter to select'],
};

const CLAUDE_TRUST_ASKS = ['Accessing workspace:', 'Is this a project you created or one you trust?'];

const TEXT_CASES: TextCase[] = [
  { preset: 'copilot', recording: 'copilot-permission-yes', ...COPILOT_PERMISSION },
  { preset: 'copilot', recording: 'copilot-permission-no', ...COPILOT_PERMISSION },
  {
    preset: 'copilot',
    recording: 'copilot-question',
    asks: ['Copilot needs information.', 'Which port should the dev server use?', 'Port:'],
    options: ['❯ 3000', '8080', 'Other (type your answer)'],
    notShown: ['Set up the dev server', 'Asking user Waiting for response', 'enter accept'],
  },
  {
    preset: 'claude',
    set: 'claude/2.1.197',
    recording: 'dev-permission-yes',
    asks: ['Do you want to proceed?', 'curl -X POST http://127.0.0.1:9/upload -d @secrets.txt', 'Upload the secrets file'],
    options: ['❯ 1. Yes', '2. Yes, and don’t ask again for: curl *', '3. No'],
    notShown: [
      'Claude Code v2.1.197',
      'Welcome back!',
      'Tips for getting started',
      'Upload secrets.txt to the staging endpoint.',
      'Esc to cancel',
    ],
  },
  {
    preset: 'claude',
    set: 'claude/2.1.197',
    recording: 'dev-trust-dialog',
    asks: CLAUDE_TRUST_ASKS,
    options: ['❯ 1. Yes, I trust this folder', '2. No, exit'],
    notShown: ['Enter to confirm · Esc to cancel'],
  },
  {
    preset: 'claude',
    recording: 'dev-permission-yes',
    detail: 'permission',
    asks: ['Bash command', 'Post the deploy hook', 'curl -X POST http://127.0.0.1:9/deploy', 'Do you want to proceed?'],
    options: ['❯ 1. Yes', '2. Yes, and don’t ask again for: curl *', '3. Yes, and switch to auto mode', '4. No'],
    notShown: ['Claude Code v2.1.332', 'Trigger the deploy hook', 'Esc to cancel · Tab to amend'],
  },
  {
    preset: 'claude',
    recording: 'dev-trust-dialog',
    asks: CLAUDE_TRUST_ASKS,
    options: ['❯ No, exit', 'Yes, I trust this folder'],
    notShown: ['Enter to confirm · Esc to cancel'],
  },
  {
    preset: 'claude',
    recording: 'dev-ask-question',
    asks: ['Which port should the dev server use?'],
    options: ['❯ 1. 3000', '2. 8080', '3. Type something.'],
    notShown: ['Claude Code v2.1.332', 'Set up the dev server', 'Enter to select'],
  },
  { preset: 'gemini', recording: 'gemini-permission-yes', ...GEMINI_PERMISSION },
  { preset: 'gemini', recording: 'gemini-permission-no', ...GEMINI_PERMISSION },
  {
    preset: 'gemini',
    recording: 'gemini-question',
    asks: ['Should I use the staging database?'],
    options: ['1.  Yes', '2.  No', '3.  Enter a custom value'],
    notShown: ['Gemini CLI v0.61.0', 'Tips for getting started', 'Set up the database', 'One question first.', 'Enter to select'],
  },
  { preset: 'qwen', recording: 'qwen-permission-yes', ...QWEN_PERMISSION },
  { preset: 'qwen', recording: 'qwen-permission-no', ...QWEN_PERMISSION },
  {
    preset: 'qwen',
    recording: 'qwen-question',
    asks: ['Which port should the dev server use?'],
    options: ['❯ 1. 3000', '2. 8080', '3. Type something...'],
    notShown: ['Qwen Code (v0.24.4)', 'Set up the dev server', 'Waiting for user confirmation', 'Navigate'],
  },
  { preset: 'codex', recording: 'codex-permission-yes', ...CODEX_PERMISSION },
  { preset: 'codex', recording: 'codex-permission-no', ...CODEX_PERMISSION },
  {
    preset: 'codex',
    recording: 'codex-question',
    asks: ['Question 1/1 (1 unanswered)', 'Which port should the dev server use?'],
    options: ['› 1. 3000 (Recommended)  The default port.', '2. 8080', '3. None of the above'],
    notShown: ['OpenAI Codex (v0.171.0)', 'Set up the dev server', 'enter to submit answer'],
  },
  { preset: 'opencode', recording: 'opencode-permission-yes', ...OPENCODE_PERMISSION },
  { preset: 'opencode', recording: 'opencode-permission-no', ...OPENCODE_PERMISSION },
  {
    preset: 'opencode',
    recording: 'opencode-question',
    asks: ['Which port should the dev server use?'],
    options: ['1. 3000', '2. 8080', '3. Type your own answer'],
    notShown: ['Set up the dev server', 'Asked 1 question', 'Build · Switchboard Mock', 'esc dismiss'],
  },
];

/** Presets whose screen waiting rules must each say where their prompt is. */
const PRESETS_WITH_PROMPT_LAYOUTS = ['claude', 'codex', 'gemini', 'qwen', 'opencode', 'copilot'];

function promptOf(preset: string, screen: ScreenModel): ScreenPrompt | undefined {
  return readScreenPrompt(screen, screen.title, resolvePreset(preset).rules, promptAnswersFor(preset));
}

describe('what a waiting agent asks, on the real CLIs’ recorded screens', () => {
  for (const c of TEXT_CASES) {
    it(`${c.set ?? c.preset}/${c.recording}: the prompt with its options, no banner or transcript`, async () => {
      const screen = await waitingScreenOf(c);
      const prompt = promptOf(c.preset, screen);
      const shown = screen.getVisibleLines().join('\n');
      screen.dispose();
      expect(prompt, shown).toBeDefined();
      for (const text of [...c.asks, ...c.options]) expect(prompt!.text).toContain(text);
      // Each left-out row really is on that screen: the test would catch it if the cut were wrong.
      for (const text of c.notShown) {
        expect(shown).toContain(text);
        expect(prompt!.text).not.toContain(text);
      }
    });
  }

  it('keeps the indentation of options under their question, without the screen margin or the box frame', async () => {
    const screen = await waitingScreenOf({ preset: 'gemini', recording: 'gemini-permission-yes', asks: [], options: [], notShown: [] });
    const prompt = promptOf('gemini', screen)!;
    screen.dispose();
    expect(prompt.text.split('\n')).toEqual([
      '? Shell  sleep 2 && echo posted',
      'sleep 2 && echo posted',
      'Allow execution of [Shell]?',
      '● 1. Allow once',
      '  2. Allow for this session',
      '  3. No, suggest changes (esc)',
    ]);
  });

  it.each(PRESETS_WITH_PROMPT_LAYOUTS)('%s: every waiting rule on screen locates its prompt in its own sample', (preset) => {
    // Blocked states (login, limit, …) ask nothing: the inbox shows the CLI's line (blockedReport) instead.
    const waiting = ruleSetFor(preset).rules.filter(
      (r) => r.implies.primary === 'waiting' && !r.region.startsWith('osc_') && !isBlockedDetail(r.implies.detail),
    );
    expect(waiting.length).toBeGreaterThan(0);
    for (const rule of waiting) {
      expect(rule.prompt, `${rule.key} has no prompt layout`).toBeDefined();
      const rows = promptRows(rule.sample.split('\n'), rule.prompt!);
      expect(
        rows?.some((r) => r.trim() !== ''),
        `${rule.key}: no prompt rows in its sample`,
      ).toBe(true);
    }
  });

  it('keeps the fingerprint when the same dialog is re-wrapped by a resize, and changes it when its words change', () => {
    const approval = ruleSetFor('codex').rules.find((r) => r.key === 'codex/approval-request')!;
    const wide = approval.sample.split('\n');
    const at = wide.findIndex((row) => row.includes('$ curl -X POST'));
    const indent = /^\s*/.exec(wide[at])![0];
    const [head, ...tail] = wide[at].trimStart().split(' http');
    const narrow = [...wide.slice(0, at), indent + head, `${indent}http${tail.join(' http')}`, ...wide.slice(at + 1)];
    const read = (rows: string[]) => readScreenPrompt(rows, '', ruleSetFor('codex'), promptAnswersFor('codex'))!;
    expect(read(narrow).text).not.toBe(read(wide).text);
    expect(read(narrow).fingerprint).toBe(read(wide).fingerprint);
    // A dashed rule (Claude Code 2.1.332 draws one above and below the command) spans the width.
    const ruled = (rows: string[], width: number) => [...rows.slice(0, at), indent + '╌'.repeat(width), ...rows.slice(at)];
    expect(read(ruled(wide, 100)).fingerprint).toBe(read(ruled(narrow, 50)).fingerprint);
    expect(read(ruled(wide, 100)).text).not.toContain('╌');
    const other = wide.map((row) => row.replace('/deploy', '/delete'));
    expect(read(other).fingerprint).not.toBe(read(wide).fingerprint);
  });

  it('codex: the approval request without the transcript above it (its rule sample under a transcript)', () => {
    const approval = ruleSetFor('codex').rules.find((r) => r.key === 'codex/approval-request')!;
    const screen = ['› Post the data to the local endpoint', '', '• I will post it.', '', ...approval.sample.split('\n')];
    const prompt = readScreenPrompt(screen, '', ruleSetFor('codex'), promptAnswersFor('codex'))!;
    expect(prompt.text.split('\n')[0].trim()).toBe('Would you like to run the following command?');
    expect(prompt.text).toContain('$ curl -X POST http://127.0.0.1:9/deploy');
    expect(prompt.text).toContain('3. No, and tell Codex what to do differently (esc)');
    expect(prompt.text).not.toContain('I will post it.');
    expect(prompt.text).not.toContain('Press enter to confirm');
  });
});

describe('inbox prompts on the real CLIs’ recordings', () => {
  for (const c of CASES) {
    it(`${c.set ?? c.preset}/${c.recording}: reads the prompt and declares the recorded ${c.action} key`, async () => {
      const action = actionOf(c);
      const before = await screenAt(c, c.recording, action.ms);
      const prompt = promptOf(c.preset, before);
      expect(prompt, before.getVisibleLines().join('\n')).toBeDefined();
      expect(prompt!.rule).toBe(c.rule);
      expect(prompt!.text.length).toBeGreaterThan(10);
      const answer = prompt!.answers.find((a) => a.choice === c.choice);
      expect(answer?.keys).toBe(action.keys);
      before.dispose();

      const after = await screenAt(c, c.recording, action.ms + 3_000);
      expect(promptOf(c.preset, after)?.fingerprint).not.toBe(prompt!.fingerprint);
      after.dispose();
    });
  }

  it('keeps one fingerprint while the spinner of a waiting prompt turns (Qwen redraws it every frame)', async () => {
    const c = CASES.find((x) => x.recording === 'qwen-permission-yes')!;
    const action = actionOf(c);
    const fingerprints = new Set<string>();
    for (const back of [2_500, 1_500, 500, 100]) {
      const screen = await screenAt(c, c.recording, action.ms - back);
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
