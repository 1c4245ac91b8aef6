/**
 * pi status rules, cut from the recordings in test/fixtures/recordings/pi/ (pi 0.73.1, 120x40,
 * TERM=xterm-256color; re-record with `npx tsx test/fixtures/recordings/pi/record.ts`). Every
 * sample is a crop of a recorded screen, unchanged.
 *
 * Anatomy (pi-tui, inline in the normal screen, no alternate screen): the conversation, then a
 * status row, the editor between two full-width `─` rules, and a two-row footer (`~/project
 * (main)`, then token stats, the context share `0.5%/128k (auto)` and the model). While a turn runs
 * the status row is a braille spinner with `Working...` (pi's Loader; an extension may change the
 * message, not the glyph row); during a retry back-off it reads `Retrying (1/3) in 2s... (escape to
 * cancel)`; compaction shows `Auto-compacting...` in the same place. The row is removed when the
 * turn is over (agent_end), so the editor with no spinner above it is a strong idle signal. A bash
 * call is a block `$ <command>` with `Elapsed 0.0s` under it while it runs and `Took 3.2s` once
 * done. The user's prompt and the answer are both plain rows (only their background colour
 * differs), so the screen does not tell thinking from responding before a tool has run. pi has no
 * permission prompt and no question tool ("No permission popups", its README); extensions may add
 * dialogs, which these rules do not know. The window title (`π - <folder>`) never says busy or
 * idle, so no title rule.
 */
import type { RuleSetInput } from '../ruleSchema';

const VERSION = '0.73.1';
const rec = (name: string, at: string) => `pi ${VERSION}, recording test/fixtures/recordings/pi/${name}.cast @ ${at}`;

const RULE = '─'.repeat(120);
const EDITOR = [RULE, RULE];
const footer = (stats: string) => [
  '~/project (main)',
  `${stats}${' '.repeat(120 - stats.length - 'switchboard-mock'.length)}switchboard-mock`,
];

const idleScreen = [
  ' What does Switchboard do?',
  ' Switchboard keeps every pane honest: this answer streams word by word from the mock Chat Completions API.',
  ...EDITOR,
  ...footer('↑621 ↓27 0.5%/128k (auto)'),
].join('\n');

const startScreen = [
  '[Extensions]',
  '  pi-status-extension-17ca621c5bc69d76.mjs, session-start-probe.mjs',
  ...EDITOR,
  ...footer('0.0%/128k (auto)'),
].join('\n');

const workingScreen = [' What does Switchboard do?', ' ⠸ Working...', ...EDITOR, ...footer('0.0%/128k (auto)')].join('\n');

const bashRunningScreen = [
  ' Run the wait command',
  ` $ node -e "setTimeout(() => console.log('done-by-pi'), 3000)"`,
  ' Elapsed 0.0s',
  ' ⠴ Working...',
  ...EDITOR,
  ...footer('↑620 ↓28 0.5%/128k (auto)'),
].join('\n');

const toolDoneScreen = [
  ` $ node -e "setTimeout(() => console.log('done-by-pi'), 3000)"`,
  ' done-by-pi',
  ' Took 3.1s',
  ' ⠴ Working...',
  ...EDITOR,
  ...footer('↑620 ↓28 0.5%/128k (auto)'),
].join('\n');

const retryScreen = [
  ' Say something despite errors',
  ' Error: 500 Mock error 500',
  ' ⠙ Retrying (1/3) in 2s... (escape to cancel)',
  ...EDITOR,
  ...footer('0.0%/128k (auto)'),
].join('\n');

/** pi-tui's Loader frames. */
const SPINNER = '[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]';
/** The status row of a running turn (or retry, or compaction): a spinner frame and its message. */
const BUSY_ROW = new RegExp(`^\\s*${SPINNER} \\S`, 'u');
/** The footer's context row: `0.5%/128k (auto)` (or `?/128k` before the first answer of a resumed session). */
const CONTEXT_SHARE = /(?:\d+(?:\.\d)?%|\?)\/\d+(?:\.\d)?[kM]?\b/u;
/** Extension widgets may sit between the status row and the editor. */
const STATUS_ROWS = 'above_prompt_box(3)';

