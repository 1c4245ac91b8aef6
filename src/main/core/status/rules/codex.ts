/**
 * Codex CLI status rules, written against @openai/codex 0.169.0 (Rust TUI) and re-cut on 0.171.0.
 * Samples are cut from the recordings in test/fixtures/recordings/codex/ (0.171.0) and its
 * 0.169.0/ folder (120x40, TERM=xterm-256color, the
 * test/fixtures/openai harness and mock Responses API, model "switchboard-mock", so the footer
 * counts a metadata warning); those marked "observed" were captured from the real TUI through the
 * same harness, the others are from knowledge, unverified.
 *
 * Anatomy: history above; at the bottom a composer `› Ask Codex to do anything` (also while a turn
 * runs), a model/folder line and a footer `← for agents · ? for shortcuts` (hidden while typing).
 * A running turn shows `• Working (3s • esc to interrupt)` above the composer, and the window
 * title starts with a braille spinner (`⠸ Mock task | project`); an approval replaces the composer
 * with a numbered menu and the title reads `[ ! ] Action Required | …`.
 */
import type { RuleSetInput } from '../ruleSchema';

const OBSERVED = 'Codex CLI 0.169.0, observed (test/fixtures/openai harness, mock Responses API, 120x40)';
/** Cut from a 0.169.0 recording (test/fixtures/recordings/codex/0.169.0/). */
const recorded = (name: string) => `Codex CLI 0.169.0, recordings/codex/0.169.0/${name}.cast`;
/** Cut from a 0.171.0 recording (test/fixtures/recordings/codex/). */
const recorded171 = (name: string) => `Codex CLI 0.171.0, recordings/codex/${name}.cast`;
/** Codex's window title between turns: the thread's title and the folder (the spinner and "Action Required" come and go before it). */
const SETTLED_TITLE = 'Mock task | project';
const SPINNER_TITLE = /^[\u2801-\u28FF] /u;
const UNVERIFIED = 'Codex CLI 0.169.0, from knowledge, unverified';

/** The recordings' footer: missing bubblewrap, unknown model metadata, and the recorder's hook-trust bypass. */
const FOOTER = '  ← for agents · ? for shortcuts                                                              ⚠ 3 warnings · f2 to view';
const MODEL_LINE = '  switchboard-mock default · ~/project · Mock task';

const idleScreen = ['• Posted.', '', '  Worked for 5s • 12:09', '', '', '› Ask Codex to do anything', '', MODEL_LINE, FOOTER].join('\n');

/** The end of a turn as recorded (the `Worked for` row is padded to the width). */
const recordedIdleScreen = [
  '› What does Switchboard do?',
  '• Switchboard keeps every pane honest: this answer streams word by word from the mock Responses API.',
  '› Ask Codex to do anything',
  MODEL_LINE,
  FOOTER,
].join('\n');

/**
 * exec_command's background terminal while the turn waits on it, named after the Working row. A
 * narrow pane cuts the row with `…` (`· 1 background termin…` at 56 columns), so a cut name counts.
 */
const BACKGROUND_TERMINAL_RUNNING = /esc to interrupt\).*·\s*\d+ b(?:ackground terminals? running|[a-z ]*…)/u;

/**
 * A turn that ended on an error: Codex prints a `■ <message>` row (wrapped over as many rows as it
 * takes) into the transcript above the composer and reports `state=error` (OSC 7501). Older turns'
 * error rows stay in the transcript, so a rule reads the newest `■` row, and only under that report.
 */
const ERROR_REGION = 'bottom_non_empty_lines(16)';
/**
 * The newest `■` row is still the last thing above the composer (its wrapped rows and a `⚠` notice
 * may follow; a later turn adds a `›` or `•` row). Anchored at the end of the region.
 */
const ERROR_ROW_LAST = /^■ [^\n]*(?:\n(?![›•■] )[^\n]*)*\n› [^\n]*(?:\n(?![›•■] )[^\n]*)*(?![\s\S])/mu;
/**
 * The turn ended on the error: Codex's report says so, or says idle while the error row is still the
 * last thing above the composer — keys typed at Codex (an answer to its own rate-limit offer, a
 * continue being typed) clear the report, not the refusal. Only for rules that name the error:
 * `■ Conversation interrupted` is such a row too.
 */
