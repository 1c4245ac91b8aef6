/**
 * Gemini CLI status rules, cut from the recordings in test/fixtures/recordings/gemini/ (Gemini CLI
 * 0.61.0, 120x40, TERM=xterm-256color, COLORTERM=truecolor; re-record with
 * `npx tsx test/fixtures/gemini/recordGemini.ts`). Every sample is a crop of a recorded screen,
 * unchanged (the per-run temp path in the footer included).
 *
 * Anatomy (Ink TUI): the composer ` >   Type your message or @path/to/file` between half-block bars
 * stays on screen while a turn runs; a running turn shows a braille spinner row
 * ` ⠧ Thinking... (esc to cancel, 2s)` above it, with the streamed answer (`✦ …`) right above the
 * spinner; a tool that asks replaces the composer with a box ending in a numbered menu
 * (`● 1. Allow once`); the `ask_user` tool shows an "Answer Questions" box. The window title names
 * the state: `◇  Ready (project)`, `✦  Working… (project)`, `✋  Action Required (project)`.
 * During start-up the composer is already shown with `ℹ Initializing... Prompts will be queued.`;
 * a prompt sent then is listed under `Queued (press ↑ to edit):` until initialisation ends.
 */
import type { RuleSetInput } from '../ruleSchema';

const VERSION = '0.61.0';
const recorded = (recording: string, at: string) => `Gemini CLI ${VERSION}, recording gemini/${recording} @ ${at}`;

const RULE = '─'.repeat(120);

/** The composer and footer as recorded (no true-colour terminal: its half-block bars are blank rows, dropped in crops). */
const composer = (runDir: string, branch = true) =>
  [
    RULE,
    ' Shift+Tab to accept edits',
    ' >   Type your message or @path/to/file',
    branch
      ? ' workspace (/directory)                                   branch               sandbox                           /model'
      : ' workspace (/directory)                                              sandbox                                     /model',
    branch
      ? ` /tmp/switchboard-gemini-${runDir}/home/project              main                 no sandbox              gemini-2.5-flash`
      : ` /tmp/switchboard-gemini-${runDir}/home/project                         no sandbox                        gemini-2.5-flash`,
  ].join('\n');

// While a hook runs, the spinner row names it (Switchboard's own status hooks included).
const thinkingScreen = [
  ' > Explain Switchboard in two sentences',
  ' ⠋ Executing Hook: switchboard-status (esc to cancel, 0s)                                              ? for shortcuts',
  composer('9wAtXh'),
].join('\n');

const respondingScreen = [
  ' > Explain Switchboard in two sentences',
  '✦ Switchboard',
  ' ⠏ Executing Hook: switchboard-status (esc to cancel, 1s)                                              ? for shortcuts',
  composer('9wAtXh'),
].join('\n');

const idleScreen = [
  '   visual experience.',
  '                                                                                                        ? for shortcuts',
  composer('Zh5DOi', false),
].join('\n');

const permissionBox = [
  '✦ I will post it.',
  '╭──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╮',
  '│ ? Shell  sleep 2 && echo posted                                                                                      │',
  '│ ╭──────────────────────────────────────────────────────────────────────────────────────────────────────────────────╮ │',
  '│ │ sleep 2 && echo posted                                                                                           │ │',
  '│ ╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯ │',
  '│ Allow execution of [Shell]?                                                                                          │',
  '│                                                                                                                      │',
  '│ ● 1. Allow once                                                                                                      │',
  '│   2. Allow for this session                                                                                          │',
  '│   3. No, suggest changes (esc)                                                                                       │',
  '╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯',
].join('\n');

const questionBox = [
  '✦ One question first.',
  '╭──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╮',
  '│ Answer Questions                                                                                                     │',
  '│ Should I use the staging database?                                                                                   │',
  '│ ● 1.  Yes                                                                                                            │',
  '│   2.  No                                                                                                             │',
  '│   3.  Enter a custom value                                                                                           │',
  '│ Enter to select · ↑/↓ to navigate · Esc to cancel                                                                    │',
  '╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯',
].join('\n');

