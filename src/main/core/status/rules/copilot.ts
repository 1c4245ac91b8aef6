/**
 * GitHub Copilot CLI status rules, cut from the recordings in test/fixtures/recordings/copilot/
 * (Copilot CLI 1.0.102, BYOK against the mock Chat Completions API, 120x40, TERM=xterm-256color;
 * re-record with `npx tsx test/fixtures/recordings/copilot/record.ts`). Every sample is a crop of a
 * recorded screen, unchanged (runs of blank rows written as `gap(n)`).
 *
 * Anatomy (Ink, alternate screen): a tab bar, the conversation from the top (the user's turn
 * `❯ text … HH:MM`, answers `● text`, tool blocks `$ Shell <description>` with the command
 * indented below), blank rows, the working-directory row (`~/project [⎇ main]`), the composer `❯`
 * between two full-width rules, and one footer row. The footer says what the session does: while a
 * turn runs it is a spinner glyph (`◉ ◎ ● ○`) and `Working` (`· 24 B` once bytes stream, `esc esc
 * interrupt` or `esc esc edit prompt`); at rest it lists the key hints (`← open sidebar · Interactive
 * · Manual Approval · / commands · ? help …`), drawn only once the turn is over, so it is a strong
 * idle signal. While it starts the footer reads `● Loading:` (no rule: the run stays `starting`
 * until the hints are drawn). A finished tool's heading gains its result summary (`1 line…`, `No
 * Content`); a rejected one turns `✗ … Operation aborted by user`. Permission requests and the
 * folder-trust question replace the composer with a rounded box whose menu starts `❯ 1. Yes`. The
 * window title (`GitHub Copilot`, `<first prompt> - GitHub Copilot`) never says busy or idle, so no
 * title rule.
 */
import type { RuleSetInput } from '../ruleSchema';

const VERSION = '1.0.102';
const rec = (name: string, at: string) => `GitHub Copilot CLI ${VERSION}, recording test/fixtures/recordings/copilot/${name}.cast @ ${at}`;

const RULE = '─'.repeat(120);
const gap = (rows: number): string[] => Array<string>(rows).fill('');
/** The working-directory row, the empty composer between its rules, and the footer row under it. */
const composer = (footer: string): string[] => [' ~/project [⎇ main]', RULE, '❯', RULE, footer];
const IDLE_FOOTER =
  ' ← open sidebar · Interactive · Manual Approval · / commands · ? help · tab next tab                   switchboard-mock';
const BOX_TOP = `╭${'─'.repeat(118)}╮`;
const BOX_BOTTOM = `╰${'─'.repeat(118)}╯`;
const boxed = (text: string) => `│ ${text.padEnd(116)} │`;

/** At 48 columns, start-up over (observed; the transcript's scrollbar column on the right). */
const narrowIdleScreen = [
  ' ! Model "switchboard-mock" is not in the      ┃',
  '   built-in catalog. Using defaults for:       ┃',
  '                                               ┃',
  ' ~/project [⎇ main]',
  '─'.repeat(48),
  '❯',
  '─'.repeat(48),
  ' Interactive · Manual Approval switchboard-mock',
].join('\n');

/** copilot-plain-qa-exit @ 8500 ms */
const thinkingScreen = [
  ' ❯ What does Switchboard do?                                                                                     07:08',
  ...gap(17),
  ...composer(' ◎ Working esc esc edit prompt                                                                         switchboard-mock'),
].join('\n');

/** copilot-plain-qa-exit @ 10500 ms */
const respondingScreen = [
  ' ❯ What does Switchboard do?                                                                                     07:08',
  ...gap(1),
  ' ● Switchboard keeps every pane honest: this answer streams w',
  ...gap(15),
  ...composer(' ◉ Working · 62 B esc esc interrupt                                                                    switchboard-mock'),
].join('\n');

/** copilot-plain-qa-exit @ 13500 ms */
const idleScreen = [
  ' ❯ What does Switchboard do?                                                                                     07:08',
  ...gap(1),
  ' ● Switchboard keeps every pane honest: this answer streams word by word from the mock Chat Completions API.',
  ...gap(15),
  ...composer(IDLE_FOOTER),
].join('\n');