/**
 * The turn ended on a refused key (401/403, not retried): pi's ` Error: <status> …` paragraph (a
 * Spacer row before it; wrapped onto as many rows as the pane's width takes) is the last thing
 * above the editor.
 */
const KEY_REFUSED = /(?:^|\n\n) Error: (?<message>(?:401|403) [^\n]*(?:\n[^\n]+)*)$/u;
const keyRefusedRows = [
  ' Say something',
  '',
  ' Error: 401 Incorrect API key provided: sk-mock-********************0000. You can find your API key at',
  ' https://platform.openai.com/account/api-keys.',
];

/**
 * pi's own give-up (interactive-mode.js, `auto_retry_end` with `success: false`): after
 * `retry.maxRetries` (3) back-offs it prints ` Error: Retry failed after <n> attempts: <the last
 * error>` as the last paragraph above the editor, and the turn is over. The extension API carries
 * no retry event (agent-session.js emits `auto_retry_*` to the UI's listeners only, and
 * `after_provider_response` fires for answered requests only), so this row is pi's one account of
 * it. Wrapped rows follow without a blank row between; a blank row ends the paragraph, so an older
 * turn's give-up above a later prompt does not count. An Escape during the back-off ends it as
 * `Retry cancelled`: the person stopped it, nothing is blocked.
 */
const gaveUp = (cause: string) =>
  new RegExp(
    `(?:^|\\n\\n) Error: Retry failed after (?<attempt>\\d+) attempts: (?!Retry cancelled)(?<message>${cause}[^\\n]*(?:\\n[^\\n]+)*)$`,
    'u',
  );
/** The last error pi was given, by what it says (OpenAI's wording through the OpenAI SDK: `<status> <the API's message>`). */
const CAUSES = {
  /** OpenAI's `insufficient_quota` (HTTP 429): the credit is used up. */
  quota: String.raw`(?=[^]*?exceeded\s+your\s+current\s+quota)`,
  /** Any other 429 (OpenAI's `rate_limit_exceeded`: "Please try again in 20s", relative, so no reset). */
  limit: String.raw`(?=429\s|[^]*?\b(?:rate\s?limit|too\s+many\s+requests)\b)`,
  /** The OpenAI SDK's APIConnectionError / APIConnectionTimeoutError, fetch's own failure, the socket's codes. */
  network: String.raw`(?=Connection\s+error\.|Request\s+timed\s+out\.|fetch\s+failed|[^]*?\b(?:ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EAI_AGAIN)\b)`,
  /** Anything else retried until pi gave up: 5xx, overloaded, a stream cut. */
  apiError: '',
};
const GAVE_UP = {
  quota: gaveUp(CAUSES.quota),
  limit: gaveUp(CAUSES.limit),
  network: gaveUp(CAUSES.network),
  apiError: gaveUp(CAUSES.apiError),
};
const gaveUpRows = (rows: string[]) => [...rows, ...EDITOR, ...footer('↑630 ↓1 0.5%/128k (auto)')].join('\n');
const BLOCKED_SOURCE = `pi ${VERSION}, observed against test/fixtures/openaiChat's mock answering as OpenAI does (2026-11-28)`;
const limitGaveUpScreen = gaveUpRows([
  ' Error: 429 Rate limit reached for gpt-4o-mini in organization org-mock on requests per min (RPM): Limit 3, Used 3,',
  ' Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.',
  '',
  ' Error: Retry failed after 3 attempts: 429 Rate limit reached for gpt-4o-mini in organization org-mock on requests per',
  ' min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit',
  ' https://platform.openai.com/account/rate-limits to learn more.',
]);
const quotaGaveUpScreen = gaveUpRows([
  ' Error: 429 You exceeded your current quota, please check your plan and billing details. For more information on this',
  ' error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
  '',
  ' Error: Retry failed after 3 attempts: 429 You exceeded your current quota, please check your plan and billing details.',
  ' For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
]);
const networkGaveUpScreen = gaveUpRows([
  ' Error: Connection error.',
  '',
  ' Error: Connection error.',
  '',
  ' Error: Retry failed after 3 attempts: Connection error.',
]);
const serverGaveUpScreen = gaveUpRows([
  ' Error: 500 The server had an error while processing your request. Sorry about that!',
  '',
  ' Error: Retry failed after 3 attempts: 500 The server had an error while processing your request. Sorry about that!',
]);
/** An older turn's give-up, then a prompt answered (with no text). */
const laterAnswerScreen = gaveUpRows([
  ' Error: Retry failed after 3 attempts: 429 You exceeded your current quota, please check your plan and billing details.',
  ' For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
  '',
  '',
  ' Say four',
]);
const cancelledRetryScreen = gaveUpRows([
  ' Error: 500 The server had an error while processing your request. Sorry about that!',
  '',
  ' Error: Retry failed after 1 attempts: Retry cancelled',
]);

