/**
 * Codex CLI status rules, for @openai/codex 0.169.0 (Rust TUI). No recording yet: screens below
 * are from knowledge of the TUI; strings marked "binary" were checked to exist in the shipped
 * 0.169.0 executable. Another engineer's harness (test/fixtures/openai) verifies these against
 * the real TUI; cut real samples from it when it lands.
 *
 * Anatomy: a composer `› …` (placeholder "Ask Codex to do anything") above a footer with
 * "? for shortcuts" and "NN% context left"; while a turn runs, a status row above the composer
 * reads `• Working (12s • esc to interrupt)` (the header shows the reasoning summary instead of
 * "Working" once one exists); approvals replace the composer with a numbered menu.
 */
import type { RuleSetInput } from '../ruleSchema';

const UNVERIFIED = 'Codex CLI 0.169.0, from knowledge, unverified';

const idleScreen = [
  '› Ask Codex to do anything',
  '',
  '  ? for shortcuts                                                                              100% context left',
].join('\n');

const workingScreen = [
  '• Working (12s • esc to interrupt)',
  '',
  '› Ask Codex to do anything',
  '',
  '  ? for shortcuts                                                                               98% context left',
].join('\n');

export const codexRules: RuleSetInput = {
  agent: 'codex',
  version: '0.169.0',
  rules: [
    {
      id: 'approval-request',
      priority: 900,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'bottom_non_empty_lines(24)',
      match: {
        regex:
          /Would you like to (?:run the following command|make the following edits|grant these permissions|send input to the existing terminal)\?/u,
        line: /^\s*(?:›\s*)?1\. Yes/u,
      },
      sample: [
        '  Would you like to run the following command?',
        '',
        '  $ curl -X POST http://127.0.0.1:9/upload -d @secrets.txt',
        '',
        '› 1. Yes, proceed (y)',
        "  2. Yes, and don't ask again for this command in this session (a)",
        '  3. No, and tell Codex what to do differently (esc)',
        '',
        '  Press enter to confirm or esc to cancel',
      ].join('\n'),
      lookalikes: [
        {
          sample: ['• I asked: Would you like to run the following command? You said no.', '', ...idleScreen.split('\n')].join('\n'),
          why: 'the question quoted in the transcript, with no menu',
        },
      ],
      source: `${UNVERIFIED} (question strings: binary)`,
    },
    {
      id: 'trust-folder',
      priority: 880,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'whole_screen',
      match: { contains: 'Trust this folder?', line: /^\s*(?:›\s*)?1\. /u },
      sample: [
        '  Trust this folder? Codex can read, edit, and run files here, subject to your permission settings.',
        '',
        '› 1. Yes, trust this folder',
        '  2. No, quit',
      ].join('\n'),
      source: `${UNVERIFIED} ("Trust this folder? Codex can read, edit, and run files here": binary)`,
    },
    {
      id: 'running-command',
      priority: 700,
      implies: { primary: 'active', detail: 'using_tools' },
      region: 'bottom_non_empty_lines(16)',
      match: { line: /^\s*[•◦] Running /u, all: [{ line: /esc to interrupt/u }] },
      sample: ['• Running npm test', '  └ > vitest run', '', ...workingScreen.split('\n')].join('\n'),
      lookalikes: [{ sample: ['• Ran npm test', '  └ 12 passed', '', ...idleScreen.split('\n')].join('\n'), why: 'a finished command' }],
      source: UNVERIFIED,
    },
    {
      id: 'reconnecting',
      priority: 640,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'bottom_non_empty_lines(8)',
      match: { line: /Reconnecting\.\.\./u },
      sample: ['• Reconnecting... 2/5 (4s • esc to interrupt)', '', ...idleScreen.split('\n')].join('\n'),
      source: `${UNVERIFIED} ("Reconnecting... ": binary)`,
    },
    {
      id: 'status-indicator',
      priority: 600,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'bottom_non_empty_lines(8)',
      match: { line: /\(\s*(?:\d+[hms]\s*)+•\s*esc to interrupt\)/u },
      sample: workingScreen,
      lookalikes: [{ sample: idleScreen, why: 'idle composer' }],
      source: UNVERIFIED,
    },
    {
      id: 'esc-to-interrupt',
      priority: 500,
      implies: { primary: 'active', detail: null },
      region: 'bottom_non_empty_lines(8)',
      match: { contains: 'esc to interrupt' },
      sample: ['↳ Interacting with background terminal · esc to interrupt', '', ...idleScreen.split('\n')].join('\n'),
      lookalikes: [{ sample: idleScreen, why: 'idle composer' }],
      source: UNVERIFIED,
    },
    {
      id: 'idle-composer',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(6)',
      match: { any: [{ line: /^\s*\? for shortcuts/u }, { line: /\d+% context left\s*$/u }] },
      sample: idleScreen,
      source: `${UNVERIFIED} ("? for shortcuts", "% context left": binary)`,
    },
  ],
  progressNormalizers: [{ id: 'status-glyph', pattern: /^\s*[•◦](?= \S[^\n]*esc to interrupt)/u, replace: '' }],
};