/** copilot-tool-autorun @ 9500 ms */
const toolRunningScreen = [
  ' ❯ Run the wait command                                                                                          07:08',
  ...gap(1),
  ' $ Shell Wait, then say done',
  '   node -e "setTimeout(() => console.log(\'done-by-copilot\'), 3000)"',
  ...gap(14),
  ...composer(' ● Working · 120 B esc esc interrupt                                                                   switchboard-mock'),
].join('\n');

/** copilot-tool-autorun @ 11800 ms */
const toolDoneScreen = [
  ' ❯ Run the wait command                                                                                          07:08',
  ...gap(1),
  ' $ Shell Wait, then say done 1 line…',
  '   node -e "setTimeout(() => console.log(\'done-by-copilot\'), 3000)"',
  ...gap(14),
  ...composer(' ◎ Working · 120 B esc esc interrupt                                                                   switchboard-mock'),
].join('\n');

/** copilot-permission-no @ 14500 ms */
const rejectedScreen = [
  ' ❯ Trigger the deploy hook                                                                                       07:09',
  ...gap(1),
  ' ✗ Shell Post the deploy hook Operation aborted by user',
  '   touch deploy-requested.flag',
  '   Approval check',
  '     └ - Confirmation cancelled for shell command (touch)',
  ...gap(1),
  ' ● Operation cancelled by user',
  ...gap(10),
  ...composer(IDLE_FOOTER),
].join('\n');

/** copilot-permission-yes @ 10000 ms */
const permissionScreen = [
  BOX_TOP,
  '│ Post the deploy hook                                                                                                 │',
  '│ ──────────────────────────────────────────────────────────────────────────────────────────────────────────────────── │',
  '│ ╭──────────────────────────────────────────────────────────────────────────────────────────────────────────────────╮ │',
  '│ │ touch deploy-requested.flag                                                                                      │ │',
  '│ ╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯ │',
  '│                                                                                                                      │',
  '│ Do you want to run this command?                                                                                     │',
  '│                                                                                                                      │',
  '│ ❯ 1. Yes                                                                                                             │',
  "│   2. Yes, and don't ask again for `touch` in this repo (~/project)                                                   │",
  '│   3. No, and tell Copilot what to do differently (Esc to stop)                                                       │',
  '│                                                                                                                      │',
  '│ ↑/↓ to navigate · enter to select · esc to cancel                                                                    │',
  '╰──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────╯',
].join('\n');

/** copilot-api-error-retries @ 9000 ms */
const retryScreen = [
  ' ❯ Say something despite errors                                                                                  07:10',
  ...gap(1),
  ' ● Request failed due to a transient API error. Retrying...',
  ...gap(15),
  ...composer(' ◉ Working esc esc edit prompt                                                                         switchboard-mock'),
].join('\n');

/** copilot-permission-no @ 13000 ms */
const cancellingScreen = [
  ' ❯ Trigger the deploy hook                                                                                       07:09',
  ...gap(1),
  ' $ Shell Post the deploy hook',
  '   touch deploy-requested.flag',
  ...gap(14),
  ...composer(' ● Cancelling                                                                                          switchboard-mock'),
].join('\n');

/** copilot-plain-qa-exit @ 15690 ms: a slash command typed, its menu open above the composer. */
const typedCommandScreen = [
  RULE,
  '❯ /exit [print]',
  RULE,
  ' Interactive · Manual Approval · @ files · # issues                                                    switchboard-mock',
].join('\n');

/** copilot-plain-qa-exit @ 15800 ms: the summary `/exit` leaves before the process ends. */
const exitSummaryScreen = [
  '  ╭─╮╭─╮   Changes    +0 -0',
  '  ╰─╯╰─╯   Duration   14s',
  '  █ ▘▝ █   Tokens     ↑ 6.4k • ↓ 27',
  '   ▔▔▔▔    Resume     copilot --resume=85b10f26-3083-4a06-a0eb-71cec68a124c',
].join('\n');

