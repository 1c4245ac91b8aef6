/**
 * Claude Code status rules. Verified on Claude Code 2.1.332 (npm @anthropic-ai/claude-code; samples
 * from test/fixtures/recordings/claude) and still on 2.1.197 (recordings/claude/2.1.197), samples
 * cut unchanged (rows right-trimmed, 120x40, TERM=xterm-256color).
 *
 * Screen anatomy in 2.1.x, bottom up: a status bar (`esc to interrupt` busy; idle, 2.1.197 shows
 * `? for shortcuts` and 2.1.332 the permission mode, `⏵⏵ auto mode on` / `⏸ manual mode on`;
 * hidden while text is typed), so idleness rests on the prompt box: `❯ …` between two full-width
 * `─` rules. Above it the transcript: user turns `❯ …`, assistant text `● …`, tool calls `● Bash(…)` with
 * `⎿` result rows, and while busy a spinner row `<glyph> <Verb>… (12s · ↓ 20 tokens)`. Dialogs
 * (permission, trust) replace the prompt box: one rule, then the dialog. The window title is
 * `<spinner> Claude Code` while busy (braille in 2.1.197, ◐ ◑ in 2.1.332) and `✳ Claude Code` when not — including during a
 * permission prompt, so title rules sit below every screen rule.
 */
import type { RuleSetInput } from '../ruleSchema';

const REC = 'recordings/claude/2.1.197/dev-';
const CLI = 'Claude Code 2.1.197';
const REC332 = 'recordings/claude/dev-';
const CLI332 = 'Claude Code 2.1.332';
/** A full-width rule of the 120-column recordings. */
const HR = '─'.repeat(120);
/** Spinner frames seen in 2.1.197: · ✢ * ✶ ✻ ✽ (✳ also appears in the cycle of 2.0.x). */
const SPIN = '[·✢✳✶✻✽*]';
/** The spinner row: glyph, a verb ending in "…", optional counters. "✻ Worked for 5s" (turn
 *  summary, no ellipsis) is not a spinner row. */
const SPINNER_ROW = `${SPIN} \\S[^\\n]*…`;
/** A tool call heading: `Bash(`, `Read(`, `Update(`, `switchboard - whoami (MCP)(`. */
const TOOL_HEAD = `[\\w.-]+(?: - [^(\\n]+ \\(MCP\\))?\\(`;
/** Rows that may follow a block's first row until the region ends: blank, indented
 *  (continuation, `⎿` results) or the spinner row. Anchored at the end of the region, so the
 *  block it follows is the LAST block above the prompt box. */
const REST_OF_LAST_BLOCK = `(?:\\n(?:| [^\\n]*|${SPINNER_ROW}[^\\n]*))*$`;

/** 2.1.332's row in the spinner's place while a call waits for its dialog (permission or question). */
const WAITING_FOR_PERMISSION = /^\s*Waiting for permission…\s*$/u;

/** The last block above the prompt box is the user's turn (`❯ …`): nothing of the answer yet. */
const LAST_BLOCK_IS_USER_TURN = new RegExp(`(?:^|\\n)❯ [^\\n]*${REST_OF_LAST_BLOCK}`, 'u');

/** A dialog starts below the full-width rule that replaced the prompt box. */
const DIALOG_TOP = /^─{20,}$/u;

const STATUS_BAR_BUSY = { region: 'after_last_horizontal_rule', contains: 'esc to interrupt' };

/**
 * The turn ended on the CLI's own error line: `error` (a regex source) is the last block above the
 * prompt box — a `⎿` row under the user's turn or an `● API Error: …` block, its wrapped rows,
 * then the turn summary (`✻ Cogitated for 2s`). A later turn pushes it up and the rule lets go.
 */
const endsOnError = (error: string) =>
  new RegExp(`(?:^|\\n)(?:  ⎿[ \\u00a0]+|● API Error: )${error}[^\\n]*(?:\\n(?:|  [^\\n]*|${SPIN} \\S+ for [^\\n]*))*$`, 'u');
/** The error line itself, for the status's message (the `⎿` or `●` and wrapped rows left out). */
const errorLine = (error: string) => new RegExp(`^(?:  ⎿[ \\u00a0]+|● )(?<message>(?:API Error: )?${error}[^\\n]*)`, 'mu');

/** Region, match and report of a rule for a turn that ended on `error` (the turn is over: no busy status bar). */
const turnEndedOn = (error: string) => ({
  region: 'above_prompt_box(6)',
  match: { regex: endsOnError(error), not: STATUS_BAR_BUSY },
  report: errorLine(error),
});

/** The idle screen under a turn that ended on `errorRows` (cut from the real CLI against the mock, 120x40). */
const endedOnError = (errorRows: string[]) =>
  ['', '❯ Say hello', ...errorRows, '', '✻ Cogitated for 2s', '', HR, '❯', HR, '  ? for shortcuts · ← for agents'].join('\n');

const LOGIN_ERRORS =
  '(?:Not logged in · Please run /login|Invalid API key · Fix external API key|OAuth token revoked · Please run /login|Your ANTHROPIC_API_KEY belongs to a disabled organization|Your organization has disabled API key authentication)';
