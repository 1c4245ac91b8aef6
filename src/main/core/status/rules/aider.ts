/**
 * aider status rules (aider-chat 0.8x, prompt_toolkit line UI). No recording: from knowledge,
 * unverified. aider is line-oriented: its prompt is `> ` (or `architect> `, `ask> `, `multi> `) on
 * the last row; confirmations end in "(Y)es/(N)o [Yes]:"; while waiting on the model a spinner row
 * reads "Waiting for <model>"; replies stream as plain text (the activity fallback covers them).
 */
import type { RuleSetInput } from '../ruleSchema';

const UNVERIFIED = 'aider 0.8x, from knowledge, unverified';

export const aiderRules: RuleSetInput = {
  agent: 'aider',
  version: '0.8x',
  rules: [
    {
      id: 'shell-command-confirm',
      priority: 900,
      implies: { primary: 'waiting', detail: 'permission' },
      region: 'bottom_non_empty_lines(1)',
      match: { line: /Run shell commands?\? \(Y\)es\/\(N\)o.*\[(?:Yes|No)\]:\s*$/u },
      sample: ['pytest -q', '', "Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]:"].join('\n'),
      lookalikes: [
        { sample: ['Run shell command? (Y)es/(N)o [Yes]: y', 'Running pytest -q', '3 passed'].join('\n'), why: 'an answered question' },
      ],
      source: UNVERIFIED,
    },
    {
      id: 'confirm-question',
      priority: 880,
      implies: { primary: 'waiting', detail: 'question' },
      region: 'bottom_non_empty_lines(2)',
      match: { line: /\(Y\)es\/\(N\)o.*\[(?:Yes|No)\]:\s*$/u },
      sample: ['README.md', "Add file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]:"].join('\n'),
      lookalikes: [{ sample: ['Add file to the chat? (Y)es/(N)o [Yes]: y', '> '].join('\n'), why: 'an answered question' }],
      source: UNVERIFIED,
    },
    {
      id: 'waiting-for-model',
      priority: 600,
      implies: { primary: 'active', detail: 'thinking' },
      region: 'bottom_non_empty_lines(2)',
      match: { line: /Waiting for \S+/u },
      sample: ['> explain main.py', '', '░█        Waiting for claude-sonnet-4'].join('\n'),
      lookalikes: [{ sample: 'architect> ', why: 'the empty prompt' }],
      source: UNVERIFIED,
    },
    {
      id: 'idle-prompt',
      priority: 300,
      implies: { primary: 'idle', detail: 'ready' },
      region: 'bottom_non_empty_lines(1)',
      match: { line: /^(?:[a-z-]+)?> ?$/u },
      sample: ['Tokens: 2.1k sent, 310 received. Cost: $0.01 message, $0.02 session.', '', 'architect> '].join('\n'),
      lookalikes: [{ sample: '> explain main.py', why: 'a submitted prompt (text after the marker) is not an empty prompt' }],
      source: UNVERIFIED,
    },
  ],
};
