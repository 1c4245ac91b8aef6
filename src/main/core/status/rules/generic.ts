/**
 * Rules for any other command: conventions shared by many interactive CLIs. Deliberately few and
 * conservative; when none matches, output activity decides (classifier fallback).
 */
import type { RuleSetInput } from '../ruleSchema';

const CONVENTION = 'common CLI convention, from knowledge (no specific tool or version)';

export const genericRules: RuleSetInput = {
  agent: 'generic',
  version: 'any',
  rules: [
    {
      id: 'proceed-question',
      priority: 900,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'bottom_non_empty_lines(12)',
      match: {
        regex: /\b(?:Do you want to proceed|Allow (?:this|execution)[^\n?]*|Approve[^\n?]*)\?/iu,
        any: [{ line: /^\s*[❯›>→●]?\s*1\. (?:Yes|Allow)/u }, { line: /\[(?:y\/n|Y\/n|y\/N)\]|\((?:y\/n|yes\/no)\)/u }],
      },
      sample: ['Run `rm -rf build`?', 'Do you want to proceed?', '❯ 1. Yes', '  2. No'].join('\n'),
      lookalikes: [{ sample: 'Do you want to proceed? (answered: yes)\n$ ', why: 'no menu or y/n choice' }],
      source: CONVENTION,
    },
    {
      id: 'yes-no-question',
      priority: 880,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'bottom_non_empty_lines(2)',
      match: { line: /(?:\[(?:y\/n|Y\/n|y\/N)\]|\((?:y\/n|yes\/no)\))\s*[:?]?\s*$/u },
      sample: 'Overwrite config.json? [y/N]',
      lookalikes: [{ sample: 'Overwrite config.json? [y/N] y\nWrote config.json', why: 'answered' }],
      source: CONVENTION,
    },
    {
      id: 'interrupt-hint',
      priority: 500,
      implies: { primary: 'active', detail: null },
      region: 'bottom_non_empty_lines(6)',
      match: { line: /\b(?:esc|ctrl\+c) to (?:interrupt|cancel|stop)\b/iu },
      sample: '⠹ Thinking… (esc to interrupt)',
      lookalikes: [{ sample: '> ', why: 'a bare prompt' }],
      source: CONVENTION,
    },
    {
      id: 'braille-spinner',
      priority: 450,
      implies: { primary: 'active', detail: null },
      region: 'bottom_non_empty_lines(4)',
      match: { line: /^\s*[\u2801-\u28FF] \S/u },
      sample: '⠙ Working on it',
      lookalikes: [{ sample: 'Done in 2.1s\n$ ', why: 'no spinner' }],
      source: CONVENTION,
    },
    {
      id: 'title-spinner',
      priority: 100,
      implies: { primary: 'active', detail: null },
      region: 'osc_title',
      match: { regex: /^[\u2801-\u28FF] /u },
      sample: '⠧ my-agent',
      lookalikes: [{ sample: 'my-agent', why: 'a plain title' }],
      source: CONVENTION,
    },
  ],
};