const queuedScreen = [
  '  Queued (press ↑ to edit):',
  '    Post the data with a shell command',
  '                                                                                                        ? for shortcuts',
  composer('UZgpBy'),
].join('\n');

const typingScreen = [
  '────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────',
  ' Shift+Tab to accept edits',
  ' > /quit',
  ' workspace (/directory)                                   branch               sandbox                           /model',
  ' /tmp/switchboard-gemini-gQDWHZ/home/project              main                 no sandbox              gemini-2.5-flash',
].join('\n');

const slashMenuScreen = [
  '────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────',
  ' Shift+Tab to accept edits',
  ' > /quit',
  ' quit             Exit the cli',
  ' workspace (/directory)                                   branch               sandbox                           /model',
  ' /tmp/switchboard-gemini-gQDWHZ/home/project              main                 no sandbox              gemini-2.5-flash',
].join('\n');

const goodbyeScreen = [
  ' > /quit',
  '╭──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╮',
  '│                                                                                                                      │',
  '│  Agent powering down. Goodbye!                                                                                       │',
  '│                                                                                                                      │',
  '│  Interaction Summary                                                                                                 │',
  '│  Session ID:                 e63b803c-6c50-4212-a59c-5b8423a995ed                                                    │',
  '│  Tool Calls:                 0 ( ✓ 0 x 0 )                                                                           │',
  '│  Success Rate:               0.0%                                                                                    │',
  '│                                                                                                                      │',
  '│  Performance                                                                                                         │',
  '│  Wall Time:                  9.2s                                                                                    │',
  '│  Agent Active:               888ms                                                                                   │',
  '│    » API Time:               888ms (100.0%)                                                                          │',
  '│    » Tool Time:              0s (0.0%)                                                                               │',
  '│                                                                                                                      │',
  '│                                                                                                                      │',
  '│  Model Usage                                                                                                         │',
  '│  Use /model to view model quota information                                                                          │',
  '│                                                                                                                      │',
  '│  Model                           Reqs  Input Tokens   Cache Reads Output Tokens                                      │',
  '│  ──────────────────────────────────────────────────────────────────────────────────────────────────────────────────  │',
  '│  gemini-2.5-flash                   1           188             0             7                                      │',
  '│    ↳ main                           1           188             0             7                                      │',
  '│  To resume this session: gemini --resume e63b803c-6c50-4212-a59c-5b8423a995ed                                        │',
  '╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯',
].join('\n');

/** A prompt is one box: the run of framed rows around its question, from its top edge to its bottom edge. */
const box = (anchor: RegExp, omit: RegExp[] = []) => ({ anchor, within: /^\s*[╭│╰]/u, top: /^\s*╭/u, bottom: /^\s*╰/u, omit });

/** The same frame, 120 columns wide, around `rows` (each padded inside its borders). */
const framed = (rows: string[]) => [`╭${'─'.repeat(118)}╮`, ...rows.map((r) => `│ ${r.padEnd(116)} │`), `╰${'─'.repeat(118)}╯`];

// Blocked turns, from the real CLI against test/fixtures/gemini's mock answering as the Gemini API
// does (a 429 RESOURCE_EXHAUSTED whose QuotaFailure names a per-day quota, or whose message says
// "Please retry in 3600s"; a 400 with ErrorInfo API_KEY_INVALID), 120x40, default settings.
const BLOCKED_SOURCE = `Gemini CLI ${VERSION}, observed against the mock (2026-11-28)`;

/** Gemini CLI's fallback dialog (useQuotaAndFallback in the bundle): its message rows, then "Keep trying" or "Stop". */
const fallbackDialog = (messageRows: string[]) =>
  [' > Say something', ...framed(['', ...messageRows, '', '', '● 1. Keep trying', '  2. Stop', '', ''])].join('\n');

/** A daily quota or a retry delay past the CLI's patience: its own dialog, offering to keep trying. */
const usageLimitDialog = (reset?: string) =>
  fallbackDialog([
    'Usage limit reached for gemini-2.5-flash.',
    ...(reset ? [`Access resets at ${reset}.`] : []),
    '/stats model for usage details',
    '/model to switch models.',
  ]);