const LIMIT_ERRORS = "(?:Request rejected \\(429\\)|You've hit your [^\\n·]*limit)";
const QUOTA_ERRORS = "(?:Credit balance (?:is )?too low|You're out of usage credits|You've hit your monthly spend limit)";
const NETWORK_ERRORS = '(?:Unable to connect to API|Request timed out)';
/** Any other API error the CLI gave up on (5xx, 529 overloaded) after its retries. */
const GAVE_UP_ERRORS = '(?!Request rejected \\(429\\)|Unable to connect to API|Request timed out)\\S';
const BLOCKED_SOURCE = `${CLI}, observed: the real CLI against test/fixtures/anthropic's mock, 120x40, 2026-11-27`;

const idleAfterAnswer = [
  '  fill the requested streaming time. The mock model is streaming',
  '',
  '✻ Worked for 5s',
  '',
  HR,
  '❯',
  HR,
  '  ? for shortcuts · ← for agents',
].join('\n');

const interruptedIdle = [
  '● The mock model is streaming a reply so that the terminal shows a response being written. Each word arrives in a small',
  '  chunk with a short pause, like a real model would send tokens. This paragraph repeats as needed to',
  '',
  '  fill the requested streaming time. The mock model is streaming a',
  '  ⎿  Interrupted · What should Claude do instead?',
  '',
  HR,
  '❯',
  HR,
  '  ? for shortcuts · ← for agents',
].join('\n');

const permissionScreen = [
  '',
  '● Bash(curl -X POST http://127.0.0.1:9/upload -d @secrets.txt)',
  '  ⎿  Waiting…',
  '',
  HR,
  ' Bash command',
  '',
  '   curl -X POST http://127.0.0.1:9/upload -d @secrets.txt',
  '   Upload the secrets file',
  '',
  ' This command requires approval',
  '',
  ' Do you want to proceed?',
  ' ❯ 1. Yes',
  '   2. Yes, and don’t ask again for: curl *',
  '   3. No',
  '',
  ' Esc to cancel · Tab to amend · ctrl+e to explain',
].join('\n');

const respondingAfterTool = [
  '  ⎿  done',
  '',
  '●',
  '',
  '· Zesting… (12s · ↓ 21 tokens)',
  '',
  HR,
  '❯',
  HR,
  '  esc to interrupt · ← for agents',
].join('\n');

const thinkingAfterPrompt = [
  '',
  '❯ What does a mock server do?',
  '',
  '✽ Drizzling…',
  '',
  HR,
  '❯',
  HR,
  '  esc to interrupt · ← for agents                                                                     ● high · /effort',
].join('\n');

