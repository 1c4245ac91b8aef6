/**
 * cursor-agent status rules (Cursor CLI, 2025 beta). No recording: from knowledge, unverified.
 * Anatomy: an input box with the placeholder "Plan, search, build anything" and a hint row; while
 * working a row with a spinner and "Generating…" / "Running…" plus "ctrl+c to stop"; a command
 * approval asks "Run this command?" with "(y)" / "(n)" choices.
 */
import type { RuleSetInput } from '../ruleSchema';

const UNVERIFIED = 'cursor-agent 2025 beta, from knowledge, unverified';

const idleScreen = [
  '┌──────────────────────────────────────────────────────────────┐',
  '│ → Plan, search, build anything                               │',
  '└──────────────────────────────────────────────────────────────┘',
  '  / commands · @ files · ! shell',
].join('\n');

export const cursorAgentRules: RuleSetInput = {
  agent: 'cursor-agent',
  version: '2025-beta',
  rules: [
    {
      id: 'command-approval',
      priority: 900,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'bottom_non_empty_lines(16)',
      match: { regex: /Run (?:this )?command\?/iu, line: /\(y\)/iu },
      sample: ['  $ curl -X POST http://127.0.0.1:9/upload', '', '  Run this command?', '  → Run (once) (y)', '    Skip (esc or n)'].join(
        '\n',
      ),
      lookalikes: [{ sample: idleScreen, why: 'idle input box' }],
      source: UNVERIFIED,
    },
    {
      id: 'running-tool',
      priority: 700,
      implies: { primary: 'active', detail: 'using_tools' },
      region: 'bottom_non_empty_lines(8)',
      match: { line: /^\s*\S?\s*Running(?:…|\.\.\.)/u },
      sample: ['  ⠋ Running… npm test', '', idleScreen].join('\n'),
      lookalikes: [{ sample: idleScreen, why: 'idle input box' }],
      source: UNVERIFIED,
    },
    {
      id: 'generating',
      priority: 600,
      implies: { primary: 'active', detail: 'responding' },
      region: 'bottom_non_empty_lines(8)',
      match: { line: /^\s*\S?\s*Generating(?:…|\.\.\.)/u },
      sample: ['  ⬡ Generating…  ctrl+c to stop', '', idleScreen].join('\n'),
      lookalikes: [{ sample: idleScreen, why: 'idle input box' }],
      source: UNVERIFIED,
    },
    {
      id: 'ctrl-c-to-stop',
      priority: 500,
      implies: { primary: 'active', detail: null },
      region: 'bottom_non_empty_lines(8)',
      match: { contains: 'ctrl+c to stop' },
      sample: ['  ⬡ Reading files  ctrl+c to stop', '', idleScreen].join('\n'),
      lookalikes: [{ sample: idleScreen, why: 'idle input box' }],
      source: UNVERIFIED,
    },
    {
      id: 'idle-input',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(6)',
      match: { any: [{ contains: 'Plan, search, build anything' }, { line: /\/ commands · @ files/u }] },
      sample: idleScreen,
      lookalikes: [{ sample: '  $ curl -X POST http://127.0.0.1:9/upload\n\n  Run this command?\n  → Run (once) (y)', why: 'an approval' }],
      source: UNVERIFIED,
    },
  ],
};
