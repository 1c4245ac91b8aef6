/**
 * How each agent CLI takes an answer to the prompts its status rules recognise (the attention
 * inbox, docs/ui.md). Keyed by preset id, then by the id of the waiting rule that recognised the
 * prompt. `keys` are written to the agent's terminal as they are; `selected`, when present, must
 * match a row of the screen before they are sent (Enter confirms whatever option the menu
 * cursor is on, so it only means "Yes" while the cursor is on Yes).
 */
import type { PromptChoiceKind } from '../../../shared/inbox';

export interface PromptAnswer {
  choice: PromptChoiceKind;
  label: string;
  keys: string;
  /** A row that must be on screen for `keys` to mean this choice (the highlighted option). */
  selected?: RegExp;
  /** Where the keys were proven: a recording, a live test, or "screen hint, unverified". */
  source: string;
  /**
   * The answer is typed text: the cursor moves `down` from the option it is on (`cursor`, its
   * number in group 1) to the free-text option (`field`, its number in group 1), then the text is
   * typed as a user turn (echo-wait, then Enter). `keys` are not used.
   */
  text?: { cursor: RegExp; field: RegExp; down: string };
}

export type PromptAnswers = Readonly<Record<string, readonly PromptAnswer[]>>;

const ENTER = '\r';
const ESCAPE = '\x1b';
const DOWN = '\x1b[B';

const CLAUDE: PromptAnswers = {
  'permission-prompt': [
    {
      choice: 'approve',
      label: 'Yes',
      keys: ENTER,
      selected: /^\s*❯ 1\. Yes\s*$/mu,
      // 2.1.332 inserts "3. Yes, and switch to auto mode" before "4. No": option 1 is still plain Yes.
      source:
        'Claude Code 2.1.332 (options 1. Yes, 2. Yes, and don’t ask again, 3. Yes, and switch to auto mode, 4. No), recordings/claude/dev-permission-yes.cast (action permission_yes); 2.1.197, recordings/claude/2.1.197/dev-permission-yes.cast @ 12.99 s; test/inbox live',
    },
    {
      choice: 'deny',
      label: 'No',
      keys: ESCAPE,
      source:
        'Claude Code 2.1.332 "Esc to cancel · Tab to amend", recordings/claude/dev-permission-no.cast (action permission_no, no request follows); 2.1.197, the dialog footer "Esc to cancel"; test/inbox live (the tool does not run)',
    },
  ],
  'plan-approval': [
    {
      choice: 'approve',
      label: 'Yes',
      keys: ENTER,
      selected: /^\s*❯ 1\. Yes/mu,
      source: 'Claude Code 2.1.197 strings; unverified on screen',
    },
    { choice: 'deny', label: 'Keep planning', keys: ESCAPE, source: 'Claude Code 2.1.197 strings; unverified on screen' },
  ],
  'plan-exit': [
    {
      choice: 'approve',
      label: 'Yes',
      keys: ENTER,
      selected: /^\s*❯ 1\. Yes/mu,
      source:
        'Claude Code 2.1.332, recordings/claude/dev-plan-approval.cast: "❯ 1. Yes, and switch to default (ask each time) for this session" selected; unverified',
    },
    {
      choice: 'deny',
      label: 'No',
      keys: ESCAPE,
      source: 'Claude Code 2.1.332, recordings/claude/dev-plan-approval.cast (action plan_no: Escape, no request follows)',
    },
  ],
  'trust-dialog': [
    {
      choice: 'answer',
      label: 'Yes, I trust this folder',
      keys: ENTER,
      // 2.1.332 selects "No, exit" first (Enter would quit): Enter is offered only while Yes is selected.
      selected: /^\s*❯ (?:1\. )?Yes, I trust this folder/mu,
      source:
        'Claude Code 2.1.332, recordings/claude/dev-trust-dialog.cast (Down onto the unnumbered "Yes, I trust this folder", then Enter: action trust_yes); 2.1.197, recordings/claude/2.1.197/dev-trust-dialog.cast @ 6.0 s',
    },
  ],
  // Manual mode's start-up offer; its options carry no numbers and Enter confirms the highlighted one.
  'auto-mode-offer': [
    {
      choice: 'approve',
      label: 'Yes, make auto mode the default',
      keys: ENTER,
      selected: /^\s*❯ Yes, set auto mode as my default/mu,
      source:
        'Claude Code 2.1.332, recordings/claude/dev-permission-no.cast @ 5.0 s ("❯ Yes, set auto mode as my default permission mode" selected first); unverified',
    },
    {
      choice: 'deny',
      label: 'No, keep manual mode',
      keys: ESCAPE,
      source:
        'Claude Code 2.1.332, recordings/claude/dev-permission-no.cast and dev-permission-yes.cast (action decline_auto_mode: Escape, manual mode stays)',
    },
  ],
  // Auto mode through a gateway that does not pass its server-side check: the waiting call is held.
  'auto-mode-check-unreachable': [
    {
      choice: 'approve',
      label: 'Stay in auto mode (approve each checked action yourself)',
      keys: ENTER,
      source:
        'Claude Code 2.1.332, the dialog\'s hint "Enter to stay in auto mode"; recordings/claude/dev-auto-mode-gateway.cast; test/inbox/claudeAutoModeAnswers.test.ts (the call\'s own dialog follows)',
    },
    {
      choice: 'deny',
      label: 'Cancel',
      keys: ESCAPE,
      source: 'Claude Code 2.1.332, recordings/claude/dev-auto-mode-gateway.cast (action permission_no: Escape, no request follows)',
    },
  ],
  // Unnumbered No / Yes, "No" selected first: Yes is Down then Enter from No, Enter on Yes.
  'unnumbered-permission': [
    {
      choice: 'approve',
      label: 'Yes',
      keys: DOWN + ENTER,
      selected: /^\s*❯ No\s*$/mu,
      source: 'Claude Code 2.1.332, test/inbox/claudeAutoModeAnswers.test.ts (Down, Enter: the call runs)',
    },
    {
      choice: 'approve',
      label: 'Yes',
      keys: ENTER,
      selected: /^\s*❯ Yes\s*$/mu,
      source: 'Claude Code 2.1.332, test/inbox/claudeAutoModeAnswers.test.ts (Down onto Yes, then Enter: the call runs)',
    },
    {
      choice: 'deny',
      label: 'No',
      keys: ESCAPE,
      source: 'Claude Code 2.1.332 "Esc to cancel · Tab to amend"; test/inbox/claudeAutoModeAnswers.test.ts (the call does not run)',
    },
  ],
  'ask-user-question': [
    {
      choice: 'answer',
      label: 'Answer',
      keys: '',
      text: { cursor: /^\s*❯ (\d+)\. /mu, field: /^\s*(?:❯ )?(\d+)\. Type something\./mu, down: '\x1b[B' },
      source:
        'Claude Code 2.1.197, live (e2e/inbox.spec.ts): ↓ to "Type something.", the typed text shows in its place, Enter sends it as the tool result',
    },
    { choice: 'deny', label: 'Cancel', keys: ESCAPE, source: 'Claude Code 2.1.197, menu footer "Esc to cancel"; unverified' },
  ],
};

