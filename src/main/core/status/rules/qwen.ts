/**
 * Qwen Code status rules, re-cut from recordings of @qwen-code/qwen-code 0.24.4 (Ink TUI, a Gemini
 * CLI fork) at 120x40, TERM=xterm-256color, driven offline against a mock Chat Completions API
 * (test/fixtures/recordings/qwen/, re-recorded by its record.ts). Each sample is cut from the named
 * recording at the given time, blank rows dropped (the rules read non-blank rows only).
 *
 * Anatomy: history above; a composer between two horizontal rules (`>   Type your message or
 * @path/to/file`, also while a turn runs); below it a path/model line and the approval-mode footer
 * `⏸ Ask permissions (shift + tab to cycle)`, prefixed with `Enter to steer · Ctrl+Q to queue · `
 * while a turn runs. A running turn shows a braille spinner with a rotating phrase and
 * `(3s · ↑ 19 tokens · esc to cancel)` above the composer (`↓` while tokens stream in). A tool
 * awaiting approval replaces the composer with a numbered menu and the spinner row reads
 * `Waiting for user confirmation...`. The window title is `Qwen - <folder>`, prefixed with a
 * half-circle glyph (`◐︎`) while busy and `✳︎` while a confirmation waits.
 */
import type { RuleSetInput } from '../ruleSchema';

const VERSION = '0.24.4';
const rec = (name: string, at: string) => `Qwen Code ${VERSION}, recording test/fixtures/recordings/qwen/${name}.cast @ ${at}`;

const RULE = '────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────';
const BUSY_FOOTER = [
  '  ➜ project · git:(main) · switchboard-mock',
  '  Enter to steer · Ctrl+Q to queue · ⏸ Ask permissions (shift + tab to cycle)',
];
const COMPOSER = [RULE, '>   Type your message or @path/to/file', RULE];
const IDLE_FOOTER = ['  ➜ project · git:(main) · switchboard-mock', '  ⏸ Ask permissions (shift + tab to cycle)'];
/** A turn that ended on `rows`: the idle composer under them. */
const endedOn = (rows: string[]) => [...rows, ...COMPOSER, ...IDLE_FOOTER].join('\n');
/** The lookalike of a turn that ended on `rows`: the next prompt already running. */
const laterTurnAfter = (rows: string[]) => ({
  sample: [...rows, '  > Try again', '  ⠋ Tasting the snozberries... (0s · esc to cancel)', ...COMPOSER, ...BUSY_FOOTER].join('\n'),
  why: 'a later turn runs',
});

const idleScreen = [
  '  > Trigger the deploy hook',
  '  x Shell {"command":"curl -X POST http://127.0.0.1:9/deploy","description":"Post the deploy hook"}',
  '    Exit Code: 7',
  '    Signal: (none)',
  '    Process Group PGID: 27218',
  '  ◆︎ The deploy hook could not be reached.',
  ...COMPOSER,
  ...IDLE_FOOTER,
].join('\n');

const thinkingScreen = [
  '  > Run the wait command',
  '  ⠋ Tasting the snozberries... (0s · esc to cancel)',
  ...COMPOSER,
  ...BUSY_FOOTER,
].join('\n');

const respondingScreen = [
  '  > What does Switchboard do?',
  '  ◆︎ Switchboard keeps',
  '  ⠦ Preparing a witty response... (2s · ↓ 2 tokens · esc to cancel)',
  ...COMPOSER,
  ...BUSY_FOOTER,
].join('\n');

const runningToolScreen = [
  '  > Trigger the deploy hook',
  '  ⊶ Shell curl -X POST http://127.0.0.1:9/deploy (Post the deploy hook)',
  '  ⠴ Finding a suitable loading screen pun... (1s · esc to cancel)',
  ...COMPOSER,
  ...BUSY_FOOTER,
].join('\n');

const confirmationScreen = [
  '  > Trigger the deploy hook',
  '  ? Shell curl -X POST http://127.0.0.1:9/deploy (Post the deploy hook) ←',
  '     curl -X POST http://127.0.0.1:9/deploy',
  "   Allow execution of: 'curl'?",
  '   › 1. Yes, allow once',
  "     2. Always allow run 'curl *' commands in this project",
  "     3. Always allow run 'curl *' commands for this user",
  '     4. No, suggest changes (esc)',
  '  ⠏ Waiting for user confirmation...',
].join('\n');

