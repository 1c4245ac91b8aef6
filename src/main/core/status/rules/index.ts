/** Every built-in rule set, validated once at module load (a broken rule file fails fast). */
import { loadRuleSet, type RuleSet, type RuleSetInput } from '../ruleSchema';
import { aiderRules } from './aider';
import { claudeRules } from './claude';
import { codexRules } from './codex';
import { copilotRules } from './copilot';
import { cursorAgentRules } from './cursorAgent';
import { geminiRules } from './gemini';
import { genericRules } from './generic';
import { opencodeRules } from './opencode';
import { piRules } from './pi';
import { qwenRules } from './qwen';

const RULE_SET_INPUTS: readonly RuleSetInput[] = [
  claudeRules,
  codexRules,
  geminiRules,
  opencodeRules,
  qwenRules,
  piRules,
  copilotRules,
  aiderRules,
  cursorAgentRules,
  genericRules,
];

export const BUILTIN_RULE_SETS: ReadonlyMap<string, RuleSet> = new Map(
  RULE_SET_INPUTS.map((input) => {
    const set = loadRuleSet(input);
    return [set.agent, set] as const;
  }),
);

/** The rule set for an agent id, or the generic one. */
export function ruleSetFor(agent: string): RuleSet {
  return BUILTIN_RULE_SETS.get(agent) ?? BUILTIN_RULE_SETS.get('generic')!;
}