const CODEX: PromptAnswers = {
  'approval-request': [
    {
      choice: 'approve',
      label: 'Yes, proceed',
      keys: 'y',
      source:
        'Codex 0.169.0 and 0.171.0 (the same rows), the menu row "1. Yes, proceed (y)"; recordings/codex/0.169.0/codex-permission-yes.cast @ 11.87 s (action permission_yes); live (test/status/codexApproval.test.ts): `y` runs the escalated command and its output reaches the model',
    },
    {
      choice: 'deny',
      label: 'No',
      keys: ESCAPE,
      source:
        'Codex 0.169.0 and 0.171.0 (the same rows), the menu row "3. No, and tell Codex what to do differently (esc)"; recordings/codex/0.169.0/codex-permission-no.cast @ 11.89 s (action permission_no); live (test/status/codexApproval.test.ts): Escape ends the turn, the command never runs',
    },
  ],
  question: [
    {
      choice: 'answer',
      label: 'Choose option 1',
      keys: ENTER,
      selected: /^\s*› 1\. /mu,
      source:
        'Codex 0.169.0 and 0.171.0 (the same menu), recordings/codex/0.169.0/codex-question.cast @ 11.45 s and recordings/codex/codex-question.cast (action answer_question: Enter on "› 1. 3000 (Recommended)")',
    },
  ],
  // Digits pick an option at once (Enter confirms the highlighted one, option 1: switch).
  'rate-limit-switch-model': [
    {
      choice: 'approve',
      label: 'Switch to the lower-cost model',
      keys: '1',
      source:
        'Codex CLI 0.171.0, observed (test/fixtures/openai harness, 2026-11-28): `1` closes the offer and the model line reads "GPT-6-Luna medium fast"',
    },
    {
      choice: 'deny',
      label: 'Keep current model',
      keys: '2',
      source:
        'Codex CLI 0.171.0, live (test/status/codexBlocked.test.ts): `2` closes the offer, the model stays and the limit reads again (Escape keeps it too)',
    },
  ],
};