const questionScreen = [
  '  > Set up the dev server',
  '  ? AskUserQuestion Ask user 1 question ←',
  '   Port',
  '   Which port should the dev server use?',
  '   ❯ 1. 3000',
  '        The default',
  '     2. 8080',
  '        The alternative',
  '     3. Type something...',
  '   ↑/↓: Navigate | Enter: Select | Esc: Cancel',
  '  ⠏ Waiting for user confirmation...',
].join('\n');

/**
 * A braille spinner row ending in Qwen's elapsed-time/tokens/"esc to cancel" parenthesis. In a
 * narrow terminal Qwen wraps the row: the parenthesis moves to the next row (or two), under the
 * phrase, so the match runs over region text and allows those continuation rows (never a rule or
 * the composer's `>`).
 */
const SPINNER = /^\s*[\u2800-\u28FF] [^\n]*?(?:\n[^\n─>]*){0,2}?\((?:\d+[hms]\s*)+(?:·[^)]*)?·\s+esc\s+to\s+cancel\)$/mu;
/** The end of that row, wrapped or not: what ends the `responding` match below. */
const SPINNER_TAIL = String.raw`\n\s*[\u2800-\u28FF] [^\n]*(?:\n[^\n─>]*){0,2}?esc\s+to\s+cancel\)$`;

/** The spinner row under a prompt: what the agent does, not what it asks. */
const WAITING_ROW = /^\s*[\u2800-\u28FF] Waiting for user confirmation\.\.\.$/u;
/** A prompt starts at its tool's row (`? Shell curl …`, `? AskUserQuestion …`). */
const TOOL_ROW = /^\s*\? \S/u;

/**
 * The turn ended on an API error the CLI would not retry: its `✕ [API Error: <status> …]` item
 * (Gemini CLI's, indented one level deeper, its wrapped rows two more) is the last one above the
 * composer, with the offer `(Press Ctrl+Y to retry)`.
 */
const endedOnApiError = (status: string) =>
  new RegExp(String.raw`^ {2}✕ \[API Error: (?<message>${status} (?:[^\n]|\n {4})*?)\] \(Press Ctrl\+Y to retry\)(?![\s\S])`, 'mu');
/** 401 and 403: the key or its account was refused. */
const KEY_REFUSED = '(?:401|403)';
const keyRefusedRows = [
  '  > Say something',
  '  ✕ [API Error: 401 Incorrect API key provided: sk-mock-************0000. You can find your API key at',
  '    https://platform.openai.com/account/api-keys.] (Press Ctrl+Y to retry)',
];

/**
 * The turn ended on any API error: the same item as the last one above the composer, with what
 * Qwen adds after the API's bracket on the item's own indented rows (its rate-limit advice after
 * a 429, `Possible quota limitations in place …`; the retry offer), when a 500 or a 503 came after
 * the request's own retries, or when the turn's rate-limit retries were spent. Never a refused key
 * (401, 403): that item is a sign-in, whatever Qwen draws after it (it redraws the old item as the
 * next prompt is sent, and a refused key then read as an API error for a moment).
 */
const ENDED_ON_API_ERROR = /^ {2}✕ \[API Error: (?!(?:401|403) )(?<message>(?:[^\n]|\n {4})*?)\](?:[^\n]|\n {4})*(?![\s\S])/mu;
const gaveUpRows = [
  '  > Say something else',
  '  ✕ [API Error: 429 Rate limit reached for gpt-4o-mini in organization org-mock on requests per min (RPM): Limit 3, ',
  '    Used 3, Requested 1. Please try again in 1s.]',
  '    Possible quota limitations in place or slow response times detected. Please wait and try again later. (Press ',
  '    Ctrl+Y to retry)',
];

/**
 * The request never reached the API: the OpenAI SDK's `Connection error.` (its APIConnectionError,
 * with the cause Qwen appends) instead of a status, after the request's own retries.
 */
