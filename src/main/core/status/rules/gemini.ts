/**
 * Gemini CLI status rules (@google/gemini-cli 0.x, Ink TUI). No recording: from knowledge,
 * unverified. Anatomy: an input box `│ > Type your message or @path/to/file │`; while a turn runs
 * a braille spinner row `⠏ <phrase> (esc to cancel, 12s)` above it; tool confirmations appear in a
 * box with a "Yes, allow once" menu; the folder-trust prompt asks "Do you trust this folder?".
 */
import type { RuleSetInput } from '../ruleSchema';

const UNVERIFIED = 'Gemini CLI 0.x, from knowledge, unverified';

const idleBox = [
  '╭──────────────────────────────────────────────────────────────────────────────────────╮',
  '│ >   Type your message or @path/to/file                                               │',
  '╰──────────────────────────────────────────────────────────────────────────────────────╯',
  '~/repo (main*)              no sandbox (see /docs)              gemini-2.5-pro (100% context left)',
].join('\n');

export const geminiRules: RuleSetInput = {
  agent: 'gemini',
  version: '0.x',
  rules: [
    {
      id: 'tool-confirmation',
      priority: 900,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'bottom_non_empty_lines(24)',
      match: {
        regex: /(?:Allow execution|Apply this change|Do you want to proceed)[^\n]*\?/u,
        line: /Yes, allow once/u,
      },
      sample: [
        '╭──────────────────────────────────────────────────────────────────────╮',
        '│ ?  Shell curl -X POST http://127.0.0.1:9/upload                      │',
        '│                                                                      │',
        "│ Allow execution of: 'curl'?                                          │",
        '│                                                                      │',
        '│ ● 1. Yes, allow once                                                 │',
        '│   2. Yes, allow always ...                                           │',
        '│   3. No, suggest changes (esc)                                       │',
        '╰──────────────────────────────────────────────────────────────────────╯',
      ].join('\n'),
      lookalikes: [{ sample: idleBox, why: 'the idle input box' }],
      source: UNVERIFIED,
    },
    {
      id: 'folder-trust',
      priority: 880,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'bottom_non_empty_lines(24)',
      match: { contains: 'Do you trust this folder?' },
      sample: [
        '╭──────────────────────────────────────────────────────────────────────╮',
        '│ Do you trust this folder?                                            │',
        '│                                                                      │',
        '│ ● 1. Trust folder (repo)                                             │',
        '│   2. Trust parent folder (tmp)                                       │',
        "│   3. Don't trust (esc)                                               │",
        '╰──────────────────────────────────────────────────────────────────────╯',
      ].join('\n'),
      lookalikes: [{ sample: idleBox, why: 'the idle input box' }],
      source: UNVERIFIED,
    },
    {
      id: 'spinner-esc-to-cancel',
      priority: 600,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'bottom_non_empty_lines(10)',
      match: { line: /\(esc to cancel, (?:\d+[hms]\s*)+\)/u },
      sample: ['⠏ Consulting the digital spirits... (esc to cancel, 3s)', '', idleBox].join('\n'),
      lookalikes: [{ sample: idleBox, why: 'idle input box without the spinner row' }],
      source: UNVERIFIED,
    },
    {
      id: 'idle-input-box',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(8)',
      match: { line: /^\s*│\s*>\s/u },
      sample: idleBox,
      lookalikes: [
        {
          sample: '│ ?  Shell curl -X POST http://127.0.0.1:9/upload │\n│ ● 1. Yes, allow once │',
          why: 'a confirmation box has no > input row',
        },
      ],
      source: UNVERIFIED,
    },
  ],
};
