/**
 * opencode status rules, cut from the recordings in test/fixtures/recordings/opencode/ (opencode
 * 1.18.33, 120x40, TERM=xterm-256color; re-record with
 * `npx tsx test/fixtures/recordings/opencode/record.ts`). Every sample is a crop of a recorded
 * screen, unchanged.
 *
 * Anatomy (opentui, alternate screen, no horizontal rules): the prompt is a box of `┃` rows closed
 * by `╹▀▀▀…`; under it one hint row. While a turn runs the hint row starts with a sliding block
 * spinner and `esc interrupt` (`   ⬝⬝⬝■■■■■  esc interrupt … ctrl+p commands`); once the turn is
 * over it shows the working directory instead (`   /path/to/project … 2.6K  ctrl+p commands`);
 * the start screen's row reads `tab agents  ctrl+p commands`. Above the prompt, each assistant
 * message ends with a `     ▣  Build · <model>` row (`· 46.7s` once finished); its answer text
 * and inline tools (`     $ cmd`, `     → Asked 1 question`) sit right above that row, indented
 * five columns; a finished shell tool becomes a `┃` block with its output. A permission request
 * and a question replace the prompt box with a panel. `/exit` leaves the alternate screen and
 * prints `Continue  opencode -s <session>`. The window title (`OpenCode`, then `OC | <session
 * title>`) never says busy or idle.
 */
import type { RuleSetInput } from '../ruleSchema';

const VERSION = '1.18.33';
const rec = (name: string, at: string) => `opencode ${VERSION}, recording test/fixtures/recordings/opencode/${name}.cast @ ${at}`;

const PROMPT_BOX = ['  ┃', '  ┃', '  ┃', '  ┃  Build · Switchboard Mock Mock', `  ╹${'▀'.repeat(115)}`];
const BUSY_ROW = '   ⬝⬝⬝⬝⬝⬝⬝⬝  esc interrupt                                                                 tab agents  ctrl+p commands';

const thinkingScreen = [
  '  ┃',
  '  ┃  What does Switchboard do?',
  '  ┃',
  '     ▣  Build · Switchboard Mock',
  ...PROMPT_BOX,
  '   ■⬝⬝⬝⬝⬝⬝⬝  esc interrupt                                                                 tab agents  ctrl+p commands',
].join('\n');

const respondingScreen = [
  '  ┃  What does Switchboard do?',
  '  ┃',
  '     Switchboard',
  '     ▣  Build · Switchboard Mock',
  ...PROMPT_BOX,
  BUSY_ROW,
].join('\n');

const idleScreen = [
  '  ┃  done-by-opencode',
  '  ┃',
  '     The command printed done-by-opencode.',
  '     ▣  Build · Switchboard Mock · 8.9s',
  ...PROMPT_BOX,
  '   /tmp/switchboard-opencode-LRdHa9/home/project                                                 2.6K  ctrl+p commands',
].join('\n');

const startScreen = [
  '                       ┃',
  '                       ┃  Ask anything… "Fix broken tests"',
  '                       ┃',
  '                       ┃  Build · Switchboard Mock Mock',
  `                       ╹${'▀'.repeat(74)}`,
  '                                                                       tab agents  ctrl+p commands',
  '  ~/project                                                                                                    1.18.33',
].join('\n');

const permissionPanel = [
  '     $ curl -X POST http://127.0.0.1:9/deploy',
  '     ▣  Build · Switchboard Mock',
  '  ┃',
  '  ┃  △ Permission required',
  '  ┃    # Shell command',
  '  ┃',
  '  ┃  $ curl -X POST http://127.0.0.1:9/deploy',
  '  ┃',
  '  ┃',
  '  ┃   Allow once   Allow always   Reject                                 ctrl+f fullscreen  ⇆ select  enter confirm',
  '  ┃',
].join('\n');

const questionPanel = [
  '     → Asked 1 question',
  '     ▣  Build · Switchboard Mock',
  '  ┃',
  '  ┃  Which port should the dev server use?',
  '  ┃',
  '  ┃  1. 3000',
  '  ┃     The default',
  '  ┃  2. 8080',
  '  ┃     The alternative',
  '  ┃  3. Type your own answer',
  '  ┃',
  '  ┃  ↑↓ select  enter submit  esc dismiss',
  '  ┃',
].join('\n');