const ENDED_UNREACHABLE = /^ {2}✕ \[API Error: (?<message>Connection error\.(?:[^\n]|\n {4})*?)\](?:[^\n]|\n {4})*(?![\s\S])/mu;
const unreachableRows = ['  > Say something', '  ✕ [API Error: Connection error. (cause: fetch failed)] (Press Ctrl+Y to retry)'];

/**
 * A rate limit retried by the turn itself (observed: 429 `rate_limit_exceeded` with `retry-after: 1`
 * on every request): once the request's own retries (7 attempts, reported to telemetry only) are
 * spent, Qwen Code waits out its rate-limit back-off (10 retries, the first after about a minute)
 * and draws it: the error item with its countdown and a `↻ Retrying in … (attempt n/m)` row.
 */
const retryCountdownRows = [
  '  > Say something',
  '  ✕ [API Error: 429 Rate limit reached for gpt-4o-mini in organization org-mock on requests per min (RPM): Limit 3, ',
  '    Used 3, Requested 1. Please try again in 1s.] (Retrying in 52s… (attempt 1/10))',
  '  ↻ Retrying in 52 seconds… (attempt 1/10)',
  '  ⠧ Have you tried turning it off and on again? (The loading screen, not me.) (44s · esc to cancel)',
];
const RETRY_COUNTDOWN =
  /^ {2}✕ \[API Error: (?<message>(?:[^\n]|\n {4})*?)\] \(Retrying in [^\n]*\n {2}↻ Retrying in \d+ seconds?… \(attempt (?<attempt>\d+)\/(?<max>\d+)\)$/mu;

export const qwenRules: RuleSetInput = {
  agent: 'qwen',
  version: VERSION,
  rules: [
    {
      id: 'api-key-refused',
      priority: 850,
      implies: { primary: 'waiting', detail: 'login' },
      region: 'above_prompt_box(6)',
      match: { regex: endedOnApiError(KEY_REFUSED) },
      report: endedOnApiError(KEY_REFUSED),
      sample: endedOn(keyRefusedRows),
      lookalikes: [laterTurnAfter(keyRefusedRows), { sample: idleScreen, why: 'a turn that ended on an answer' }],
      source: `Qwen Code ${VERSION}, observed against test/fixtures/openaiChat's mock answering 401 with OpenAI's invalid_api_key body (2026-11-28)`,
    },
    {
      id: 'api-unreachable',
      priority: 845,
      implies: { primary: 'waiting', detail: 'network' },
      region: 'above_prompt_box(8)',
      match: { regex: ENDED_UNREACHABLE },
      report: ENDED_UNREACHABLE,
      sample: endedOn(unreachableRows),
      lookalikes: [
        { sample: [...gaveUpRows, ...COMPOSER].join('\n'), why: 'the API answered with an error' },
        laterTurnAfter(unreachableRows),
      ],
      source: `Qwen Code ${VERSION}, observed with OPENAI_BASE_URL on a closed loopback port (connection refused, 2026-11-28)`,
    },
    {
      id: 'api-error-gave-up',
      priority: 840,
      implies: { primary: 'waiting', detail: 'api_error' },
      region: 'above_prompt_box(8)',
      match: { regex: ENDED_ON_API_ERROR },
      report: ENDED_ON_API_ERROR,
      sample: endedOn(gaveUpRows),
      lookalikes: [
        {
          sample: [...retryCountdownRows, ...COMPOSER, ...BUSY_FOOTER].join('\n'),
          why: 'still retrying: the countdown follows the error item',
        },
        laterTurnAfter(gaveUpRows),
        {
          sample: endedOn(keyRefusedRows.map((row) => row.replace(' (Press Ctrl+Y to retry)', ''))),
          why: 'a refused key is a sign-in, also while its item is redrawn without the retry offer',
        },
        { sample: idleScreen, why: 'a turn that ended on an answer' },
      ],
      source: `${rec('qwen-blocked', '27.7 s')} (429 with retry-after-ms 1 on every request until the turn's rate-limit retries were spent, under Qwen's own model.generationConfig maxRetries 2 and 3 s delays; the same item with the offer alone after 503s)`,
    },
    {
      id: 'retry-countdown',
      priority: 660,
      implies: { primary: 'active', detail: 'retrying' },
      region: 'above_prompt_box(8)',
      match: { line: /^\s*↻ Retrying in \d+ seconds?… \(attempt \d+\/\d+\)$/u },
      report: RETRY_COUNTDOWN,
      sample: [...retryCountdownRows, ...COMPOSER, ...BUSY_FOOTER].join('\n'),
      lookalikes: [
        { sample: [...keyRefusedRows, ...COMPOSER].join('\n'), why: 'an error not retried' },
        { sample: idleScreen, why: 'a turn that ended on an answer' },
      ],
      source: `Qwen Code ${VERSION}, observed against test/fixtures/openaiChat's mock answering 429 rate_limit_exceeded with retry-after 1 s on every request (2026-11-28); the row is the turn's rate-limit retry (RATE_LIMIT_RETRY_OPTIONS in the bundle)`,
    },
    {
      id: 'ask-user-question',
      priority: 920,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'bottom_non_empty_lines(24)',
      match: { line: [/^\s*\? AskUserQuestion\b/u, /^\s*[\u2800-\u28FF] Waiting for user confirmation\.\.\.$/u] },
      prompt: { anchor: /^\s*\? AskUserQuestion\b/u, omit: [WAITING_ROW, /↑\/↓: Navigate \| Enter: Select/u] },
      sample: questionScreen,
      lookalikes: [
        { sample: confirmationScreen, why: 'a tool confirmation is a permission, not a question' },
        { sample: ['  > Use the AskUserQuestion tool', ...COMPOSER, ...BUSY_FOOTER].join('\n'), why: 'the tool named in a prompt' },
      ],
      source: `${rec('qwen-question', '10.49 s')} (ask_user_question with two options)`,
    },
    {
      id: 'tool-confirmation',
      priority: 900,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'bottom_non_empty_lines(24)',
      match: {
        line: [/^\s*[\u2800-\u28FF] Waiting for user confirmation\.\.\.$/u, /^\s*(?:›\s*)?\d\. (?:Yes, allow|Allow|No, suggest changes)/u],
      },
      prompt: { anchor: /^\s*(?:›\s*)?1\. (?:Yes, allow|Allow)/u, top: TOOL_ROW, omit: [WAITING_ROW] },
      sample: confirmationScreen,
      lookalikes: [
        { sample: runningToolScreen, why: 'the approved tool running, menu gone' },
        { sample: ['  > Which menu says Waiting for user confirmation...?', ...COMPOSER].join('\n'), why: 'the words typed in a prompt' },
      ],
      source: `${rec('qwen-permission-no', '10.32 s')} (run_shell_command curl -X POST in "Ask permissions" mode)`,
    },
    {
      id: 'running-tool',
      priority: 700,
      implies: { primary: 'active', detail: 'using_tools' },
      region: 'bottom_non_empty_lines(16)',
      match: { line: /^\s*[⊶⊷] \S/u, regex: SPINNER },
      sample: runningToolScreen,
      lookalikes: [{ sample: idleScreen, why: 'a finished tool (x / ✓) and no spinner' }],
      source: rec('qwen-permission-yes', '10.57 s'),
    },
    {
      id: 'responding',
      priority: 650,
      implies: { primary: 'active', detail: 'responding' },
      region: 'bottom_non_empty_lines(16)',
      // Assistant text (◆︎) is the newest history item: no prompt or tool row between it and the spinner.
      match: { regex: new RegExp(String.raw`^ {2}◆\uFE0E? .*(?:\n(?! {2}[>x✓?⊶⊷-] ).*)*` + SPINNER_TAIL, 'mu') },
      sample: respondingScreen,
      lookalikes: [
        { sample: thinkingScreen, why: 'spinner with no assistant text yet' },
        { sample: idleScreen, why: 'the finished answer, no spinner' },
      ],
      source: rec('qwen-plain-qa-exit', '11.74 s'),
    },
    {
      // The composer is drawn before initialisation ends; a prompt sent now may be lost.
      id: 'initializing',
      priority: 610,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'bottom_non_empty_lines(4)',
      match: { line: /^\s*[\u2800-\u28FF] Initializing\.\.\.$/u },
      sample: [
        '  Tips: Add a QWEN.md file to give Qwen Code persistent project context.',
        '  ●︎ Extensions changed on disk. Run /reload-plugins to apply updates.',
        '  ➜ project · git:(main) · switchboard-mock',
        '  ⠦ Initializing...',
      ].join('\n'),
      lookalikes: [{ sample: idleScreen, why: 'initialised: no spinner' }],
      source: rec('qwen-plain-qa-exit', '3.7 s'),
    },
    {
      id: 'spinner',
      priority: 600,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'bottom_non_empty_lines(10)',
      match: { regex: SPINNER },
      sample: thinkingScreen,
      lookalikes: [{ sample: idleScreen, why: 'the idle composer has no spinner row' }],
      source: rec('qwen-tool-autorun', '8.79 s'),
    },
    {
      id: 'busy-footer',
      priority: 500,
      implies: { primary: 'active', detail: null },
      region: 'bottom_non_empty_lines(3)',
      match: { line: /^\s*Enter to steer · Ctrl\+Q to queue · /u },
      sample: [...COMPOSER, ...BUSY_FOOTER].join('\n'),
      lookalikes: [{ sample: idleScreen, why: 'the idle footer has no steer/queue hint' }],
      source: rec('qwen-tool-autorun', '8.72 s'),
    },
    {
      id: 'title-busy',
      priority: 400,
      implies: { primary: 'active', detail: null },
      region: 'osc_title',
      match: { regex: /^[◐◓◑◒]\uFE0E? /u },
      sample: '◐︎ Qwen - project',
      lookalikes: [
        { sample: 'Qwen - project', why: 'the idle title' },
        { sample: '✳︎ Qwen - project', why: 'a confirmation waits' },
      ],
      source: rec('qwen-plain-qa-exit', '8.99 s'),
    },
    {
      id: 'idle-composer',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(3)',
      match: { line: /\(shift \+ tab to cycle\)$/u, not: { line: /Enter to steer · Ctrl\+Q to queue/u } },
      sample: idleScreen,
      lookalikes: [
        { sample: thinkingScreen, why: 'the busy footer' },
        { sample: confirmationScreen, why: 'a confirmation replaces composer and footer' },
      ],
      source: rec('qwen-permission-yes', '17.66 s'),
      // The footer loses its "Enter to steer · Ctrl+Q to queue" prefix only once the turn is
      // over (tool calls and confirmations keep it or replace the footer).
      strongIdle: true,
    },
    {
      // After /quit Qwen prints a session summary and exits: not busy, nothing left to do.
      id: 'exit-summary',
      priority: 350,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(3)',
      // Printed again unindented after the TUI unmounts, wrapped after "run".
      match: { line: /^\s*To continue this session, run(?: qwen --resume \S+)?$/u },
      sample: [
        '  │  switchboard-mock                          1          8,542             27                       │',
        '  │                                                                                                  │',
        '  ╰──────────────────────────────────────────────────────────────────────────────────────────────────╯',
        '  To continue this session, run qwen --resume 8275ae6a-2b4d-4392-bbe8-5aa089aabd5d',
      ].join('\n'),
      lookalikes: [
        { sample: ['  > How do I continue this session?', ...COMPOSER, ...BUSY_FOOTER].join('\n'), why: 'a prompt about resuming' },
      ],
      source: rec('qwen-plain-qa-exit', '17.52 s'),
    },
    {
      id: 'title-confirmation',
      priority: 150,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'osc_title',
      match: { regex: /^✳\uFE0E? /u },
      sample: '✳︎ Qwen - project',
      lookalikes: [{ sample: '◐︎ Qwen - project', why: 'busy' }],
      source: rec('qwen-permission-no', '10.26 s'),
    },
  ],
  // After the common normalisers: the spinner row's rotating phrase is animation too.
  progressNormalizers: [
    { id: 'spinner-row', pattern: /^.*esc to cancel\)$/u, replace: 'qwen spinner row' },
    { id: 'tool-glyph', pattern: /^(\s*)[⊶⊷](?= )/u, replace: '$1' },
  ],
};