const TURN_ENDED_ON_ERROR = {
  any: [
    { region: 'osc_state', regex: /^state=error\b/u },
    {
      all: [
        { region: 'osc_state', regex: /^state=idle\b/u },
        { region: ERROR_REGION, regex: ERROR_ROW_LAST },
      ],
    },
  ],
};
/** The newest `■` row of the region starts with `head`. */
const lastErrorRow = (head: RegExp) => new RegExp(`^■ ${head.source}(?![\\s\\S]*^■ )`, 'mu');
const errorScreen = (...rows: string[]) =>
  ['› Say something', ...rows, '› Ask Codex to do anything', MODEL_LINE, FOOTER.replace('3 warnings', '2 warnings')].join('\n');
const OBSERVED_ERROR = (answer: string) =>
  `Codex CLI 0.171.0, observed (test/fixtures/openai harness, 120x40): the mock Responses API answering ${answer} (2026-11-28)`;

const workingScreen = ['• Working (0s • esc to interrupt)', '› Ask Codex to do anything', MODEL_LINE, FOOTER].join('\n');

const approvalScreen = [
  '  Would you like to run the following command?',
  '  Environment: local',
  '  Reason: Post the deploy hook',
  '  $ curl -X POST http://127.0.0.1:9/deploy',
  '› 1. Yes, proceed (y)',
  "  2. Yes, and don't ask again for commands that start with `curl -X POST http://127.0.0.1:9/deploy` (p)",
  '  3. No, and tell Codex what to do differently (esc)',
  '  Press enter to confirm or esc to cancel',
].join('\n');

/** Codex's "Approaching rate limits" offer under the limit's error row, in the composer's place (observed, 120x40). */
const RATE_LIMIT_OFFER = [
  '› Say hello',
  '',
  '■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/',
  'usage to purchase more credits or try again at 3:06 PM.',
  '',
  '',
  '  Approaching rate limits',
  '  Switch to gpt-6-luna for lower credit usage?',
  '',
  '› 1. Switch to gpt-6-luna                   Fast and affordable model for easier tasks.',
  '  2. Keep current model',
  '  3. Keep current model (never show again)  Hide future rate limit reminders about switching models',
  '',
  '  enter select · esc back',
].join('\n');