/**
 * API errors retried `general.maxAttempts` times with `ui.errorVerbosity: "full"` (observed: 500s
 * and 503s): the CLI stops retrying and asks. With the default `low` it answers its own question
 * with "retry once" and never gives up, so this dialog, and the error item after "Stop", are its
 * only give-up screens.
 */
const highDemandDialog = fallbackDialog([
  'We are currently experiencing high demand.',
  'We apologize and appreciate your patience.',
  '/model to switch models.',
]);

/** The turn ended on `errorRows` (the CLI's `✕ [API Error: …]` item and its hint), the composer back. */
const endedOnError = (errorRows: string[]) =>
  [
    ' > Say something',
    ...errorRows,
    '                                                                                                        ? for shortcuts',
    composer('6lgGaQ'),
  ].join('\n');

const keyRejectedRows = [
  '✕ [API Error: {"error":{"code":400,"message":"API key not valid. Please pass a valid API',
  '  key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INV',
  '  ALID","domain":"googleapis.com","metadata":{"service":"generativelanguage.googleapis.com"}}]}}]',
  'ℹ This request failed. Press F12 for diagnostics, or run /settings and change "Error Verbosity" to full for full',
  '  details.',
];

/**
 * The row under the history with the shortcuts hint; while hooks ran in the last 3 s it names them
 * (`  Executing Hooks: switchboard-status, …   ? for shortcuts`, Gemini CLI 0.61.0 keeps the row up
 * `WARNING_PROMPT_DURATION_MS`; with a spinner while they still run), Switchboard's own Stop hook
 * after every turn included. While a prompt is typed (not sent) the hint is hidden and the
 * composer's rule comes next.
 */
const SHORTCUTS_ROW = String.raw`\n(?: {2,}\? for shortcuts|(?: {2}| \S )Executing Hooks?: [^\n]*? {2,}\? for shortcuts|─{8,})$`;
/** A continuation row of the last item: indented, and not the shortcuts row. */
const CONTINUATION = String.raw`\n {2}(?! *(?:\? for shortcuts|Executing Hooks?: ))`;
/**
 * The last history item is the CLI's error for `error` (which may wrap onto its indented
 * continuation rows), followed only by its hints and the shortcuts row: the turn ended on it.
 */
const lastItemIsError = (error: string) =>
  new RegExp(
    `^✕ \\[API Error: (?:[^\\n]|\\n {2})*?(?<message>${error})(?:[^\\n]|${CONTINUATION})*(?:\\n(?:ℹ |${CONTINUATION.slice(2)})[^\\n]*)*${SHORTCUTS_ROW}`,
    'mu',
  );
/** The whole text of the error item, up to its closing bracket at the end of a row. */
const ANY_ERROR = String.raw`(?:[^\n]|\n {2}(?! *\? for shortcuts))+?(?=\](?:\n|$))`;
/** A spent quota, as the CLI words it after "Stop" in its usage-limit dialog. */
const QUOTA_SPENT = 'You have exhausted your [^\\]\\n]*quota[^\\]\\n]*';
const overloadedRows = ['✕ [API Error: The model is overloaded. Please try again later.]'];
const quotaSpentRows = [
  '✕ [API Error: You have exhausted your daily quota on this model.]',
  '  Please wait and try again later. To increase your limits, request a quota increase through AI Studio, or switch to',
  '  another /auth method',
];
/** What a rejected key says: the API's message, wrapped or not. */
const KEY_REJECTED = 'API\\s+key\\s+(?:not\\s+valid|expired)[^"]*';