/** copilot-question @ 10000 ms: the ask_user form in place of the composer. */
const questionScreen = [
  ' ❯ Set up the dev server                                                                                         07:10',
  ...gap(1),
  ' ○ Asking user Waiting for response',
  ...gap(9),
  RULE,
  ' Copilot needs information.',
  ' Which port should the dev server use?',
  ...gap(1),
  ' Port:',
  ' ❯ 3000',
  '   8080',
  '   Other (type your answer)',
  ...gap(1),
  ' ↑/↓ select · enter accept · ctrl+d decline · esc cancel',
  RULE,
].join('\n');

/** Observed through the harness with `trusted: false` (test/fixtures/openaiChat/copilotHarness.ts). */
const trustScreen = [
  BOX_TOP,
  boxed('Confirm folder trust'),
  boxed('─'.repeat(116)),
  boxed(`╭${'─'.repeat(114)}╮`),
  boxed(`│ ${'/tmp/switchboard-copilot-G9wCgs/home/project'.padEnd(112)} │`),
  boxed(`╰${'─'.repeat(114)}╯`),
  boxed(''),
  boxed('Copilot can read files in this folder and, with your permission, edit them or run code and shell commands. It will'),
  boxed('remember your permissions for the rest of this session.'),
  boxed(''),
  boxed('Do you trust the files in this folder?'),
  boxed(''),
  boxed('❯ 1. Yes'),
  boxed('  2. Yes, and remember this folder for future sessions'),
  boxed('  3. No (Esc)'),
  boxed(''),
  boxed('↑/↓ to navigate · enter to select · esc to cancel'),
  BOX_BOTTOM,
].join('\n');

/** The footer row while a turn runs: a spinner glyph, then `Working`. */
const WORKING = /^ \S Working\b/u;
const FOOTER = 'after_last_horizontal_rule';
/** Once the transcript overflows, a scrollbar column ends its rows: its track `┃`, or its thumb `█` on the rows in view. */
const SCROLLBAR = '(?: *[┃█])?';
/**
 * The newest block of the conversation, whose heading row starts with `glyph`: that row, then only
 * its indented rows and blank rows down to the working-directory row right above the composer.
 */
const newestBlock = (glyph: string, heading = '[^\\n]*') =>
  new RegExp(`(?:^|\\n) ${glyph} ${heading}${SCROLLBAR}(?:\\n(?: {2}[^\\n]*)?)*\\n \\S[^\\n]*$`, 'u');
/** What a finished tool's heading ends with: its result summary. */
const TOOL_SUMMARY = String.raw` (?:\d+ lines?…|No Content)`;
/**
 * The footer at rest: the mode and permission labels (`Interactive · Manual Approval`), then the
 * key hints, `/ commands …` with an empty composer or `@ files …` with text in it. A narrow pane
 * drops `← open sidebar ·` and cuts the hints (`Interactive · Manual Approval · / com` at 56
 * columns), so only their first character is read.
 */
const FOOTER_LABEL = String.raw`\p{Lu}[\p{L} -]* · `;
const FOOTER_START = '^ (?:← open sidebar · )?';
const footerHints = (first: '/' | '@') => new RegExp(`${FOOTER_START}(?:${FOOTER_LABEL}){1,2}${first}`, 'u');
/** Only the mode and permission labels, as a footer too narrow for any hint keeps them. */
const FOOTER_LABELS_ONLY = new RegExp(`${FOOTER_START}${FOOTER_LABEL}\\p{Lu}`, 'u');
/** A dialog's question row inside its box and its first option. */
const DIALOG_MENU = /^│ ❯ 1\. Yes\b/u;
const DIALOG_FOOTER = /^│ ↑\/↓ to navigate · enter to select · esc to cancel/u;
/** The ask_user form's key hints. */
const FORM_KEYS = /^ ↑\/↓ select · enter accept · ctrl\+d decline/u;
const dialog = (anchor: RegExp) => ({ anchor, top: /^╭─/u, bottom: /^╰─/u, omit: [DIALOG_FOOTER] });