const GEMINI: PromptAnswers = {
  'tool-confirmation': [
    {
      choice: 'approve',
      label: 'Allow once',
      keys: ENTER,
      selected: /^[│\s]*● 1\. Allow once/mu,
      source: 'Gemini CLI 0.61.0, recordings/gemini/gemini-permission-yes.cast @ 30.52 s (action permission_yes)',
    },
    {
      choice: 'deny',
      label: 'No',
      keys: ESCAPE,
      source: 'Gemini CLI 0.61.0, recordings/gemini/gemini-permission-no.cast @ 28.75 s (action permission_no)',
    },
  ],
  'ask-user-question': [
    {
      choice: 'answer',
      label: 'Choose option 1',
      keys: ENTER,
      selected: /^[│\s]*● 1\.\s/mu,
      source: 'Gemini CLI 0.61.0, recordings/gemini/gemini-question.cast @ 13.82 s (action answer: Enter on "● 1.  Yes")',
    },
  ],
};

const QWEN: PromptAnswers = {
  'ask-user-question': [
    {
      choice: 'answer',
      label: 'Choose option 1',
      keys: ENTER,
      selected: /^\s*❯ 1\. /mu,
      source: 'Qwen Code 0.24.4, recordings/qwen/qwen-question.cast @ 60.46 s (action answer_question: Enter on "❯ 1. 3000")',
    },
  ],
  'tool-confirmation': [
    {
      choice: 'approve',
      label: 'Yes, allow once',
      keys: ENTER,
      selected: /^\s*› 1\. Yes, allow once/mu,
      source: 'Qwen Code 0.24.4, recordings/qwen/qwen-permission-yes.cast @ 59.3 s (Enter on the first option)',
    },
    {
      choice: 'deny',
      label: 'No',
      keys: ESCAPE,
      source: 'Qwen Code 0.24.4, recordings/qwen/qwen-permission-no.cast @ 59.26 s (Escape)',
    },
  ],
};

const COPILOT: PromptAnswers = {
  'permission-prompt': [
    {
      choice: 'approve',
      label: 'Yes',
      keys: ENTER,
      selected: /^│ ❯ 1\. Yes\s*│$/mu,
      source:
        'GitHub Copilot CLI 1.0.102, recordings/copilot/copilot-permission-yes.cast @ 12.52 s (action permission_yes: Enter on "❯ 1. Yes")',
    },
    {
      choice: 'deny',
      label: 'No',
      keys: ESCAPE,
      source:
        'GitHub Copilot CLI 1.0.102, recordings/copilot/copilot-permission-no.cast @ 12.78 s (Escape: the call is aborted, the turn ends)',
    },
  ],
  'ask-user': [
    {
      choice: 'answer',
      label: 'Accept the highlighted option',
      keys: ENTER,
      source:
        'GitHub Copilot CLI 1.0.102, recordings/copilot/copilot-question.cast @ 12.03 s (action answer_question: Enter on "❯ 3000"; the tool result reads "User responded: 3000")',
    },
    {
      choice: 'deny',
      label: 'Cancel',
      keys: ESCAPE,
      source: 'GitHub Copilot CLI 1.0.102, the form\'s key hints "esc cancel"; screen hint, unverified',
    },
  ],
  'folder-trust': [
    {
      choice: 'answer',
      label: 'Yes',
      keys: ENTER,
      selected: /^│ ❯ 1\. Yes\s*│$/mu,
      source:
        'GitHub Copilot CLI 1.0.102, live (test/status/copilotLive.test.ts): Enter on "❯ 1. Yes" trusts the folder for the session, the composer is drawn and a turn runs',
    },
    {
      choice: 'deny',
      label: 'No',
      keys: ESCAPE,
      source: 'GitHub Copilot CLI 1.0.102, the menu row "3. No (Esc)"; screen hint, unverified',
    },
  ],
};

const BY_PRESET: Readonly<Record<string, PromptAnswers>> = { claude: CLAUDE, codex: CODEX, gemini: GEMINI, qwen: QWEN, copilot: COPILOT };

/** The answers a preset knows (none for presets whose prompts were never seen). */
export function promptAnswersFor(presetId: string): PromptAnswers {
  return BY_PRESET[presetId] ?? {};
}