/**
 * pi's back-off row (`Retrying (<attempt>/<max>) in <s>s... (escape to cancel)`, the UI's
 * `auto_retry_start`) under the error it retries, a paragraph of its own.
 */
const RETRY_ROW = String.raw`\s*${SPINNER} Retrying \((?<attempt>\d+)\/(?<max>\d+)\) in \d+s\.\.\.[^\n]*(?:\n[^\n]*){0,2}$`;
const RETRYING = new RegExp(String.raw`(?:(?:^|\n) Error: (?<message>[^\n]+(?:\n[^\n]+)*)\n+)?${RETRY_ROW}`, 'u');

const blockedRule = (id: string, detail: 'quota' | 'limit' | 'network' | 'api_error', priority: number, regex: RegExp, sample: string) => ({
  id,
  priority,
  implies: { primary: 'waiting' as const, detail },
  region: 'above_prompt_box',
  match: { regex },
  report: regex,
  sample,
});

export const piRules: RuleSetInput = {
  agent: 'pi',
  version: VERSION,
  rules: [
    {
      id: 'api-key-refused',
      priority: 850,
      implies: { primary: 'waiting', detail: 'login' },
      region: 'above_prompt_box',
      match: { regex: KEY_REFUSED },
      report: KEY_REFUSED,
      sample: [...keyRefusedRows, ...EDITOR, ...footer('0.0%/128k (auto)')].join('\n'),
      lookalikes: [
        { sample: retryScreen, why: 'a 500 being retried' },
        {
          sample: [...keyRefusedRows, '', ' Try again', '', ' ⠸ Working...', ...EDITOR, ...footer('0.0%/128k (auto)')].join('\n'),
          why: 'a later turn runs',
        },
        { sample: idleScreen, why: 'a turn that ended on an answer' },
      ],
      source: `pi ${VERSION}, observed against test/fixtures/openaiChat's mock answering 401 with OpenAI's invalid_api_key body (2026-11-28)`,
    },
    {
      ...blockedRule('quota-gave-up', 'quota', 858, GAVE_UP.quota, quotaGaveUpScreen),
      lookalikes: [
        { sample: limitGaveUpScreen, why: 'a rate limit: the credit is not the cause' },
        { sample: retryScreen, why: 'still retrying' },
      ],
      source: `${BLOCKED_SOURCE}: 429 insufficient_quota, four times`,
    },
    {
      ...blockedRule('limit-gave-up', 'limit', 856, GAVE_UP.limit, limitGaveUpScreen),
      lookalikes: [
        { sample: serverGaveUpScreen, why: 'server errors given up' },
        { sample: laterAnswerScreen, why: 'a later prompt was answered' },
      ],
      source: `${BLOCKED_SOURCE}: 429 rate_limit_exceeded with retry-after and x-ratelimit-* headers, four times`,
    },
    {
      ...blockedRule('network-gave-up', 'network', 854, GAVE_UP.network, networkGaveUpScreen),
      lookalikes: [
        { sample: serverGaveUpScreen, why: 'the API answered, with errors' },
        { sample: laterAnswerScreen, why: 'a later prompt was answered' },
      ],
      source: `pi ${VERSION}, observed with its provider's baseUrl on a closed loopback port (connection refused, 2026-11-28)`,
    },
    {
      ...blockedRule('api-error-gave-up', 'api_error', 840, GAVE_UP.apiError, serverGaveUpScreen),
      lookalikes: [
        { sample: laterAnswerScreen, why: 'a later prompt was answered' },
        { sample: cancelledRetryScreen, why: 'the person cancelled the retry with Escape' },
        { sample: retryScreen, why: 'still retrying' },
        { sample: idleScreen, why: 'a turn that ended on an answer' },
      ],
      source: `${BLOCKED_SOURCE}: 500 server_error, four times`,
    },
    {
      id: 'retrying',
      priority: 720,
      implies: { primary: 'active', detail: 'retrying' },
      region: 'above_prompt_box',
      // The back-off after a failed request: pi retries by itself (3 attempts by default).
      match: { regex: new RegExp(RETRY_ROW, 'u') },
      report: RETRYING,
      sample: retryScreen,
      lookalikes: [{ sample: workingScreen, why: 'a plain turn' }],
      source: rec('pi-api-error-retries', '8.81 s'),
    },
    {
      id: 'bash-running',
      priority: 700,
      implies: { primary: 'active', detail: 'using_tools' },
      region: STATUS_ROWS,
      // A bash call's block counts `Elapsed` while the command runs, right above the spinner.
      match: { regex: new RegExp(`^\\s*Elapsed \\d[^\\n]*\\n\\s*${SPINNER} \\S`, 'mu') },
      sample: bashRunningScreen,
      lookalikes: [
        { sample: toolDoneScreen, why: 'the command is done' },
        { sample: workingScreen, why: 'no tool' },
      ],
      source: rec('pi-tool-autorun', '8.77 s'),
    },
    {
      id: 'tool-done',
      priority: 690,
      implies: { primary: 'active', detail: 'thinking' },
      region: STATUS_ROWS,
      // A finished bash block right above the spinner: its result is on its way to the model.
      match: { regex: new RegExp(`^\\s*Took \\d[^\\n]*\\n\\s*${SPINNER} \\S`, 'mu') },
      sample: toolDoneScreen,
      lookalikes: [{ sample: bashRunningScreen, why: 'the command still runs' }],
      source: rec('pi-tool-autorun', '12.00 s'),
    },
    {
      id: 'working',
      priority: 500,
      implies: { primary: 'active', detail: null },
      region: STATUS_ROWS,
      match: { line: BUSY_ROW },
      sample: workingScreen,
      lookalikes: [
        { sample: idleScreen, why: 'the turn is over: no spinner row' },
        { sample: startScreen, why: 'the start screen' },
      ],
      source: rec('pi-plain-qa-exit', '8.96 s'),
    },
    {
      id: 'editor-idle',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'after_last_horizontal_rule',
      // The editor and pi's footer with no spinner row above: pi removes the row at agent_end.
      match: { line: CONTEXT_SHARE, not: { region: STATUS_ROWS, line: BUSY_ROW } },
      sample: idleScreen,
      lookalikes: [
        { sample: workingScreen, why: 'the spinner row' },
        { sample: retryScreen, why: 'the retry back-off' },
      ],
      source: rec('pi-plain-qa-exit', '12.35 s'),
      strongIdle: true,
    },
  ],
  progressNormalizers: [
    { id: 'spinner-glyph', pattern: new RegExp(`^(\\s*)${SPINNER}(?= )`, 'u'), replace: '$1' },
    { id: 'retry-countdown', pattern: /(Retrying \(\d+\/\d+\) in )\d+s/u, replace: '$1Ns' },
    { id: 'bash-elapsed', pattern: /^(\s*)Elapsed \d.*$/u, replace: '$1Elapsed' },
  ],
};