export const codexRules: RuleSetInput = {
  agent: 'codex',
  version: '0.171.0',
  rules: [
    {
      id: 'approval-request',
      priority: 900,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'bottom_non_empty_lines(24)',
      match: {
        // "run the following command" observed; the other questions are strings of the same binary.
        regex:
          /Would you like to (?:run the following command|make the following edits|grant these permissions|send input to the existing terminal)\?/u,
        line: /^\s*(?:›\s*)?1\. Yes/u,
      },
      prompt: { anchor: /^\s*Would you like to /u, omit: [/^\s*Press enter to confirm or esc to cancel/u] },
      sample: approvalScreen,
      lookalikes: [
        {
          sample: ['• I asked: Would you like to run the following command? You said no.', '', idleScreen].join('\n'),
          why: 'the question quoted in the transcript, with no menu',
        },
      ],
      source: `${recorded('codex-permission-yes')} @ 9.0 s: approval_policy on-request, read-only sandbox, an escalated exec_command`,
    },
    {
      id: 'trust-folder',
      priority: 880,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'bottom_non_empty_lines(16)',
      match: { contains: 'Trust this folder?', line: /^\s*(?:›\s*)?1\. /u },
      prompt: { anchor: /Trust this folder\?/u, top: /^\s*Folder access$/u, omit: [/^\s*enter continue · esc back/u] },
      sample: [
        '  Folder access',
        '',
        '  /tmp/switchboard-codex-YStCNk/home/project',
        '',
        '  Trust this folder? Codex can read, edit, and run files here, subject to your permission settings. Folder settings',
        '  can run code automatically, even without a model request. Continue only if you trust these files. Your trust',
        '  decision will be saved.',
        '',
        '› 1. Trust and continue',
        '  2. Back to Agent Command Center',
        '',
        '  enter continue · esc back',
      ].join('\n'),
      lookalikes: [{ sample: idleScreen, why: 'the composer after the folder was trusted' }],
      source: `${OBSERVED}: folder not marked trusted`,
    },
    {
      id: 'question',
      priority: 870,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'bottom_non_empty_lines(16)',
      // request_user_input (a Plan-mode tool, or any mode with its feature on): numbered answers and a submit hint.
      match: { contains: 'enter to submit answer', line: [/^\s*Question \d+\/\d+/u, /^\s*(?:›\s*)?1\. /u] },
      prompt: { anchor: /^\s*Question \d+\/\d+/u, omit: [/enter to submit answer/u] },
      sample: [
        '  Question 1/1 (1 unanswered)',
        '  Which port should the dev server use?',
        '  › 1. 3000 (Recommended)  The default port.',
        '    2. 8080                The alternative port.',
        '    3. None of the above   Optionally, add details in notes (tab)',
        '  tab to add notes | enter to submit answer | esc to interrupt',
      ].join('\n'),
      lookalikes: [
        {
          sample: ['• Working (1s • esc to interrupt)', '', '› Which port should the dev server use? 1. 3000', '', FOOTER].join('\n'),
          why: 'the question typed into the composer while a turn runs',
        },
      ],
      source: `${recorded('codex-question')} @ 9.0 s`,
    },
    {
      id: 'rate-limit-switch-model',
      priority: 875,
      // Codex's own offer once per session when a rate-limit window it is told about
      // (`x-codex-primary-used-percent` / `-secondary-`) reaches 90 % use, shown as the turn ends.
      // It replaces the composer and takes the keys, so it needs the person even when the limit
      // itself ended the turn: a question (its options are the answers) rather than the limit,
      // which reads again from the error row once the offer is answered.
      implies: { primary: 'waiting', detail: 'question' },
      region: 'bottom_non_empty_lines(16)',
      match: { regex: /^\s*Approaching rate limits\s*$/mu, line: /^\s*(?:›\s*)?2\. Keep current model\s*$/u },
      prompt: { anchor: /^\s*Approaching rate limits\s*$/u, omit: [/^\s*enter select · esc back\s*$/u] },
      sample: RATE_LIMIT_OFFER,
      lookalikes: [
        {
          sample: errorScreen(
            '■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/',
            'usage to purchase more credits or try again at 3:06 PM.',
            '                                                                  ⚠ 5h limit: only <1% left · resets at 15:06 · /status',
          ),
          why: 'the offer answered: the composer is back under the limit (error-usage-limit)',
        },
        {
          sample: ['• Codex showed "Approaching rate limits" and I kept the current model.', '', idleScreen].join('\n'),
          why: 'the heading quoted in the transcript, with no options',
        },
      ],
      source: OBSERVED_ERROR(
        '429 usage_limit_reached with x-codex-primary-used-percent: 100 (codexRefusals.usageLimit rateLimitHeaders); the offer after the error row',
      ),
    },
    {
      id: 'state-blocked-permission',
      priority: 860,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'osc_state',
      // Codex reports its state to the terminal (OSC 7501) the moment it asks, 0.5-0.9 s before it
      // draws the approval (its Working row stays up meanwhile); the drawn dialog outranks it.
      match: { regex: /^state=blocked:.*\bkind=permission\b/u },
      sample: 'state=blocked:app=codex:kind=permission',
      lookalikes: [{ sample: 'state=working:app=codex', why: 'the approval was answered' }],
      source: `${recorded('codex-permission-yes')} (OSC 7501)`,
    },
    {
      id: 'state-blocked-question',
      priority: 860,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'osc_state',
      match: { regex: /^state=blocked:.*\bkind=question\b/u },
      sample: 'state=blocked:app=codex:kind=question',
      lookalikes: [{ sample: 'state=blocked:app=codex:kind=permission', why: 'an approval' }],
      source: `${recorded('codex-question')} (OSC 7501)`,
    },
    {
      id: 'error-usage-limit',
      priority: 850,
      implies: { primary: 'waiting', detail: 'limit' },
      region: ERROR_REGION,
      // 429 `usage_limit_reached`: "Try again at" the body's `resets_at` in Codex's zone ("11:38 AM",
      // "Nov 29th, 2026 11:38 AM" past today), "Try again later." without one.
      match: { regex: lastErrorRow(/You[’']ve hit your usage limit\b/u), all: [TURN_ENDED_ON_ERROR] },
      report:
        /^■ (?<message>You[’']ve hit your usage limit\b[^›■]*?(?:[Tt]ry\s+again\s+at\s+(?<reset>(?:[A-Z][a-z]{2}\s+\d{1,2}[a-z]{2},\s+\d{4}\s+)?\d{1,2}:\d{2}\s+[AP]M)\.|[Tt]ry\s+again\s+later\.))/mu,
      sample: errorScreen(
        '■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/',
        'usage to purchase more credits or try again at 11:38 AM.',
      ),
      sampleState: 'state=error:app=codex',
      lookalikes: [
        { sample: errorScreen('■ Quota exceeded. Check your plan and billing details.'), why: 'used-up credit (insufficient_quota)' },
        {
          sample: [
            '› Say something',
            '■ You’ve hit your usage limit. Try again at 11:38 AM.',
            '› Again',
            '■ Quota exceeded. Check your plan and billing details.',
            '› Ask Codex to do anything',
          ].join('\n'),
          why: 'an earlier turn met the limit; the newest error is another',
        },
      ],
      source: OBSERVED_ERROR('429 {"error":{"type":"usage_limit_reached","plan_type":"plus","resets_at":…}}'),
    },
    {
      id: 'error-unauthorized',
      priority: 850,
      implies: { primary: 'waiting', detail: 'login' },
      region: ERROR_REGION,
      // A refused key: Codex prints the status and the API's body (the key masked by the API).
      match: { regex: lastErrorRow(/unexpected status 401 Unauthorized\b/u), all: [TURN_ENDED_ON_ERROR] },
      report: /^■ (?<message>unexpected status 401 Unauthorized: [^›■]*?)(?:, url: |\n› |(?![\s\S]))/mu,
      sample: errorScreen(
        '■ unexpected status 401 Unauthorized: Incorrect API key provided: sk-mock-*****0000. You can find your API key at',
        'https://platform.openai.com/account/api-keys., url: http://127.0.0.1:43565/v1/responses, request id: resp_req_3',
      ),
      sampleState: 'state=error:app=codex',
      lookalikes: [
        {
          sample: errorScreen('■ unexpected status 404 Not Found: {"error":"no route"}, url: http://127.0.0.1:43565/v1/responses'),
          why: 'another status',
        },
      ],
      source: OBSERVED_ERROR('401 {"error":{"code":"invalid_api_key",…}}'),
    },
    {
      id: 'error-quota',
      priority: 850,
      implies: { primary: 'waiting', detail: 'quota' },
      region: ERROR_REGION,
      match: { regex: lastErrorRow(/Quota exceeded\. Check your plan and billing details\./u), all: [TURN_ENDED_ON_ERROR] },
      report: /^■ (?<message>Quota exceeded\. Check your plan and billing details\.)/mu,
      sample: errorScreen('■ Quota exceeded. Check your plan and billing details.'),
      sampleState: 'state=error:app=codex',
      lookalikes: [{ sample: errorScreen('■ You’ve hit your usage limit. Try again later.'), why: 'a usage limit' }],
      source: OBSERVED_ERROR('429 {"error":{"type":"insufficient_quota","code":"insufficient_quota",…}}'),
    },
    {
      id: 'state-error',
      priority: 845,
      implies: { primary: 'waiting', detail: 'api_error' },
      region: ERROR_REGION,
      // The turn ended on an error that no rule above names: Codex's report says error and its `■`
      // row, still last above the composer, says which. The report comes a moment before the row
      // is drawn; waiting for the row keeps a named refusal (a usage limit) from reading as an API
      // error first. The next turn reports `working` and lets go.
      match: { regex: ERROR_ROW_LAST, all: [{ region: 'osc_state', regex: /^state=error\b/u }] },
      report: /^■ (?<message>[^›■⚠]*?)\s*(?:\n\s*⚠|\n› )/mu,
      sample: errorScreen('■ We’re currently experiencing high demand, which may cause temporary errors.'),
      sampleState: 'state=error:app=codex',
      lookalikes: [
        {
          sample: ['› Say something', '• Working (0s • esc to interrupt)', '› Ask Codex to do anything', MODEL_LINE, FOOTER].join('\n'),
          why: 'the report already says error, the row is not drawn yet',
        },
      ],
      source: OBSERVED_ERROR('500 until `stream_max_retries` ran out (test/status/codexBlocked.test.ts)'),
    },
    {
      id: 'running-command',
      priority: 700,
      implies: { primary: 'active', detail: 'using_tools' },
      region: 'bottom_non_empty_lines(16)',
      match: {
        // A foreground command, or exec_command's background terminal while the turn waits on it.
        any: [{ line: /^\s*[•◦] Running /u }, { line: BACKGROUND_TERMINAL_RUNNING }],
        all: [{ line: /esc to interrupt/u }],
      },
      sample: [
        '◦ Working (0s • esc to interrupt) · 1 background terminal running · /ps to view · /stop to close',
        '› Ask Codex to do anything',
        MODEL_LINE,
        FOOTER,
      ].join('\n'),
      lookalikes: [
        {
          sample: [
            '• Exited (status 7) curl -X POST http://127.0.0.1:9/x',
            '',
            '• Posted.',
            '',
            '  Worked for 5s • 12:09',
            '',
            '› Ask Codex to do anything',
          ].join('\n'),
          why: 'a finished command',
        },
      ],
      source: `${recorded('codex-tool-autorun')} @ 8.0 s (a background terminal); the foreground "• Running <command>" row observed (test/fixtures/openai harness)`,
    },
    {
      id: 'answer-streaming',
      priority: 620,
      implies: { primary: 'active', detail: 'responding' },
      region: 'bottom_non_empty_lines(24)',
      match: {
        // The newest block above the composer is the model's text (a `•` row that is no tool or status
        // row, with its indented continuation), no Working row, and the title spins: the turn runs and
        // its answer streams. Once the turn is over the same rows stay, under a settled title.
        regex:
          /(?:^|\n)• (?!(?:Working|Running|Ran|Reconnecting|Waiting|Exploring|Explored|Calling|Called|Edited|Added|Deleted|Updated|Searched|Viewed|Exited|Interacting)\b)[^\n]*(?:\n {2}[^\n]*)*\n› (?!\d+\. )/u,
        not: { contains: 'esc to interrupt' },
        all: [{ region: 'osc_title', regex: SPINNER_TITLE }],
      },
      sample: [
        '› What does Switchboard do?',
        '• Switchboard keeps every pane honest: this answer streams word by word',
        '› Ask Codex to do anything',
        MODEL_LINE,
        FOOTER,
      ].join('\n'),
      sampleTitle: '⠦ Mock task | project',
      lookalikes: [
        { sample: recordedIdleScreen, why: 'the same rows once the turn is over (title settled)' },
        { sample: workingScreen, why: 'waiting for the first token' },
      ],
      source: `${recorded('codex-answer-exit')} @ 9.7 s`,
    },
    {
      id: 'waiting-for-network',
      priority: 650,
      implies: { primary: 'waiting', detail: 'network' },
      region: 'bottom_non_empty_lines(8)',
      // The API cannot be reached at all: Codex waits for the network with no end (no attempt
      // count, whatever `stream_max_retries` says) and goes on by itself once a connection holds.
      match: { line: /^\S Reconnecting\.\.\. waiting for network\b/u },
      report: /Reconnecting\.\.\. waiting for network[^\n]*(?:\n {2}└ (?<message>[^\n]+))?/u,
      retriesByItself: true,
      sample: [
        '• Reconnecting... waiting for network (7s • esc to interrupt)',
        '  └ Connection failed: error sending request',
        '',
        '',
        '› Ask Codex to do anything',
        '',
        '  switchboard-mock default · ~/project · Say hello',
        FOOTER,
      ].join('\n'),
      lookalikes: [
        {
          sample: [
            '• Reconnecting... 1/2 (0s • esc to interrupt)',
            '  └ Connection failed: error sending request',
            '› Ask Codex to do anything',
            FOOTER,
          ].join('\n'),
          why: 'a counted reconnect is a retry, not a wait for the network',
        },
      ],
      source:
        'Codex CLI 0.171.0, observed (test/fixtures/openai harness pointed at a closed port, 120x40): `stream connection failed; waiting to retry` / `Reconnecting... waiting for network` in the binary’s strings',
    },
    {
      id: 'reconnecting',
      priority: 640,
      implies: { primary: 'active', detail: 'retrying' },
      region: 'bottom_non_empty_lines(8)',
      match: { line: /^• Reconnecting\.\.\. \d+\/\d+/u },
      // The attempt of the stream's retries (provider `stream_max_retries`) and the API's message under it.
      report: /Reconnecting\.\.\. (?<attempt>\d+)\/(?<max>\d+)(?=[^\n]*(?:\n {2}└ (?<message>[^\n]+))?)/u,
      sample: [
        '• Reconnecting... 2/2 (1s • esc to interrupt)',
        '  └ We’re currently experiencing high demand, which may cause temporary errors.',
        '',
        '› Ask Codex to do anything',
        '',
        MODEL_LINE,
        FOOTER,
      ].join('\n'),
      lookalikes: [
        { sample: workingScreen, why: 'a normal Working row' },
        {
          sample: [
            '› Why does Codex print "• Reconnecting... 1/5"?',
            '',
            '• Working (0s • esc to interrupt)',
            '› Ask Codex to do anything',
            FOOTER,
          ].join('\n'),
          why: 'the words quoted in a prompt',
        },
      ],
      source: `Codex CLI 0.171.0, observed: the mock Responses API answering 500 until Codex gave up (stream_max_retries 2, 2026-11-28)`,
    },
    {
      id: 'status-indicator',
      priority: 600,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'bottom_non_empty_lines(8)',
      match: { line: /\(\s*(?:\d+[hms]\s*)+•\s*esc to interrupt\)/u },
      sample: workingScreen,
      lookalikes: [{ sample: idleScreen, why: 'the composer and footer stay while idle' }],
      source: `${recorded('codex-permission-yes')} @ 12.1 s`,
    },
    {
      id: 'esc-to-interrupt',
      priority: 500,
      implies: { primary: 'active', detail: null },
      region: 'bottom_non_empty_lines(8)',
      match: { contains: 'esc to interrupt' },
      sample: ['↳ Interacting with background terminal · esc to interrupt', '', '› Ask Codex to do anything', '', FOOTER].join('\n'),
      lookalikes: [{ sample: idleScreen, why: 'idle composer' }],
      source: UNVERIFIED,
    },
    {
      id: 'waiting-for-startup',
      priority: 510,
      implies: { primary: 'active', detail: null },
      region: 'bottom_non_empty_lines(4)',
      // A turn submitted before the session finished starting: Codex has taken it (the prompt is
      // in the transcript, the composer is gone) and runs it once start-up is over, seconds later
      // on a loaded machine.
      match: { line: /^\s*Waiting for startup\b/u },
      sample: [
        '  >_ OpenAI Codex (v0.169.0)',
        '     ~/project',
        '› Say hello to Switchboard please',
        '  Waiting for startup  · esc cancel',
      ].join('\n'),
      lookalikes: [{ sample: idleScreen, why: 'idle composer' }],
      source: `${OBSERVED.replace('120x40', '56x18')}: a turn sent right after the composer was drawn, at load 17`,
    },
    {
      id: 'start-screen',
      priority: 450,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'whole_screen',
      // Before the first turn: the session header, an empty composer (its footer hint shows; typed
      // text hides it) and no history item (an answer or a Working row `• …`, a submitted prompt
      // `› …` above the composer). 0.171.0 spins its title and reports `working` for a few frames
      // while it finishes starting, with nothing submitted; a real first turn hides the hint as it
      // is typed and then puts its prompt in the history, and a busy row outranks this.
      match: {
        contains: '>_ OpenAI Codex (v',
        line: [/^› /u, /\? for shortcuts/u],
        not: { regex: /^(?:• |› [^\n]*\n[\s\S]*^› )/mu },
      },
      sample: [
        '  >_ OpenAI Codex (v0.171.0)',
        '     ~/project',
        '› Ask Codex to do anything',
        '  switchboard-mock default · ~/project',
        '  ← for agents · ? for shortcuts                                                              ⚠ 2 warnings · f2 to view',
      ].join('\n'),
      sampleTitle: '⠴ project',
      lookalikes: [
        {
          sample: ['  >_ OpenAI Codex (v0.171.0)', '     ~/project', '› What does Switchboard do?', '', '› Ask Codex to do anything'].join(
            '\n',
          ),
          why: 'the first prompt submitted: its turn runs under the same header',
        },
      ],
      source: `${recorded171('codex-tool-autorun')} @ 3.61 s: title spinning, OSC 7501 state=working, nothing submitted`,
    },
    {
      id: 'state-working',
      priority: 440,
      implies: { primary: 'active', detail: null },
      region: 'osc_state',
      // Codex reports `working` (OSC 7501) a few ms after Enter, before it draws anything (0.7 s
      // before the Working row at load 20), and until the turn ends; the start screen outranks
      // its start-up blip, the busy rows say which kind of work.
      match: { regex: /^state=working\b/u },
      sample: 'state=working:app=codex',
      lookalikes: [{ sample: 'state=idle:app=codex', why: 'between turns' }],
      source: `${recorded171('codex-answer-exit')} (OSC 7501) @ 8.648 s, 4 ms after the driver's Enter`,
    },
    {
      id: 'title-spinner',
      priority: 400,
      implies: { primary: 'active', detail: null },
      region: 'osc_title',
      // Codex spins its title for the whole turn, streaming included (the Working row goes away
      // while the answer streams), so it outranks the composer, which stays on screen.
      match: { regex: /^[\u2801-\u28FF] /u },
      sample: '⠸ Mock task | project',
      lookalikes: [{ sample: SETTLED_TITLE, why: 'the title between turns' }],
      source: recorded('codex-answer-exit'),
    },
    {
      id: 'idle-settled-title',
      priority: 310,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(6)',
      // Codex spins its title for the whole turn (tool calls included) and shows "Action Required"
      // while it asks; the composer under a title that does neither is drawn only once the turn is over.
      match: {
        line: /^› (?!\d+\. )/u,
        all: [{ region: 'osc_title', regex: /^(?![\u2801-\u28FF] |\[ [!.] \] )\S/u }],
      },
      strongIdle: true,
      sample: recordedIdleScreen,
      sampleTitle: SETTLED_TITLE,
      lookalikes: [{ sample: workingScreen, why: 'a turn running (and no title given)' }],
      source: `${recorded('codex-answer-exit')} @ 12.0 s`,
    },
    {
      id: 'exit-summary',
      priority: 305,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(6)',
      // After /quit: the token usage and how to resume, printed just before the process ends.
      match: { contains: 'To continue this session, run:', line: /^\s*codex resume [0-9a-f-]{8,}/u },
      sample: [
        'Token usage: total=6,664 input=6,639 output=25',
        'To continue this session, run:',
        '  codex resume 01a21bca-63d7-7db1-8b39-35a5fbe1669c',
        'Or run codex resume and select Mock task.',
      ].join('\n'),
      lookalikes: [{ sample: idleScreen, why: 'the composer' }],
      source: `${recorded('codex-answer-exit')} @ 14.3 s`,
    },
    {
      id: 'idle-composer',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(6)',
      match: { any: [{ line: /^› (?!\d+\. )/u }, { line: /\? for shortcuts/u }] },
      sample: recordedIdleScreen,
      lookalikes: [{ sample: approvalScreen, why: 'an approval replaces the composer and footer' }],
      source: `${recorded('codex-answer-exit')} @ 12.0 s`,
    },
    {
      id: 'title-action-required',
      priority: 150,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'osc_title',
      match: { regex: /^\[ [!.] \] Action Required\b/u },
      sample: '[ ! ] Action Required | Mock task | project',
      lookalikes: [{ sample: '⠸ Mock task | project', why: 'working' }],
      source: `${recorded('codex-permission-yes')}: the title blinks "[ ! ]" / "[ . ]" while an approval (or a question) waits`,
    },
  ],
  progressNormalizers: [{ id: 'status-glyph', pattern: /^\s*[•◦](?= \S[^\n]*esc to interrupt)/u, replace: '' }],
};
