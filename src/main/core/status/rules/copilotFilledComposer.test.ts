/**
 * Copilot CLI 1.0.102 draws its composer as a filled bar (`╻▄▄▄` / `┃` / `╹▀▀▀`) and each of your
 * turns in a filled box when the terminal reports its colours (OSC 10/11) and says it has true
 * colour, which every pane of the app does: the pane's xterm answers the colour queries. The
 * recordings (a headless terminal that does not answer them) show the `───` rules instead. The
 * screens below are the real CLI's, captured through a headless terminal that answers the queries
 * as a dark pane does (rgb:1e1e/1e1e/1e1e), COLORTERM=truecolor, against the mock Chat Completions
 * API (2026-11-29; blank rows dropped; each screen is its rows in order, shared runs named once).
 * The same rules read them as they read the recordings.
 */
import { describe, expect, it } from 'vitest';
import { readBlockedReport } from '../blockedReport';
import { classify } from '../classifier';
import { BUILTIN_RULE_SETS } from './index';

const copilot = BUILTIN_RULE_SETS.get('copilot')!;

/** The rows of a rule's sample from its dialog's top border (`╭`) down. */
function dialogOfSample(key: string): string[] {
  const rows = copilot.rules.find((r) => r.key === key)!.sample.split('\n');
  return rows.slice(rows.findIndex((row) => row.startsWith('╭')));
}

/** 120x40: the banner and start-up notices over every screen below. */
const STARTUP_120 = [
  '  Current   Sessions   Issues   Pull requests   Gists   ',
  '  ╭─╮╭─╮',
  '  ╰─╯╰─╯  Copilot v1.0.102 uses AI.',
  '  █ ▘▝ █  Check for mistakes.',
  '   ▔▔▔▔ ',
  ' ● Tip: /app',
  '   └ Prefer a visual workspace? Try out the GitHub Copilot desktop app',
  '     \u00a0https://github.com/features/ai/github-app\u00a0',
  ' ● No copilot-instructions.md found. Run /init to generate.',
  ' ! Model "switchboard-mock" is not in the built-in catalog. Using defaults for: prompt tokens ',
  '   (COPILOT_PROVIDER_MAX_PROMPT_TOKENS), output tokens (COPILOT_PROVIDER_MAX_OUTPUT_TOKENS). Run \u00a0copilot help ',
  '   providers\u00a0 for configuration details.',
];
/** 120x40: the working-directory row and the composer as a filled bar. */
const COMPOSER_120 = [
  ' ~/project [⎇ main]',
  '╻▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄',
  '┃  ',
  '╹▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀',
];
const IDLE_FOOTER_120 =
  ' ← open sidebar · Interactive · Manual Approval · / commands · ? help · tab next tab                   switchboard-mock';

/** Start-up over. */
const idle120 = [...STARTUP_120, ...COMPOSER_120, IDLE_FOOTER_120];

/** The first turn waiting for the model's first token. */
const thinking120 = [
  ...STARTUP_120,
  ' ▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄',
  '  ❯ Say hello                                                                                                  21:53  ',
  ' ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀',
  ...COMPOSER_120,
  ' ◎ Working esc esc edit prompt                                                                         switchboard-mock',
];

/** A turn given up after five retries of OpenAI's 429 rate_limit_exceeded. */
const gaveUpLimit120 = [
  ...STARTUP_120,
  ' ▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄',
  '  ❯ Say hello                                                                                                  21:53  ',
  ' ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀',
  ' ● Hello there, this answer streams slowly.',
  ' ▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄',
  '  ❯ Try again                                                                                                  21:54  ',
  ' ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀',
  ' ✗ Failed to get response from the AI model; retried 5 times (total retry wait time: 5.42 seconds) Last error: 429 Rat',
  '   limit reached for gpt-4o-mini in organization org-mock on requests per min (RPM): Limit 3, Used 3, Requested 1. ',
  '   Please try again in 1s. Visit https://platform.openai.com/account/rate-limits to learn more. ',
  ...COMPOSER_120,
  IDLE_FOOTER_120,
];

/** A shell tool call waiting for approval: its dialog replaces the composer. */
const permission120 = [
  ...STARTUP_120,
  ' ▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄',
  '  ❯ Touch the flag                                                                                             21:51  ',
  ' ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀',
  ' $ Shell Post the deploy hook',
  '   touch deploy-requested.flag',
  // The dialog is drawn as on the recordings, row for row: the permission rule's own sample from its top.
  ...dialogOfSample('copilot/permission-prompt'),
];

/** 68x30 (a pane in a grid of two), the same give-up; the transcript's scrollbar on the right. */
const gaveUpLimit68 = [
  '  Current   Sessions   Issues   Pull requests   Gists   ',
  '     \u00a0https://github.com/features/ai/github-app\u00a0                   ┃',
  '                                                                   ┃',
  ' ● No copilot-instructions.md found. Run /init to generate.        ┃',
  '                                                                   ┃',
  ' ! Model "switchboard-mock" is not in the built-in catalog. Using  ┃',
  '   defaults for: prompt tokens                                     ┃',
  '   (COPILOT_PROVIDER_MAX_PROMPT_TOKENS), output tokens             ┃',
  '   (COPILOT_PROVIDER_MAX_OUTPUT_TOKENS). Run \u00a0copilot help         ┃',
  '   providers\u00a0 for configuration details.                           ┃',
  ' ▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄ ┃',
  '  ❯ Say hello                                              21:54   ┃',
  ' ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀ ┃',
  ' ● Hello there, this answer streams slowly.                        ┃',
  ' ▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄ ┃',
  '  ❯ Try again                                              21:54   ┃',
  ' ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀ ┃',
  ' ✗ Failed to get response from the AI model; retried 5 times (tota ┃',
  '   retry wait time: 5.48 seconds) Last error: 429 Rate limit reach ┃',
  '   for gpt-4o-mini in organization org-mock on requests per min    ┃',
  '   (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.    ┃',
  '   Visit https://platform.openai.com/account/rate-limits to learn  ┃',
  '   more.                                                           ┃',
  '                                                                   ┃',
  ' ~/project [⎇ main]',
  '╻▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄',
  '┃  ',
  '╹▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀',
  ' Interactive · Manual Approval · / commands        switchboard-mock',
];

const read = (lines: string[]) => {
  const result = classify(lines, 'GitHub Copilot', { rules: copilot, now: 0 });
  return { primary: result.primary, detail: result.detail, reason: result.reason };
};

describe('Copilot CLI with its filled composer (a pane that reports its colours)', () => {
  it('reads idle, thinking and a permission request as on the recordings', () => {
    expect(read(idle120)).toEqual({ primary: 'idle', detail: 'ready', reason: 'copilot/composer-idle' });
    expect(read(thinking120)).toMatchObject({ primary: 'active', reason: 'copilot/working' });
    expect(read(permission120)).toEqual({ primary: 'waiting', detail: 'permission', reason: 'copilot/permission-prompt' });
  });

  it.each([
    ['120', gaveUpLimit120],
    ['68', gaveUpLimit68],
  ])('reads a rate limit given up as waiting · limit at %s columns, with the whole message', (cols, screen) => {
    expect(read(screen)).toEqual({ primary: 'waiting', detail: 'limit', reason: 'copilot/gave-up-limit' });
    const rule = copilot.rules.find((r) => r.key === 'copilot/gave-up-limit')!;
    const report = readBlockedReport(rule, { lines: screen, title: '', cols: Number(cols) }, 0);
    expect(report?.message).toMatch(
      /^Failed to get response from the AI model; retried 5 times .*Last error: 429 .*Please try again in 1s\./u,
    );
  });
});