const pendingToolScreen = [
  '  ┃',
  '  ┃  Trigger the deploy hook',
  '  ┃',
  '     $ curl -X POST http://127.0.0.1:9/deploy',
  '     ▣  Build · Switchboard Mock',
  ...PROMPT_BOX,
  '   ■■⬝⬝⬝⬝⬝⬝  esc interrupt                                                                 tab agents  ctrl+p commands',
].join('\n');

/** The session view of a first prompt before its first answer: no context size in the hint row yet. */
const newSessionScreen = [
  '  ┃',
  '  ┃  What does Switchboard do?',
  '  ┃',
  '  ┃',
  '  ┃',
  '  ┃',
  '  ┃  Build · Switchboard Mock Mock',
  `  ╹${'▀'.repeat(115)}`,
  '   /tmp/switchboard-opencode-u2fUbY/home/project                                           tab agents  ctrl+p commands',
].join('\n');

/**
 * A turn that ended on the API's refusal of the key (observed): opencode shows the API's message as
 * an error block (`┃` rows) right under the user's turn, closes the assistant message with its `▣`
 * row without a duration, and is idle. No marker of its own says "error"; the block in that place
 * and the key-refused words do.
 */
const keyRefusedRows = [
  '  ┃',
  '  ┃  Try again',
  '  ┃',
  '  ┃',
  '  ┃  Incorrect API key provided: sk-mock-********************0000. You can find your API key at https://platform.',
  '  ┃  openai.com/account/api-keys.',
  '  ┃',
  '     ▣  Build · Switchboard Mock',
];
const IDLE_HINT_ROW =
  '   /tmp/switchboard-opencode-s6TBVb/home/project                                                 2.6K  ctrl+p commands';
/** The last `┃` block above the prompt, when it says the key was refused, then the `▣` row without a duration and the idle prompt. */
const KEY_REFUSED =
  /^ {2}┃ {2}(?<message>(?:Incorrect API key provided|Invalid API key|invalid_api_key|Unauthorized|Authentication failed)[^\n]*(?:\n {2}┃ {2}[^\n]+)*)\n {2}┃\n {5}▣ {2}[^·\n]+ · [^·\n]+\n(?: {2}┃[^\n]*\n)+ {2}╹▀+\n {3}(?!\S*[⬝■])[^\n]*ctrl\+p commands$/mu;

/**
 * A turn that ended on an API error opencode gave up on (observed): 500s answered with OpenAI's
 * `server_error` body and a `retry-after` of 1 s, retried five times (its `RETRY_MAX_RETRIES`),
 * then shown like the refused key: the API's message as an error block under the user's turn and
 * the `▣` row without a duration. The first turn of a run, so the hint row shows no context size.
 */
const gaveUpRows = [
  '  ┃',
  '  ┃  Say something',
  '  ┃',
  '  ┃',
  '  ┃  The server had an error while processing your request. Sorry about that!',
  '  ┃',
  '     ▣  Build · Switchboard Mock',
];
const NEW_SESSION_HINT_ROW =
  '   /tmp/switchboard-opencode-3gSySb/home/project                                           tab agents  ctrl+p commands';
/**
 * Any error block that ended the turn (structural: opencode draws it only for an error other than
 * an interrupt, `MessageAbortedError`): a `┃` block opened right under the user's block (two empty
 * `┃` rows), closed by the `▣` row without a duration, and the idle prompt under it.
 */
const ENDED_ON_ERROR =
  /(?:^|\n) {2}┃\n {2}┃\n {2}┃ {2}(?<message>[^\n]+(?:\n {2}┃ {2}[^\n]+)*)\n {2}┃\n {5}▣ {2}[^·\n]+ · [^·\n]+\n(?: {2}┃[^\n]*\n)+ {2}╹▀+\n {3}(?!\S*[⬝■])[^\n]*ctrl\+p commands$/u;

const exitSummary = [
  '  █▀▀█ █▀▀█ █▀▀█ █▀▀▄ █▀▀▀ █▀▀█ █▀▀█ █▀▀█',
  '  █  █ █  █ █▀▀▀ █  █ █    █  █ █  █ █▀▀▀',
  '  ▀▀▀▀ █▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀',
  '  Session   OK.',
  '  Continue  opencode -s ses_df1da52a5ffePCcXad3oO0KfV2',
].join('\n');

/**
 * The hint row of a running turn: the sliding block spinner, then `esc interrupt`. In a narrow pane
 * the row wraps and `esc interrupt` breaks apart (`■■⬝⬝⬝⬝⬝⬝  esc     tab …` over `interrup…` and
 * `t` at 44 columns), so the spinner alone says busy.
 */