/** A refused key (401 on every retry): Copilot retries twice, then names the provider and its key variables. */
const authFailedScreen = [
  ' ❯ Say something                                                                                                 02:58',
  ...gap(1),
  ' ● Request failed due to a transient API error. Retrying...',
  ...gap(1),
  ' ● Request failed due to a transient API error. Retrying...',
  ...gap(1),
  ' ✗ Authentication failed with provider at http://127.0.0.1:39067/v1 (HTTP 401).',
  '     Check your COPILOT_PROVIDER_API_KEY, COPILOT_PROVIDER_API_KEY_COMMAND, or COPILOT_PROVIDER_BEARER_TOKEN.',
  ...gap(10),
  ...composer(IDLE_FOOTER),
].join('\n');
const AUTH_FAILED = 'Authentication failed with provider at [^\\n]*\\(HTTP 40[13]\\)\\.';

/**
 * Copilot's own retries spent (its `Failed to get response from the AI model; retried N times
 * (total retry wait time: …) Last error: <status> <the API's message>`, or `; stopped after …` for
 * a stalled stream), the API's words wrapped under it. The wrap drops the characters at the break
 * (`429 Ra` / `limit reached`), so only whole rows are read: the status code after `Last error:`,
 * and the billing words of the API's message. Copilot prints these rows as it ends the turn (the
 * newest block, read without waiting for the footer, which swaps `Working` for its key hints up to
 * 0.6 s later under load: copilot-blocked.cast, 401 at 14.33 s, row at 14.59 s, footer at 14.92 s).
 */
const GAVE_UP = 'Failed to get response from the AI model;';
/** Within the newest block: its heading row and the rows wrapped under it (indented to the text). */
const IN_BLOCK = String.raw`(?:[^\n]|\n {3})*?`;
const LAST_ERROR_429 = String.raw`(?=${IN_BLOCK}Last error:\s+429\b)`;
const BILLING_WORDS = `${IN_BLOCK}(?:quota|billing)`;
/** The ✗ block's rows: the heading and the rows wrapped under it. */
const errorReport = (heading: string) => new RegExp(`^ ✗ (?<message>${heading}[^\\n]*(?:\\n {3}\\S[^\\n]*)*)`, 'mu');
const UNREACHABLE = '(?:Could not connect to (?:local model )?provider|Connection timed out to provider) at ';
const TURN_RUNS = { region: FOOTER, line: WORKING };

/**
 * A turn that ended on an error (observed at 120x40): the user's turn sent at `time`, a blank row, the
 * retry notices (`notice` five times, or none when Copilot retried silently), the `✗` block, then
 * blank rows down to the composer.
 */
function endedOnError(time: string, notice: string | null, errorRows: string[]): string {
  const notices =
    notice === null
      ? []
      : Array<string[]>(5)
          .fill([` ● ${notice}`, ''])
          .flat();
  return [
    ` ❯ Say something${' '.repeat(97)}${time}`,
    ...gap(1),
    ...notices,
    ...errorRows,
    ...gap(notice === null ? 16 - errorRows.length : 6 - errorRows.length),
    ...composer(IDLE_FOOTER),
  ].join('\n');
}

/** Five 500s retried, then given up (the mock answering every request with OpenAI's 500). */
const gaveUpScreen = endedOnError('12:01', 'Request failed due to a transient API error. Retrying...', [
  ' ✗ Failed to get response from the AI model; retried 5 times (total retry wait time: 16.03 seconds) Last error: 500 Th',
  '   server had an error while processing your request. Sorry about that!',
]);

/** OpenAI's per-minute limit (429 `rate_limit_exceeded`, `retry-after: 2`) on every request: retried without a notice, then given up. */
const rateLimitScreen = endedOnError('11:59', null, [
  ' ✗ Failed to get response from the AI model; retried 5 times (total retry wait time: 10.69 seconds) Last error: 429 Ra',
  '   limit reached for gpt-4o in organization org-mock on requests per min (RPM): Limit 500, Used 500, Requested 1.',
  '   Please try again in 2s.',
]);