export const geminiRules: RuleSetInput = {
  agent: 'gemini',
  version: VERSION,
  rules: [
    {
      id: 'usage-limit-dialog',
      priority: 905,
      implies: { primary: 'waiting', detail: 'limit' },
      region: 'bottom_non_empty_lines(24)',
      match: { line: [/^│ Usage limit reached for \S/u, /^│\s+(?:● )?1\. Keep trying/u] },
      // "Access resets at 3:34 AM UTC." when the API said how long (Intl's short zone name).
      report: /^│ (?<message>Usage limit reached for \S+?)\.?\s*│(?:\n│ Access resets at (?<reset>[^\n│]+?)\.\s*│)?/mu,
      // Unlike the other CLIs' blocked screens this is a dialog of its own (it replaces the composer).
      prompt: box(/^│ Usage limit reached for \S/u),
      sample: usageLimitDialog('3:34 AM UTC'),
      lookalikes: [
        { sample: permissionBox, why: 'a tool confirmation is a permission' },
        {
          sample: endedOnError(['✦ The CLI says "Usage limit reached for gemini-2.5-flash." when the quota runs out.']),
          why: 'an answer quoting the dialog is not the dialog',
        },
      ],
      source: `${BLOCKED_SOURCE}: 429 whose message says "Please retry in 3600s" (a TerminalQuotaError with a delay); without "Access resets at" for a per-day QuotaFailure; the text is getResetTimeMessage/useQuotaAndFallback in the bundle`,
    },
    {
      id: 'api-error-dialog',
      priority: 904,
      implies: { primary: 'waiting', detail: 'api_error' },
      region: 'bottom_non_empty_lines(24)',
      // "… high demand for <model>." when the 429 said the model's capacity ran out.
      match: { line: [/^│ We are currently experiencing high demand\b/u, /^│\s+(?:● )?1\. Keep trying/u] },
      report: /^│ (?<message>We are currently experiencing high demand[^│\n]*?)\.?\s*│/mu,
      prompt: box(/^│ We are currently experiencing high demand\b/u),
      sample: highDemandDialog,
      lookalikes: [
        { sample: usageLimitDialog('3:34 AM UTC'), why: 'a spent quota is a limit' },
        {
          sample: endedOnError(['✦ The CLI says "We are currently experiencing high demand." after its retries.']),
          why: 'an answer quoting the dialog is not the dialog',
        },
      ],
      source: `${BLOCKED_SOURCE}: 500 until general.maxAttempts (2) ran out, ui.errorVerbosity "full"; the text is useQuotaAndFallback in the bundle`,
    },
    {
      id: 'quota-spent-ended-turn',
      priority: 848,
      implies: { primary: 'waiting', detail: 'limit' },
      region: 'bottom_non_empty_lines(16)',
      match: { regex: lastItemIsError(QUOTA_SPENT) },
      report: lastItemIsError(QUOTA_SPENT),
      sample: endedOnError(quotaSpentRows),
      lookalikes: [{ sample: endedOnError(overloadedRows), why: 'an overloaded model is an API error' }],
      source: `${BLOCKED_SOURCE}: a per-day QuotaFailure, then "2. Stop" in the usage-limit dialog (ui.errorVerbosity "full")`,
    },
    {
      id: 'api-error-ended-turn',
      priority: 845,
      implies: { primary: 'waiting', detail: 'api_error' },
      region: 'bottom_non_empty_lines(16)',
      // Any API error the turn ended on; a refused key and a spent quota have their own rules above.
      match: { regex: lastItemIsError(ANY_ERROR) },
      report: lastItemIsError(ANY_ERROR),
      sample: endedOnError(overloadedRows),
      lookalikes: [
        {
          sample: [' > Say something', ...overloadedRows, ' > Try again', ' ⠋ Thinking... (esc to cancel, 0s)', composer('6lgGaQ')].join(
            '\n',
          ),
          why: 'a later turn runs',
        },
        { sample: idleScreen, why: 'a turn that ended on an answer' },
      ],
      source: `${BLOCKED_SOURCE}: 503 UNAVAILABLE until general.maxAttempts (2) ran out, then "2. Stop" in the dialog above (ui.errorVerbosity "full")`,
    },
    {
      id: 'api-key-rejected',
      priority: 850,
      implies: { primary: 'waiting', detail: 'login' },
      region: 'bottom_non_empty_lines(16)',
      match: { regex: lastItemIsError(KEY_REJECTED) },
      report: lastItemIsError(KEY_REJECTED),
      sample: endedOnError(keyRejectedRows),
      lookalikes: [
        {
          sample: [
            ' > Say something',
            ...keyRejectedRows,
            ' > Try again',
            ' ⠋ Thinking... (esc to cancel, 0s)                                                                      ? for shortcuts',
            composer('6lgGaQ'),
          ].join('\n'),
          why: 'a later turn runs',
        },
        { sample: idleScreen, why: 'a turn that ended on an answer' },
      ],
      source: `${BLOCKED_SOURCE}: 400 INVALID_ARGUMENT with ErrorInfo API_KEY_INVALID, "API key not valid. Please pass a valid API key." as the API words it`,
    },
    {
      id: 'tool-confirmation',
      priority: 900,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'bottom_non_empty_lines(24)',
      match: {
        // "Allow execution of" recorded; edits and MCP tools ask with the same numbered menu.
        regex: /(?:Allow execution of|Apply this change|Allow execution of MCP tool)[^\n]*\?/u,
        line: /^[│\s]*● 1\. Allow once/u,
      },
      prompt: box(/(?:Allow execution of|Apply this change|Allow execution of MCP tool)[^\n]*\?/u),
      sample: permissionBox,
      lookalikes: [{ sample: idleScreen, why: 'the idle composer' }],
      source: recorded('gemini-permission-yes', '7.34 s'),
    },
    {
      id: 'ask-user-question',
      priority: 880,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'bottom_non_empty_lines(24)',
      match: { contains: 'Answer Questions', line: /Enter to select · .*Esc to cancel/u },
      prompt: box(/Enter to select · .*Esc to cancel/u, [/Enter to select · .*Esc to cancel/u]),
      sample: questionBox,
      lookalikes: [{ sample: permissionBox, why: 'a tool confirmation is a permission, not a question' }],
      source: recorded('gemini-question', 'the ask_user dialog'),
    },
    {
      id: 'folder-trust',
      priority: 870,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'bottom_non_empty_lines(24)',
      match: { regex: /Do you trust (?:this folder|the files in this folder)\?/u },
      prompt: box(/Do you trust (?:this folder|the files in this folder)\?/u),
      sample: [
        '│ Do you trust this folder?                                            │',
        '│ ● 1. Trust folder (repo)                                             │',
      ].join('\n'),
      lookalikes: [{ sample: idleScreen, why: 'the idle composer' }],
      source: `Gemini CLI ${VERSION}, from knowledge, unverified (the recordings trust their folder)`,
    },
    {
      id: 'tool-running',
      priority: 640,
      implies: { primary: 'active', detail: 'using_tools' },
      region: 'bottom_non_empty_lines(16)',
      // A tool box with the executing glyph, which alternates ⊷/⊶ while it runs (a finished one
      // shows ✓, a waiting one ?, a scheduled one o).
      match: { line: /^│ [⊶⊷]\s+\S/u },
      sample: [
        '✦ I will post it.',
        '╭──────────────────────────────────────────────────────────────────────────────────────────────────────────────────╮',
        '│ ⊶  Shell sleep 2 && echo posted                                                                                  │',
        '│                                                                                                                  │',
        '╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯',
        ' ⠋ Thinking... (esc to cancel, 1s)                                                                      ? for shortcuts',
        composer('Zh5DOi'),
      ].join('\n'),
      lookalikes: [{ sample: thinkingScreen, why: 'no tool box' }],
      source: recorded('gemini-permission-yes', '13.41 s'),
    },
    {
      id: 'queued-prompt',
      priority: 650,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'bottom_non_empty_lines(16)',
      match: { line: /^\s*Queued \(press ↑ to edit\):/u },
      sample: queuedScreen,
      lookalikes: [{ sample: idleScreen, why: 'nothing queued' }],
      source: `Gemini CLI ${VERSION}, observed through the harness (a prompt sent while it initialises); the current recordings submit after start-up, so none shows it`,
    },
    {
      id: 'streaming-answer',
      priority: 620,
      implies: { primary: 'active', detail: 'responding' },
      region: 'bottom_non_empty_lines(12)',
      // Answer text (first line `✦ `, continuation lines indented) right above the spinner row.
      match: { regex: /^(?:✦ | {2})\S[^\n]*\n\s*[\u2801-\u28FF] [^\n]*\(esc to cancel/mu },
      sample: respondingScreen,
      lookalikes: [{ sample: thinkingScreen, why: 'the prompt, not answer text, above the spinner' }],
      source: recorded('gemini-streamed-answer', '8.09 s'),
    },
    {
      id: 'spinner-esc-to-cancel',
      priority: 600,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'bottom_non_empty_lines(12)',
      match: { line: /^\s*[\u2801-\u28FF] [^\n]*\(esc to cancel, (?:\d+[hms]\s*)+\)/u },
      sample: thinkingScreen,
      lookalikes: [{ sample: idleScreen, why: 'the composer without the spinner row' }],
      source: recorded('gemini-streamed-answer', '6.51 s'),
    },
    {
      id: 'title-working',
      priority: 400,
      implies: { primary: 'active', detail: null },
      region: 'osc_title',
      match: { regex: /^✦\s+Working/u },
      sample: '✦  Working… (project)                                                           ',
      lookalikes: [{ sample: '◇  Ready (project)                                                              ', why: 'idle title' }],
      source: recorded('gemini-streamed-answer', '6.51 s'),
    },
    {
      id: 'idle-shortcuts-row',
      priority: 310,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(8)',
      // The shortcuts hint leading its row above the composer: during a turn it sits at the end of
      // the spinner row (or a queued prompt is listed, which outranks this rule).
      match: { line: [/^\s*\? for shortcuts/u, /^ >\s+\S/u] },
      sample: idleScreen,
      lookalikes: [
        { sample: thinkingScreen, why: 'the hint shares its row with the spinner' },
        { sample: typingScreen, why: 'the hint is hidden while typing' },
      ],
      source: recorded('gemini-permission-yes', '1.48 s'),
      strongIdle: true,
    },
    {
      id: 'idle-composer',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      // The composer, empty (placeholder) or with text being typed; the bottom six lines never
      // reach the prompts echoed in the history above.
      region: 'bottom_non_empty_lines(6)',
      match: { line: /^ >\s+\S/u },
      sample: typingScreen,
      lookalikes: [{ sample: permissionBox, why: 'a confirmation replaces the composer' }],
      source: recorded('gemini-answer-then-exit', '10.05 s'),
    },
    {
      id: 'slash-command-menu',
      priority: 305,
      implies: { primary: 'idle', detail: 'ready' },
      // Typing a slash command opens a completion menu under the composer, which pushes the
      // composer out of the bottom lines the idle-composer rule reads.
      region: 'bottom_non_empty_lines(16)',
      match: { line: [/^ > \/[\w-]*\s*$/u, /^ [\w-]+\s{2,}\S/u] },
      sample: slashMenuScreen,
      lookalikes: [{ sample: thinkingScreen, why: 'a prompt being worked on, no menu' }],
      source: recorded('gemini-answer-then-exit', '10.05 s'),
    },
    {
      id: 'goodbye-summary',
      priority: 305,
      implies: { primary: 'idle', detail: 'ready' },
      // `/quit` prints the session summary; the process exits right after.
      region: 'bottom_non_empty_lines(40)',
      match: { any: [{ contains: 'Agent powering down. Goodbye!' }, { line: /^│\s+To resume this session: gemini --resume /u }] },
      sample: goodbyeScreen,
      lookalikes: [{ sample: idleScreen, why: 'the composer' }],
      source: recorded('gemini-answer-then-exit', '10.61 s'),
    },
    {
      id: 'title-action-required',
      priority: 150,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'osc_title',
      match: { regex: /^✋\s+Action Required/u },
      sample: '✋  Action Required (project)                                                    ',
      lookalikes: [{ sample: '✦  Working… (project)                                                           ', why: 'working' }],
      source: recorded('gemini-permission-yes', '7.35 s'),
    },
  ],
  progressNormalizers: [
    { id: 'spinner-glyph', pattern: /^(\s*)[\u2801-\u28FF](?= )/gmu, replace: '$1' },
    { id: 'elapsed-seconds', pattern: /\(esc to cancel, (?:\d+[hms]\s*)+\)/gu, replace: '(esc to cancel)' },
  ],
};