const BUSY_HINT = /^\s*(?:[■⬝]{4,}\s|\S*\s+esc interrupt\b)/u;
/** Glyphs that open an inline tool row (`$ cmd`, `→ Read …`, `← Edit …`, `✱ Glob …`, `⚙ tool`, `% WebFetch`, `~ pending`). */
const TOOL_GLYPHS = '$→←✱⚙%~';

/** The prompt box's closing row, then the hint row (wrapped over up to three rows) ending in `ctrl+p commands`. */
const IDLE_HINT_ROWS = /(?:^|\n)[ \t]*╹▀+\n(?:[^\n]*\n){0,2}[^\n]*ctrl\+p\b[\s\S]*\bcommands$/u;

/** A panel is the run of `┃` rows around its title or its key hints. */
const PANEL = /^\s*┃/u;

export const opencodeRules: RuleSetInput = {
  agent: 'opencode',
  version: VERSION,
  rules: [
    {
      id: 'api-key-refused',
      priority: 850,
      implies: { primary: 'waiting', detail: 'login' },
      region: 'bottom_non_empty_lines(16)',
      match: { regex: KEY_REFUSED },
      report: KEY_REFUSED,
      sample: [...keyRefusedRows, ...PROMPT_BOX, IDLE_HINT_ROW].join('\n'),
      lookalikes: [
        { sample: [...keyRefusedRows, ...PROMPT_BOX, BUSY_ROW].join('\n'), why: 'still busy: the error is not the end of the turn yet' },
        {
          sample: [...keyRefusedRows, '  ┃', '  ┃  Try once more', '  ┃', '     ▣  Build · Switchboard Mock', ...PROMPT_BOX, BUSY_ROW].join(
            '\n',
          ),
          why: 'a later turn runs',
        },
        { sample: idleScreen, why: 'a turn that ended on an answer' },
      ],
      source: `opencode ${VERSION}, observed against test/fixtures/openaiChat's mock answering 401 with OpenAI's invalid_api_key body (2026-11-28)`,
    },
    {
      id: 'api-error-gave-up',
      priority: 840,
      implies: { primary: 'waiting', detail: 'api_error' },
      region: 'bottom_non_empty_lines(16)',
      match: { regex: ENDED_ON_ERROR },
      report: ENDED_ON_ERROR,
      sample: [...gaveUpRows, ...PROMPT_BOX, NEW_SESSION_HINT_ROW].join('\n'),
      lookalikes: [
        { sample: [...gaveUpRows, ...PROMPT_BOX, BUSY_ROW].join('\n'), why: 'still busy: the error is not the end of the turn yet' },
        { sample: thinkingScreen, why: 'a turn waiting for its first answer has no error block' },
        { sample: idleScreen, why: 'a turn that ended on an answer' },
      ],
      source: `opencode ${VERSION}, observed against test/fixtures/openaiChat's mock answering 500 with OpenAI's server_error body and retry-after 1 s until opencode gave up (2026-11-28)`,
    },
    {
      id: 'permission-required',
      priority: 900,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'bottom_non_empty_lines(24)',
      match: { contains: 'Permission required', line: /Allow once\s+Allow always\s+Reject\b/u },
      prompt: { anchor: /^\s*┃\s*△ Permission required/u, within: PANEL, top: /△ Permission required/u },
      sample: permissionPanel,
      lookalikes: [
        { sample: pendingToolScreen, why: 'the tool before its panel is drawn' },
        { sample: questionPanel, why: 'a question, not a permission' },
      ],
      source: rec('opencode-permission-yes', '17.23 s'),
    },
    {
      id: 'question',
      priority: 880,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'bottom_non_empty_lines(24)',
      match: { line: /^\s*┃\s+↑↓ select\s+enter submit\s+esc dismiss/u },
      prompt: { anchor: /^\s*┃\s+↑↓ select\s+enter submit/u, within: PANEL, omit: [/^\s*┃\s+↑↓ select\s+enter submit/u] },
      sample: questionPanel,
      lookalikes: [{ sample: permissionPanel, why: 'a permission panel' }],
      source: rec('opencode-question', '17.91 s'),
    },
    {
      id: 'tool-pending',
      priority: 700,
      implies: { primary: 'active', detail: 'using_tools' },
      region: 'bottom_non_empty_lines(16)',
      // The newest message's last block is an inline tool row (not yet run, or running).
      match: { line: BUSY_HINT, regex: new RegExp(`^ {5}[${TOOL_GLYPHS}] [^\\n]*\\n {5}▣ [^\\n]*$(?![\\s\\S]*^ {5}▣ )`, 'mu') },
      sample: pendingToolScreen,
      lookalikes: [
        { sample: thinkingScreen, why: 'no tool yet' },
        { sample: respondingScreen, why: 'answer text above the message footer' },
      ],
      source: rec('opencode-permission-no', '17.15 s'),
    },
    {
      id: 'responding',
      priority: 620,
      implies: { primary: 'active', detail: 'responding' },
      region: 'bottom_non_empty_lines(16)',
      // Answer text right above the newest message's `▣` footer, while the turn runs.
      match: { line: BUSY_HINT, regex: new RegExp(`^ {5}[^\\s▣${TOOL_GLYPHS}][^\\n]*\\n {5}▣ [^\\n]*$(?![\\s\\S]*^ {5}▣ )`, 'mu') },
      sample: respondingScreen,
      lookalikes: [
        { sample: thinkingScreen, why: 'the prompt, not answer text, above the footer' },
        { sample: idleScreen, why: 'the turn is over' },
        { sample: pendingToolScreen, why: 'a tool row above the footer' },
      ],
      source: rec('opencode-plain-qa-exit', '20.27 s'),
    },
    {
      id: 'esc-interrupt',
      priority: 500,
      implies: { primary: 'active', detail: null },
      region: 'bottom_non_empty_lines(4)',
      match: { line: BUSY_HINT },
      sample: thinkingScreen,
      lookalikes: [
        { sample: idleScreen, why: 'the idle hint row' },
        { sample: startScreen, why: 'the start screen' },
      ],
      source: rec('opencode-plain-qa-exit', '15.81 s'),
    },
    {
      id: 'new-session-busy',
      priority: 510,
      implies: { primary: 'active', detail: null },
      region: 'bottom_non_empty_lines(1)',
      // The first prompt of a run: opencode shows its session view with the directory and the
      // start screen's `tab agents` hint (no context size yet) for up to 15 s while it creates the
      // session and reports it busy, before the spinner row appears. Once a turn has ended the
      // row shows the context size instead.
      match: { line: /^\s+[~/]\S*\s{2,}tab agents\s{2}ctrl\+p commands$/u },
      sample: newSessionScreen,
      lookalikes: [
        { sample: idleScreen, why: 'the idle hint row shows the context size' },
        { sample: startScreen, why: 'the start screen has the hint alone on its row' },
      ],
      source: rec('opencode-plain-qa-exit', '15.76 s'),
    },
    {
      id: 'idle-hint-row',
      priority: 310,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(4)',
      // The hint row without the spinner: opencode swaps `esc interrupt` for the directory only
      // when the session turns idle (tool calls and permission panels keep or replace the row).
      // In a narrow pane the row wraps: the directory over two rows, `ctrl+p` and `commands` apart.
      match: { regex: IDLE_HINT_ROWS, not: { any: [{ line: BUSY_HINT }, { line: /esc interrupt|tab agents/u }] } },
      sample: idleScreen,
      lookalikes: [
        { sample: thinkingScreen, why: 'the busy hint row' },
        { sample: questionPanel, why: 'a question replaces the prompt and its hint row' },
      ],
      source: rec('opencode-tool-autorun', '23.31 s'),
      strongIdle: true,
    },
    {
      id: 'start-screen',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(3)',
      match: { line: /^\s+tab agents\s{2}ctrl\+p commands$/u },
      sample: startScreen,
      lookalikes: [{ sample: thinkingScreen, why: 'the busy hint row ends the same way' }],
      source: rec('opencode-plain-qa-exit', '8.89 s'),
    },
    {
      id: 'exit-summary',
      priority: 305,
      implies: { primary: 'idle', detail: 'ready' },
      // `/exit` prints the session and how to continue it; the process ends right after.
      region: 'bottom_non_empty_lines(6)',
      match: { line: /^\s+Continue\s+opencode -s ses_\w+$/u },
      sample: exitSummary,
      lookalikes: [{ sample: idleScreen, why: 'the prompt' }],
      source: rec('opencode-plain-qa-exit', '26.41 s'),
    },
  ],
};