/** OpenAI's `insufficient_quota` (429, no `retry-after`) on every request: retried on Copilot's own back-off, then given up. */
const quotaScreen = endedOnError('12:04', null, [
  ' ✗ Failed to get response from the AI model; retried 5 times (total retry wait time: 57.04 seconds) Last error: 429 Yo',
  '   exceeded your current quota, please check your plan and billing details. For more information on this error, read t',
  '   docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
]);

/** The provider's port closed: five retries, then Copilot names the provider it cannot reach. */
const unreachableScreen = endedOnError('11:59', 'Response was interrupted due to a server error. Retrying...', [
  ' ✗ Could not connect to local model provider at http://127.0.0.1:9/v1.',
  '     Check that the service is running and the port is correct.',
]);

export const copilotRules: RuleSetInput = {
  agent: 'copilot',
  version: VERSION,
  rules: [
    {
      id: 'permission-prompt',
      priority: 900,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'bottom_non_empty_lines(24)',
      // Commands, file writes and URLs each ask (the key-hint row under the menu: the box is complete); "Do you want to …?" with `❯ 1. Yes` preselected.
      match: { line: [/^│ Do you want to (?!trust)[^?]*\?/u, DIALOG_MENU, DIALOG_FOOTER] },
      prompt: dialog(/^│ Do you want to (?!trust)[^?]*\?/u),
      sample: permissionScreen,
      lookalikes: [
        { sample: trustScreen, why: 'the folder-trust question' },
        { sample: idleScreen, why: 'the idle composer' },
      ],
      source: rec('copilot-permission-yes', '10.0 s'),
    },
    {
      id: 'ask-user',
      priority: 880,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'prompt_box',
      // The ask_user tool's form replaces the composer between the two rules.
      match: { contains: 'Copilot needs information.', line: FORM_KEYS },
      prompt: { anchor: /^ Copilot needs information\./u, omit: [FORM_KEYS] },
      sample: questionScreen,
      lookalikes: [
        { sample: permissionScreen, why: 'a tool permission' },
        { sample: idleScreen, why: 'the idle composer' },
      ],
      source: rec('copilot-question', '10.0 s'),
    },
    {
      id: 'folder-trust',
      priority: 870,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'bottom_non_empty_lines(24)',
      // Shown at start for a folder not yet trusted; the run cannot go on until it is answered.
      match: { line: [/^│ Do you trust the files in this folder\?/u, DIALOG_MENU, DIALOG_FOOTER] },
      prompt: dialog(/^│ Do you trust the files in this folder\?/u),
      sample: trustScreen,
      lookalikes: [{ sample: permissionScreen, why: 'a tool permission' }],
      source: `GitHub Copilot CLI ${VERSION}, observed through the harness with the folder not trusted (120x40)`,
    },
    {
      id: 'provider-auth-failed',
      priority: 850,
      implies: { primary: 'waiting', detail: 'login' },
      region: 'above_prompt_box',
      match: { regex: newestBlock('✗', AUTH_FAILED) },
      report: new RegExp(`^ ✗ (?<message>${AUTH_FAILED})`, 'mu'),
      sample: authFailedScreen,
      lookalikes: [
        { sample: retryScreen, why: 'still retrying' },
        { sample: idleScreen, why: 'a turn that ended on an answer' },
      ],
      source: `GitHub Copilot CLI ${VERSION}, observed against test/fixtures/openaiChat's mock answering every request 401 with OpenAI's invalid_api_key body (2026-11-28): two retries, then this`,
    },
    {
      id: 'gave-up-quota',
      priority: 846,
      implies: { primary: 'waiting', detail: 'quota' },
      region: 'above_prompt_box',
      // A 429 whose message is about the plan or billing (OpenAI's `insufficient_quota`): credit used up.
      match: { regex: newestBlock('✗', `${GAVE_UP}${LAST_ERROR_429}(?=${BILLING_WORDS})[^\\n]*`) },
      report: errorReport(GAVE_UP),
      sample: quotaScreen,
      lookalikes: [
        { sample: rateLimitScreen, why: 'a rate limit' },
        { sample: gaveUpScreen, why: 'server errors' },
      ],
      source: `GitHub Copilot CLI ${VERSION}, observed against test/fixtures/openaiChat's mock answering every request 429 insufficient_quota (2026-11-28, 120x40): five retries over 57 s without a notice, then this`,
    },
    {
      id: 'gave-up-limit',
      priority: 845,
      implies: { primary: 'waiting', detail: 'limit' },
      region: 'above_prompt_box',
      // The last error was a 429: a rate or usage limit (the API's words say which, and when to try again).
      match: { regex: newestBlock('✗', `${GAVE_UP}${LAST_ERROR_429}(?!${BILLING_WORDS})[^\\n]*`) },
      report: errorReport(GAVE_UP),
      sample: rateLimitScreen,
      lookalikes: [
        { sample: gaveUpScreen, why: 'server errors' },
        { sample: quotaScreen, why: 'credit used up' },
      ],
      source: `GitHub Copilot CLI ${VERSION}, observed against test/fixtures/openaiChat's mock answering every request 429 rate_limit_exceeded with retry-after: 2 (2026-11-28, 120x40): five silent retries, then this`,
    },
    {
      id: 'gave-up',
      priority: 840,
      implies: { primary: 'waiting', detail: 'api_error' },
      region: 'above_prompt_box',
      // Any other error its retries did not get past (5xx, a stalled stream).
      match: { regex: newestBlock('✗', `${GAVE_UP}[^\\n]*`) },
      report: errorReport(GAVE_UP),
      sample: gaveUpScreen,
      lookalikes: [
        { sample: retryScreen, why: 'still retrying' },
        { sample: idleScreen, why: 'a turn that ended on an answer' },
      ],
      source: `GitHub Copilot CLI ${VERSION}, observed against test/fixtures/openaiChat's mock answering every request with OpenAI's 500 server_error (2026-11-28, 120x40): five retries, then this`,
    },
    {
      id: 'provider-unreachable',
      priority: 835,
      implies: { primary: 'waiting', detail: 'network' },
      region: 'above_prompt_box',
      // Connection refused or timed out on every retry (`local model provider` for a loopback URL).
      match: { regex: newestBlock('✗', `${UNREACHABLE}[^\\n]*`) },
      report: errorReport(UNREACHABLE),
      sample: unreachableScreen,
      lookalikes: [
        { sample: authFailedScreen, why: 'a refused key' },
        { sample: idleScreen, why: 'a turn that ended on an answer' },
      ],
      source: `GitHub Copilot CLI ${VERSION}, observed with COPILOT_PROVIDER_BASE_URL on a closed loopback port (2026-11-28, 120x40): five retries 2-8 s apart, then this`,
    },
    {
      id: 'retrying',
      priority: 720,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'above_prompt_box',
      // After a failed request Copilot says so and retries by itself (the notice stays while it waits):
      // `Request failed due to a transient API error.` (a 5xx, a 401), `Response was interrupted due to
      // a server error.` (a refused connection), `Request failed (<status>).`.
      match: { regex: newestBlock('●', '[^\\n]*\\. Retrying\\.\\.\\.'), all: [TURN_RUNS] },
      sample: retryScreen,
      lookalikes: [
        { sample: respondingScreen, why: 'the answer streams' },
        { sample: unreachableScreen, why: 'the retries given up' },
      ],
      source: rec('copilot-api-error-retries', '9.0 s'),
    },
    {
      id: 'tool-running',
      priority: 700,
      implies: { primary: 'active', detail: 'using_tools' },
      region: 'above_prompt_box',
      // The newest block is a tool heading without its result summary yet.
      match: { regex: newestBlock('\\$', `(?![^\\n]*${TOOL_SUMMARY}\\n)[^\\n]*`), all: [{ region: FOOTER, line: WORKING }] },
      sample: toolRunningScreen,
      lookalikes: [
        { sample: toolDoneScreen, why: 'the tool is done' },
        { sample: rejectedScreen, why: 'the rejected call, turn over' },
      ],
      source: rec('copilot-tool-autorun', '9.5 s'),
    },
    {
      id: 'tool-done',
      priority: 690,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'above_prompt_box',
      // A finished tool is the newest block while the turn goes on: its result is on its way to the model.
      match: { regex: newestBlock('\\$', `[^\\n]*${TOOL_SUMMARY}`), all: [{ region: FOOTER, line: WORKING }] },
      sample: toolDoneScreen,
      lookalikes: [{ sample: toolRunningScreen, why: 'the tool still runs' }],
      source: rec('copilot-tool-autorun', '11.8 s'),
    },
    {
      id: 'responding',
      priority: 650,
      implies: { primary: 'active', detail: 'responding' },
      region: 'above_prompt_box',
      // The answer (`● text`) is the newest block while the turn runs.
      match: { regex: newestBlock('●'), all: [{ region: FOOTER, line: WORKING }] },
      sample: respondingScreen,
      lookalikes: [
        { sample: thinkingScreen, why: 'no answer yet' },
        { sample: idleScreen, why: 'the answer is complete' },
      ],
      source: rec('copilot-plain-qa-exit', '10.5 s'),
    },
    {
      id: 'working',
      priority: 500,
      implies: { primary: 'active', detail: null },
      region: FOOTER,
      match: { line: WORKING },
      sample: thinkingScreen,
      lookalikes: [{ sample: idleScreen, why: 'the footer shows its key hints' }],
      source: rec('copilot-plain-qa-exit', '8.5 s'),
    },
    {
      id: 'cancelling',
      priority: 310,
      implies: { primary: 'idle', detail: 'ready' },
      region: FOOTER,
      // After Escape the footer reads `● Cancelling` for a frame or two, then the key hints: the
      // turn is over at the user's word.
      match: { line: /^ \S Cancelling\b/u },
      sample: cancellingScreen,
      lookalikes: [{ sample: thinkingScreen, why: 'a turn runs' }],
      source: rec('copilot-permission-no', '13.0 s'),
    },
    {
      id: 'composer-typed',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      region: FOOTER,
      // With text in the composer the footer swaps its hints for the mode and the `@` / `#` pickers.
      match: { line: footerHints('@') },
      sample: typedCommandScreen,
      lookalikes: [{ sample: thinkingScreen, why: 'a turn runs' }],
      source: rec('copilot-plain-qa-exit', '15.69 s'),
    },
    {
      id: 'exit-summary',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(6)',
      // `/exit` prints the session's summary and how to resume it; the process ends right after.
      match: { line: /^\s*\S*\s*Resume\s+copilot --resume=\S+$/u },
      sample: exitSummaryScreen,
      lookalikes: [{ sample: idleScreen, why: 'the idle composer' }],
      source: rec('copilot-plain-qa-exit', '15.8 s'),
    },
    {
      id: 'footer-labels',
      priority: 290,
      implies: { primary: 'idle', detail: 'ready' },
      region: FOOTER,
      // Narrower still (48 columns and less) the footer keeps only the mode and permission labels:
      // no `Working` glyph, so the turn is over, but an empty and a typed composer look alike here.
      match: { line: FOOTER_LABELS_ONLY },
      sample: narrowIdleScreen,
      lookalikes: [{ sample: thinkingScreen, why: 'a turn runs' }],
      source: `GitHub Copilot CLI ${VERSION}, observed through the core at 48x18 (test/fixtures/openaiChat/copilotHarness.ts, mock Chat Completions API)`,
    },
    {
      id: 'composer-idle',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      region: FOOTER,
      // The key-hint footer replaces `Working` only once the turn is over.
      match: { line: footerHints('/') },
      sample: idleScreen,
      lookalikes: [
        { sample: thinkingScreen, why: 'a turn runs' },
        { sample: respondingScreen, why: 'the answer streams' },
      ],
      source: rec('copilot-plain-qa-exit', '13.5 s'),
      strongIdle: true,
    },
  ],
  progressNormalizers: [
    // The footer's spinner glyph and its byte counter (`· 24 B`) move while a stream hangs.
    { id: 'footer-spinner', pattern: /^ [◉◎●○] Working\b.*$/u, replace: ' Working' },
  ],
};