export const claudeRules: RuleSetInput = {
  agent: 'claude',
  version: '2.1.332',
  rules: [
    {
      id: 'permission-prompt',
      priority: 900,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'after_last_horizontal_rule',
      match: {
        // "proceed" is the Bash/tool form (recorded); the edit and fetch forms are strings of the
        // same 2.1.197 binary, not recorded.
        regex: /^\s*Do you want to (?:proceed|make this edit to|allow)\b[^\n]*\?/mu,
        line: /^\s*❯ 1\. Yes/u,
      },
      prompt: { anchor: /^\s*Do you want to (?:proceed|make this edit to|allow)\b/u, top: DIALOG_TOP, omit: [/^\s*Esc to cancel\b/u] },
      sample: permissionScreen,
      lookalikes: [
        {
          sample: ['● Sure. Do you want to proceed? Reply yes or no.', '', HR, '❯ 1. Yes', HR, '  ? for shortcuts'].join('\n'),
          why: 'the phrase in the transcript and "1. Yes" typed into the prompt box are not a dialog',
        },
      ],
      source: `${CLI}, ${REC}permission-yes.cast @ 8000 ms`,
    },
    {
      id: 'auto-mode-check-unreachable',
      priority: 895,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'after_last_horizontal_rule',
      // Auto mode (2.1.332's default) checks a risky call on the server; through a gateway that
      // does not pass the check, Claude Code asks what to do with the waiting call instead.
      match: { contains: "Auto mode can't check actions", line: /^\s*Enter to \S[^\n]*·\s*Esc to cancel\s*$/u },
      prompt: { anchor: /Auto mode can't check actions/u, top: DIALOG_TOP },
      sample: [
        HR,
        "  Auto mode can't check actions in this session",
        "  Auto mode's safety check runs on the server. Your requests go through 127.0.0.1:46297, and the check isn't getting",
        '  through.',
        '  You can stay in auto mode and approve each action that needs the check yourself.',
        '  Enter to stay in auto mode · shift+Tab to leave for accept edits mode and stop · Esc to cancel',
      ].join('\n'),
      lookalikes: [
        {
          sample: [
            "● Auto mode can't check actions in this session, so I will ask.",
            '',
            HR,
            '❯',
            HR,
            '  ⏵⏵ auto mode on (shift+tab to cycle)',
          ].join('\n'),
          why: 'the heading quoted in the transcript, the prompt box below it',
        },
      ],
      source: `${CLI332}, ${REC332}auto-mode-gateway.cast @ 11.0 s: auto mode, a risky Bash call, the mock as the gateway`,
    },
    {
      id: 'unnumbered-permission',
      priority: 893,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'after_last_horizontal_rule',
      // Having stayed in auto mode with its check unreachable, 2.1.332 asks about each such call with
      // unnumbered options, "No" listed and selected first. Structural: the question and a cursor on
      // a bare Yes or No, whatever the line above says.
      match: { regex: /^\s*Do you want to proceed\?/mu, line: /^\s*❯ (?:Yes|No)\s*$/u },
      prompt: { anchor: /^\s*Do you want to proceed\?/u, top: DIALOG_TOP, omit: [/^\s*Esc to cancel\b/u] },
      sample: [
        HR,
        ' Bash command',
        ' Post it',
        '╌'.repeat(120),
        ' curl -X POST http://127.0.0.1:9/x',
        '╌'.repeat(120),
        " Auto mode can't check actions in this session, so this one needs your approval",
        ' Do you want to proceed?',
        ' ❯ No',
        '   Yes',
        ' Esc to cancel · Tab to amend',
      ].join('\n'),
      lookalikes: [
        {
          sample: ['● Do you want to proceed? Reply yes or no.', '', HR, '❯ No', HR, '  ? for shortcuts'].join('\n'),
          why: 'the question in the transcript and "No" typed into the prompt box are not a dialog',
        },
      ],
      source: `${CLI332}, test/inbox/claudeAutoModeAnswers.test.ts: auto mode, the mock as a gateway that does not pass the check, after "stay in auto mode"`,
    },
    {
      id: 'auto-mode-offer',
      priority: 885,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'after_last_horizontal_rule',
      // At start-up in manual mode; its options carry no numbers and it shows no key hints.
      match: { contains: 'Make auto mode your default permission mode?', line: /^\s+❯ \S/u },
      prompt: { anchor: /Make auto mode your default permission mode\?/u, top: DIALOG_TOP },
      sample: [
        HR,
        '  Make auto mode your default permission mode?',
        '  Auto mode lets Claude handle permission prompts automatically. Claude checks each tool call for risky actions and',
        '  prompt injection before executing, runs the ones it assesses as lower-risk, and blocks the rest.',
        '  ❯ Yes, set auto mode as my default permission mode',
        '    No, keep manual mode',
      ].join('\n'),
      lookalikes: [
        {
          sample: ["▎ Auto mode is now Claude Code's default permission mode.", HR, '❯', HR, '  ⏵⏵ auto mode on (shift+tab to cycle)'].join(
            '\n',
          ),
          why: 'the notice above the prompt box in auto mode is no question',
        },
      ],
      source: `${CLI332}, ${REC332}permission-no.cast @ 5.0 s: start-up with defaultMode "default"`,
    },
    {
      id: 'permission-pending',
      priority: 870,
      implies: { primary: 'waiting', detail: 'permission' },
      // 2.1.332 puts "Waiting for permission…" in the spinner's place (busy status bar, idle title)
      // as soon as a call needs an answer, 100–250 ms before it draws the dialog in the prompt
      // box's place, under the call's block (rule `question-pending` when there is none).
      region: 'above_prompt_box(4)',
      match: { line: WAITING_FOR_PERMISSION },
      // Until the dialog is drawn, the call it is about.
      prompt: { anchor: WAITING_FOR_PERMISSION, top: /^● /u },
      sample: [
        '● Posting the deploy hook',
        '  ⎿  $ curl -X POST http://127.0.0.1:9/deploy',
        '',
        '  Waiting for permission…',
        HR,
        '❯',
        HR,
        '  ⏸ manual mode on · esc to interrupt',
      ].join('\n'),
      lookalikes: [
        {
          sample: ['● The hook said "Waiting for permission…" twice.', '', HR, '❯', HR, '  ⏸ manual mode on'].join('\n'),
          why: 'the phrase inside an answer is not the row',
        },
      ],
      source: `${CLI332}, ${REC332}permission-no.cast @ 12.2 s (drawn 141 ms after the stream ended, the dialog at 12.38 s)`,
    },
    {
      id: 'question-pending',
      priority: 875,
      implies: { primary: 'waiting', detail: 'question' },
      // AskUserQuestion draws no call block: the row comes right under the user's turn. Neither does
      // ExitPlanMode, so in plan mode the row stays a permission (a question there reads as one
      // once its menu is drawn).
      region: 'above_prompt_box',
      match: {
        regex: LAST_BLOCK_IS_USER_TURN,
        line: WAITING_FOR_PERMISSION,
        not: { region: 'after_last_horizontal_rule', contains: 'plan mode on' },
      },
      // Until the menu is drawn, the turn that asked.
      prompt: { anchor: WAITING_FOR_PERMISSION, top: /^❯ /u, omit: [/^\s*$/u, /\/effort\s*$/u] },
      sample: [
        '❯ Set up the dev server',
        '                                                                                                    ◐ medium · /effort',
        '  Waiting for permission…',
        HR,
        '❯',
        HR,
        '  ⏵⏵ auto mode on (shift+tab to cycle) · esc to interrupt · ← for agents',
      ].join('\n'),
      lookalikes: [
        {
          sample: [
            '❯ Trigger the deploy hook',
            '● Posting the deploy hook',
            '  ⎿  $ curl -X POST http://127.0.0.1:9/deploy',
            '  Waiting for permission…',
            HR,
            '❯',
            HR,
            '  ⏸ manual mode on · esc to interrupt',
          ].join('\n'),
          why: 'under a call block it is a permission',
        },
        {
          sample: [
            '❯ Plan the dev server set-up',
            '  Waiting for permission…',
            HR,
            '❯',
            HR,
            '  ⏸ plan mode on (shift+tab to cycle) · esc to interrupt · ← for agents',
          ].join('\n'),
          why: `in plan mode it is ExitPlanMode's permission, ${REC332}plan-approval.cast @ 9.3 s`,
        },
      ],
      source: `${CLI332}, ${REC332}ask-question.cast @ 8.1 s (drawn 105 ms after the stream ended, the menu at 8.2 s)`,
    },
    {
      id: 'plan-exit',
      priority: 892,
      implies: { primary: 'waiting', detail: 'permission' },
      // ExitPlanMode with no plan file written: an inset panel under a `▔` edge, its own indented rule.
      region: 'bottom_non_empty_lines(8)',
      // The title on a row of its own, the selected first option a few rows below it.
      match: { regex: /^\s+Exit plan mode\?\s*$(?:\n[^\n]*){1,4}\n\s+❯ 1\. Yes/mu },
      prompt: { anchor: /Exit plan mode\?/u, top: /^\s*─{20,}$/u },
      sample: [
        '❯ Plan the dev server set-up',
        '▔'.repeat(120),
        `  ${'─'.repeat(116)}`,
        '   Exit plan mode?',
        '',
        '   Claude wants to exit plan mode',
        '',
        '   ❯ 1. Yes, and switch to default (ask each time) for this session',
        '     2. No',
      ].join('\n'),
      lookalikes: [
        {
          sample: ['● Exit plan mode? Say yes to go on.', '', HR, '❯ 1. Yes', HR, '  ⏸ plan mode on (shift+tab to cycle)'].join('\n'),
          why: 'the question in an answer and "1. Yes" typed at the prompt are not the dialog',
        },
      ],
      source: `${CLI332}, ${REC332}plan-approval.cast @ 12.0 s: plan mode, an ExitPlanMode call`,
    },
    {
      id: 'plan-approval',
      priority: 890,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'after_last_horizontal_rule',
      match: { contains: 'Would you like to proceed?', line: /^\s*❯ 1\. Yes/u },
      prompt: { anchor: /Would you like to proceed\?/u, top: DIALOG_TOP },
      sample: [
        HR,
        ' Ready to code?',
        '',
        ' Claude has written up a plan and is ready to execute. Would you like to proceed?',
        '',
        ' ❯ 1. Yes, and auto-accept edits',
        '   2. Yes, and manually approve edits',
        '   3. No, keep planning',
      ].join('\n'),
      lookalikes: [
        {
          sample: ['● The plan ends with: Would you like to proceed?', '', HR, '❯ 1. Yes', HR, '  ? for shortcuts'].join('\n'),
          why: 'the question in the transcript and "1. Yes" typed at the prompt are not the dialog',
        },
      ],
      source: `${CLI}: strings of the shipped binary (plan mode exit dialog); from knowledge, unverified on screen`,
    },
    {
      id: 'trust-dialog',
      priority: 880,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'after_last_horizontal_rule',
      // 2.1.197 numbers its options and selects "1. Yes, I trust this folder"; 2.1.332 lists
      // "No, exit" first, unnumbered and selected.
      match: { contains: 'Yes, I trust this folder', line: /^\s*❯ (?:1\. )?(?:Yes, I trust this folder|No, exit)\b/u },
      prompt: { anchor: /^\s*(?:❯ )?(?:1\. )?Yes, I trust this folder/u, top: DIALOG_TOP, omit: [/^\s*Enter to confirm · Esc to cancel/u] },
      sample: [
        HR,
        ' Accessing workspace:',
        '',
        ' /tmp/project-eT8Ssq/repo',
        '',
        ' Quick safety check: Is this a project you created or one you trust? (Like your own code, a well-known open source',
        " project, or work from your team). If not, take a moment to review what's in this folder first.",
        '',
        " Claude Code'll be able to read, edit, and execute files here.",
        '',
        ' Security guide',
        '',
        ' ❯ 1. Yes, I trust this folder',
        '   2. No, exit',
        '',
        ' Enter to confirm · Esc to cancel',
      ].join('\n'),
      lookalikes: [
        {
          sample: ['● Pick "1. Yes, I trust this folder" when asked.', '', HR, '❯', HR, '  ? for shortcuts'].join('\n'),
          why: 'quoting the menu in an answer is not the dialog',
        },
      ],
      source: `${CLI}, ${REC}trust-dialog.cast @ 3000 ms`,
    },
    {
      id: 'ask-user-question',
      priority: 850,
      implies: { primary: 'waiting', detail: 'question' },
      // The menu draws a rule between the typed-answer option and "Chat about this": the region
      // after the last rule would miss the question and the options.
      region: 'bottom_non_empty_lines(20)',
      match: { contains: 'Enter to select', line: /^\s*❯ \d+\. \S/u },
      // From the rule above the question's header to the key hints (the menu's own inner rule,
      // above "Chat about this", lies below the first option).
      prompt: { anchor: /^\s*(?:❯ )?1\. \S/u, top: DIALOG_TOP, bottom: /Enter to select/u, omit: [/Enter to select/u] },
      sample: [
        '❯ Pick a database',
        HR,
        ' ☐ Database ',
        '',
        'Which database should the service use?',
        '',
        '❯ 1. PostgreSQL',
        '     Relational',
        '  2. SQLite',
        '     File',
        '  3. Type something.',
        HR,
        '  4. Chat about this',
        '',
        'Enter to select · ↑/↓ to navigate · Esc to cancel',
      ].join('\n'),
      lookalikes: [{ sample: permissionScreen, why: 'a permission dialog is permission, not a question' }],
      source: `${CLI}: AskUserQuestion menu drawn live against the mock Messages API (e2e/inbox.spec.ts)`,
    },
    {
      id: 'not-logged-in',
      priority: 845,
      implies: { primary: 'waiting', detail: 'login' },
      ...turnEndedOn(LOGIN_ERRORS),
      sample: endedOnError(['  ⎿ \u00a0Not logged in · Please run /login']),
      lookalikes: [
        {
          sample: endedOnError(['', '● Run /login when it says "Not logged in · Please run /login".']),
          why: 'an answer quoting the message is not the error',
        },
        {
          sample: [
            '',
            '❯ Say hello',
            '  ⎿ \u00a0Not logged in · Please run /login',
            '',
            '❯ Try again',
            '',
            '✽ Elucidating…',
            '',
            HR,
            '❯',
            HR,
            '  esc to interrupt · ← for agents',
          ].join('\n'),
          why: 'a later turn runs',
        },
      ],
      source: `${BLOCKED_SOURCE}, no ANTHROPIC_API_KEY; "Invalid API key · Fix external API key" after repeated 401s; the other texts are strings of the binary`,
    },
    {
      id: 'limit-reached',
      priority: 844,
      implies: { primary: 'waiting', detail: 'limit' },
      ...turnEndedOn(LIMIT_ERRORS),
      // A subscriber's `You've hit your session limit · resets 3pm` carries the reset; an API
      // key's `Request rejected (429)` does not (its retry row did).
      report: new RegExp(
        `^(?:  ⎿[ \\u00a0]+|● )(?<message>(?:API Error: )?${LIMIT_ERRORS}[^\\n]*?(?: · resets (?<reset>[^\\n·]+?))?)\\s*$`,
        'mu',
      ),
      sample: endedOnError(['● API Error: Request rejected (429) · rate limited']),
      lookalikes: [{ sample: endedOnError(['● API Error: 529 Overloaded.']), why: 'an overloaded API is not a limit' }],
      source: `${BLOCKED_SOURCE}, 429 with anthropic-ratelimit-unified-status: rejected until the retries ran out; "You've hit your … limit · resets …" from the binary's strings`,
    },
    {
      id: 'credit-exhausted',
      priority: 843,
      implies: { primary: 'waiting', detail: 'quota' },
      ...turnEndedOn(QUOTA_ERRORS),
      sample: endedOnError(['  ⎿ \u00a0Credit balance too low · Add funds: https://platform.claude.com/settings/billing']),
      lookalikes: [
        { sample: endedOnError(['● Your credit balance is too low, the invoice said.']), why: 'an answer about credit is not the error' },
      ],
      source: `${BLOCKED_SOURCE}, 400 "Your credit balance is too low to access the Anthropic API…"`,
    },
    {
      id: 'network-unreachable',
      priority: 842,
      implies: { primary: 'waiting', detail: 'network' },
      ...turnEndedOn(NETWORK_ERRORS),
      sample: endedOnError(['● API Error: Unable to connect to API (ConnectionRefused)']),
      lookalikes: [
        {
          sample: [
            '',
            '❯ Say hello',
            '',
            '✻ Unable to connect to API (ConnectionRefused) · Retrying in 1s · attempt 2/2',
            '',
            HR,
            '❯',
            HR,
            '  esc to interrupt · ← for agents',
          ].join('\n'),
          why: 'still retrying',
        },
      ],
      source: `${BLOCKED_SOURCE}, ANTHROPIC_BASE_URL on a closed port, CLAUDE_CODE_MAX_RETRIES=2`,
    },
    {
      id: 'api-error-gave-up',
      priority: 841,
      implies: { primary: 'waiting', detail: 'api_error' },
      region: 'above_prompt_box(6)',
      match: {
        regex: new RegExp(`(?:^|\\n)● API Error: ${GAVE_UP_ERRORS}[^\\n]*(?:\\n(?:|  [^\\n]*|${SPIN} \\S+ for [^\\n]*))*$`, 'u'),
        not: STATUS_BAR_BUSY,
      },
      report: /^● (?<message>API Error: [^\n]*)/mu,
      sample: endedOnError([
        '● API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment. If it',
        '  persists, check your inference gateway (127.0.0.1:40943).',
      ]),
      lookalikes: [{ sample: endedOnError(['● API Error: Request rejected (429) · rate limited']), why: 'a rate limit is a limit' }],
      source: `${BLOCKED_SOURCE}, 529 until CLAUDE_CODE_MAX_RETRIES=2 ran out`,
    },
    {
      id: 'tool-running',
      priority: 700,
      implies: { primary: 'active', detail: 'using_tools' },
      region: 'above_prompt_box(8)',
      match: { line: /^\s+⎿\s+Running…/u },
      sample: [
        '  Bash(sleep 10 && echo done)',
        '  ⎿  Running… (3s)',
        '     (ctrl+b to run in background)',
        '',
        '* Zesting… (4s · ↓ 20 tokens)',
        '',
        HR,
        '❯',
        HR,
        '  esc to interrupt · ← for agents                                                                     ● high · /effort',
      ].join('\n'),
      lookalikes: [
        {
          sample: [
            '',
            '● Bash(sleep 10 && echo done)',
            '  ⎿  done',
            '',
            '✽ Zesting… (11s · ↓ 20 tokens)',
            '',
            HR,
            '❯',
            HR,
            '  esc to interrupt · ← for agents',
          ].join('\n'),
          why: 'a finished tool (result shown) while the next request runs is thinking',
        },
        { sample: permissionScreen, why: '"Waiting…" under a tool awaiting approval is not running' },
      ],
      source: `${CLI}, ${REC}tool-autorun.cast @ 10050 ms`,
    },
    {
      id: 'tool-running-timer',
      priority: 705,
      implies: { primary: 'active', detail: 'using_tools' },
      region: 'above_prompt_box(8)',
      // 2.1.332 draws a running tool as its description with an elapsed counter (`· 4s`, its dot
      // blinking) over the `⎿  $ command` row; the counter goes when the tool is done.
      match: { regex: /^[● ] \S[^\n]* · \d+[hms](?: ?\d+[hms])*\n {2}⎿ {2}\S/mu },
      sample: [
        '❯ Run the wait command',
        '● Wait, then print done · 2s',
        '  ⎿  $ sleep 6 && echo done',
        '· Gusting… (3s · ↓ 18 tokens)',
      ].join('\n'),
      lookalikes: [
        {
          sample: [
            '❯ Trigger the deploy hook',
            '● Posting the deploy hook',
            '  ⎿  $ curl -X POST http://127.0.0.1:9/deploy',
            '✻ Seasoning…',
          ].join('\n'),
          why: 'a call waiting for its check or answer has no counter',
        },
      ],
      source: `${CLI332}, ${REC332}tool-autorun.cast @ 11.0 s`,
    },
    {
      id: 'responding',
      priority: 650,
      implies: { primary: 'active', detail: 'responding' },
      region: 'above_prompt_box',
      match: {
        // The last block above the prompt box is assistant text (a bullet that is not a tool call).
        // 2.1.332 heads a call with its description, not `Bash(`: a `⎿` row right under it marks it.
        regex: new RegExp(`(?:^|\\n)●(?: (?!${TOOL_HEAD})[^\\n]*)?(?!\\n {2}⎿)${REST_OF_LAST_BLOCK}`, 'u'),
        all: [STATUS_BAR_BUSY],
      },
      sample: respondingAfterTool,
      lookalikes: [
        { sample: interruptedIdle, why: 'an interrupted answer with the idle status bar is idle' },
        { sample: idleAfterAnswer, why: 'a finished answer followed by the turn summary is idle' },
        {
          sample: [
            '',
            '● Bash(sleep 10 && echo done)',
            '  ⎿  done',
            '',
            '✽ Zesting… (11s · ↓ 20 tokens)',
            '',
            HR,
            '❯',
            HR,
            '  esc to interrupt · ← for agents',
          ].join('\n'),
          why: 'a tool call bullet is not assistant text',
        },
        {
          sample: [
            "● Answered Claude's questions:",
            '  ⎿  · Which port should the dev server use? → 3000',
            '',
            '· Transmuting… (1s · ↓ 56 tokens)',
            HR,
            '❯',
            HR,
            '  ⏵⏵ auto mode on (shift+tab to cycle) · esc to interrupt',
          ].join('\n'),
          why: `a ${CLI332} tool call (its description over a ⎿ row), ${REC332}ask-question.cast @ 13.0 s`,
        },
      ],
      source: `${CLI}, ${REC}tool-autorun.cast @ 18300 ms; the spinner row may vanish while the last words stream (${REC}plain-qa.cast @ 10000 ms)`,
    },
    {
      id: 'api-retry',
      priority: 640,
      implies: { primary: 'active', detail: 'retrying' },
      region: 'above_prompt_box(4)',
      // 2.1.332 writes "retrying" in lower case.
      match: { line: /[Rr]etrying in \d+\w*(?: \([^)\n]+\))? · attempt \d+\/\d+/u },
      // `✻ <error> · Retrying in 1s (<reset>) · attempt 1/10`: "API error" until the last attempt,
      // the error itself then or when the network is down, "<Limit> reached" for a rate limit.
      report: new RegExp(
        `^${SPIN} (?<message>[^\\n]*?) · [Rr]etrying in \\d+\\w*(?: \\((?<reset>[^)\\n]+)\\))? · attempt (?<attempt>\\d+)\\/(?<max>\\d+)`,
        'mu',
      ),
      sample: [
        '',
        '✻ API error · Retrying in 1s · attempt 1/10',
        '',
        HR,
        '❯',
        HR,
        '  esc to interrupt · ← for agents                                                                     ● high · /effort',
      ].join('\n'),
      lookalikes: [
        {
          sample: ['● The client logs "Retrying in 1s" after a 529.', '', '✻ Worked for 3s', '', HR, '❯', HR, '  ? for shortcuts'].join(
            '\n',
          ),
          why: 'the words in an answer, without the attempt counter, are not a retry notice',
        },
      ],
      source: `${CLI}, ${REC}api-529-retries.cast @ 5000 ms (529 Overloaded, attempt 1/10); with a rate limit's reset "✻ Session limit reached · Retrying in 1s (10:53pm) · attempt 1/10" (observed against the mock, 2026-11-27)`,
    },
    {
      id: 'compacting',
      priority: 630,
      implies: { primary: 'active', detail: 'compacting' },
      region: 'above_prompt_box(4)',
      match: { line: new RegExp(`^${SPIN} Compacting conversation…`, 'u') },
      sample: ['', '✻ Compacting conversation… (12s)', '', HR, '❯', HR, '  esc to interrupt'].join('\n'),
      lookalikes: [
        {
          sample: ['❯ /compact', '  ⎿  Compacted (ctrl+o to see full summary)', '', HR, '❯', HR, '  ? for shortcuts'].join('\n'),
          why: 'a finished compaction is idle',
        },
      ],
      source: `${CLI}: "Compacting conversation" spinner message of the shipped binary; from knowledge, unverified on screen`,
    },
    {
      id: 'thinking-after-prompt',
      priority: 620,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'above_prompt_box',
      match: {
        // The last block is the user's turn and the spinner runs: the request is in flight.
        regex: LAST_BLOCK_IS_USER_TURN,
        line: new RegExp(`^${SPINNER_ROW}`, 'u'),
      },
      sample: thinkingAfterPrompt,
      lookalikes: [
        { sample: idleAfterAnswer, why: 'no spinner row: the turn is over' },
        {
          sample: [
            '',
            '● The mock model is streaming a reply so that the terminal shows a response being written. Each word arrives in a small',
            '',
            '✶ Drizzling… (3s · ↓ 29 tokens)',
            '',
            HR,
            '❯',
            HR,
            '  esc to interrupt · ← for agents                                                                     ● high · /effort',
          ].join('\n'),
          why: 'assistant text after the prompt: responding, not thinking',
        },
      ],
      source: `${CLI}, ${REC}plain-qa.cast @ 5500 ms`,
    },
    {
      id: 'thinking-after-tool',
      priority: 610,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'above_prompt_box',
      match: {
        // The last block is a tool call whose result is in: the next request is in flight.
        regex: new RegExp(`(?:^|\\n)● ${TOOL_HEAD}[^\\n]*${REST_OF_LAST_BLOCK}`, 'u'),
        line: new RegExp(`^${SPINNER_ROW}`, 'u'),
      },
      sample: [
        '',
        '● Bash(sleep 10 && echo done)',
        '  ⎿  done',
        '',
        '✽ Zesting… (11s · ↓ 20 tokens)',
        '',
        HR,
        '❯',
        HR,
        '  esc to interrupt · ← for agents',
      ].join('\n'),
      lookalikes: [{ sample: respondingAfterTool, why: 'a text bullet after the tool result is responding' }],
      source: `${CLI}, ${REC}tool-autorun.cast @ 17300 ms`,
    },
    {
      id: 'spinner',
      priority: 550,
      implies: { primary: 'active', detail: null },
      region: 'above_prompt_box(4)',
      match: { line: new RegExp(`^${SPINNER_ROW}`, 'u') },
      sample: [
        '  chunk with a short pause, like a real model would send tokens. This paragraph repeats as needed to',
        '',
        '✽ Drizzling… (4s · ↓ 39 tokens)',
        '',
        HR,
        '❯',
        HR,
        '  esc to interrupt · ← for agents                                                                     ● high · /effort',
      ].join('\n'),
      lookalikes: [{ sample: idleAfterAnswer, why: '"✻ Worked for 5s" is the turn summary, not a spinner' }],
      // Composed, so no recording is named: the recorded answers are too short to scroll their block start off screen.
      source: `${CLI}: the spinner row of the plain-qa recording at 9700 ms under a continuation line of a longer answer (composed)`,
    },
    {
      id: 'esc-to-interrupt',
      priority: 500,
      implies: { primary: 'active', detail: null },
      region: 'after_last_horizontal_rule',
      match: { contains: 'esc to interrupt' },
      sample: [
        '  chunk with a short pause, like a real model would send tokens. This paragraph repeats as needed to',
        '',
        '',
        HR,
        '❯',
        HR,
        '  esc to interrupt · ← for agents                                                                     ● high · /effort',
      ].join('\n'),
      lookalikes: [{ sample: idleAfterAnswer, why: 'the idle status bar' }],
      source: `${CLI}, ${REC}plain-qa.cast @ 10000 ms, cropped below the answer's bullet (spinner row gone, block start off screen)`,
    },
    {
      id: 'idle-shortcuts-hint',
      priority: 310,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'after_last_horizontal_rule',
      match: { line: /^\s*\? for shortcuts/u },
      sample: interruptedIdle,
      lookalikes: [{ sample: thinkingAfterPrompt, why: 'busy status bar' }],
      source: `${CLI}, ${REC}interrupt-then-exit.cast @ 11000 ms`,
      // The status bar's idle hint is drawn with the composer once the turn is over, and only when
      // no busy rule above matched (no spinner row, no "esc to interrupt").
      strongIdle: true,
    },
    {
      id: 'idle-empty-prompt-box',
      priority: 305,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(4)',
      // The proven end of a turn by structure, whatever the status bar names: an empty input row
      // between the prompt box's rules and a status bar without the busy hint. 2.1.332's bar shows
      // the permission mode (`⏵⏵ auto mode on (shift+tab to cycle)`, `⏸ manual mode on · ? for
      // shortcuts`, `accept edits on`, `plan mode on`: its bundle's mode labels), not a fixed hint.
      match: { regex: /^─{20,}\n❯ *\n─{20,}\n(?![^\n]*esc to interrupt)[^\n]*\S[^\n]*$/u },
      sample: [HR, '❯', HR, '  ⏵⏵ auto mode on (shift+tab to cycle)'].join('\n'),
      lookalikes: [
        {
          sample: [HR, '❯', HR, '  ⏵⏵ auto mode on (shift+tab to cycle) · esc to interrupt · ← for agents'].join('\n'),
          why: 'busy status bar',
        },
        {
          sample: [HR, '❯ What does Switchboard do?', HR, '  ⏵⏵ auto mode on (shift+tab to cycle)'].join('\n'),
          why: 'text typed or just submitted',
        },
      ],
      source: `${CLI332}, ${REC332}plain-qa.cast (end); manual mode's bar in ${REC332}permission-no.cast`,
      strongIdle: true,
    },
    {
      id: 'exit-resume-hint',
      priority: 302,
      implies: { primary: 'idle', detail: 'ready' },
      // After /exit, 2.1.332 leaves its alternate screen and prints how to resume, then exits: the
      // turn was over, nothing runs (read as output, it would flash active before dead).
      region: 'bottom_non_empty_lines(2)',
      match: { regex: /^Resume this session with:\nclaude --resume \S+$/u },
      sample: ['Resume this session with:', 'claude --resume dfba413b-4672-4758-aa8f-2a224940a915'].join('\n'),
      lookalikes: [
        {
          sample: ['● Resume this session with:', '  claude --resume dfba413b', '', HR, '❯', HR, '  ⏵⏵ auto mode on'].join('\n'),
          why: 'the hint quoted in an answer, the prompt box below it',
        },
      ],
      source: `${CLI332}, ${REC332}interrupt-then-exit.cast @ 18.4 s (after /exit)`,
    },
    {
      id: 'idle-prompt',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'prompt_box',
      match: { line: /^❯(?:\s|$)/u },
      sample: [
        HR,
        '❯ What does a mock se',
        HR,
        '                                                                                                      ● high · /effort',
      ].join('\n'),
      lookalikes: [{ sample: permissionScreen, why: 'a dialog replaces the prompt box (one rule only)' }],
      source: `${CLI}, ${REC}plain-qa.cast @ 4500 ms (text being typed hides "? for shortcuts")`,
    },
    {
      id: 'title-spinner',
      priority: 100,
      implies: { primary: 'active', detail: null },
      region: 'osc_title',
      // 2.1.197 cycles braille frames, 2.1.332 two half circles (its bundle: frames ["◐", "◑"], idle "✳").
      match: { regex: /^[\u2801-\u28FF◐◑] /u },
      sample: '◐ Claude Code',
      lookalikes: [{ sample: '✳ Claude Code', why: 'the idle glyph' }],
      source: `${CLI}, window title in every recording while busy (frames ⠂ ⠐); ${CLI332} frames ◐ ◑, ${REC332}plain-qa.cast`,
    },
    {
      id: 'title-idle',
      priority: 90,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'osc_title',
      match: { regex: /^✳ /u },
      sample: '✳ Claude Code',
      lookalikes: [{ sample: '⠐ Claude Code', why: 'a spinner frame' }],
      source: `${CLI}, window title in every recording when not busy — also during permission prompts, hence lowest priority`,
    },
  ],
};
