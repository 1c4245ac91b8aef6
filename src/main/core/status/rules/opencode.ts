/**
 * opencode status rules (sst/opencode 0.x TUI). No recording: from knowledge, unverified.
 * Anatomy: an input editor at the bottom with a hint row ("enter send"); while the agent works the
 * hint row shows "esc interrupt" next to a spinner ("Working…"); tool permissions show a
 * "Permission required" panel with Allow once / Allow always / Reject.
 */
import type { RuleSetInput } from '../ruleSchema';

const UNVERIFIED = 'opencode 0.x, from knowledge, unverified';

const idleScreen = [
  '┃  > ',
  '┃',
  '  enter send                                                                       Build  claude-sonnet-4',
].join('\n');

export const opencodeRules: RuleSetInput = {
  agent: 'opencode',
  version: '0.x',
  rules: [
    {
      id: 'permission-required',
      priority: 900,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'bottom_non_empty_lines(24)',
      match: { contains: 'Permission required', any: [{ line: /Allow (?:once|always)/u }, { line: /\bReject\b/u }] },
      sample: [
        '┃  △ Permission required',
        '┃  $ curl -X POST http://127.0.0.1:9/upload',
        '┃',
        '┃  enter Allow once   a Allow always   esc Reject',
      ].join('\n'),
      lookalikes: [{ sample: idleScreen, why: 'idle editor' }],
      source: UNVERIFIED,
    },
    {
      id: 'esc-interrupt',
      priority: 500,
      implies: { primary: 'active', detail: null },
      region: 'bottom_non_empty_lines(6)',
      match: { line: /\besc (?:to )?interrupt\b/u },
      sample: [
        '┃  > ',
        '┃',
        '  ⠋ Working…  esc interrupt                                                       Build  claude-sonnet-4',
      ].join('\n'),
      lookalikes: [{ sample: idleScreen, why: 'idle hint row' }],
      source: UNVERIFIED,
    },
    {
      id: 'idle-hint-row',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(6)',
      match: { line: /\benter send\b/u },
      sample: idleScreen,
      lookalikes: [{ sample: '┃  △ Permission required\n┃  enter Allow once   a Allow always   esc Reject', why: 'the permission panel' }],
      source: UNVERIFIED,
    },
  ],
};
