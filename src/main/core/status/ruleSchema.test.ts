import { describe, expect, it } from 'vitest';
import { loadRuleSet, RuleSetError, type RuleSetInput, type StatusRuleInput } from './ruleSchema';

const rule = (over: Partial<StatusRuleInput> & Record<string, unknown> = {}): StatusRuleInput => ({
  id: 'busy',
  priority: 500,
  implies: { primary: 'active', detail: 'thinking' },
  region: 'bottom_non_empty_lines(4)',
  match: { contains: 'esc to interrupt' },
  sample: 'esc to interrupt',
  source: 'test tool 1.0, hand-written',
  ...over,
});
const set = (...rules: StatusRuleInput[]): RuleSetInput => ({ agent: 'test', version: '1.0', rules });

function problems(input: RuleSetInput): string[] {
  try {
    loadRuleSet(input);
  } catch (e) {
    expect(e).toBeInstanceOf(RuleSetError);
    return (e as RuleSetError).problems;
  }
  throw new Error('expected the rule set to be refused');
}

describe('loadRuleSet', () => {
  it('compiles a valid set, sorted by priority, with <agent>/<id> keys', () => {
    const loaded = loadRuleSet(set(rule(), rule({ id: 'idle', priority: 300, implies: { primary: 'idle', detail: 'ready' } })));
    expect(loaded.rules.map((r) => r.key)).toEqual(['test/busy', 'test/idle']);
    expect(loaded.rules[0].match.contains).toEqual(['esc to interrupt']);
  });

  it('accepts strongIdle only on idle rules', () => {
    const idle = rule({ id: 'idle', priority: 300, implies: { primary: 'idle', detail: 'ready' }, strongIdle: true });
    expect(loadRuleSet(set(idle)).rules[0].strongIdle).toBe(true);
    expect(problems(set(rule({ strongIdle: true })))).toEqual([
      expect.stringMatching(/^rule busy \(strongIdle\): only idle rules can be strong idle signals/),
    ]);
  });

  it('accepts retriesByItself only on blocked rules', () => {
    const network = { implies: { primary: 'waiting', detail: 'network' } as const, report: 'Reconnecting', retriesByItself: true };
    expect(loadRuleSet(set(rule({ id: 'net', ...network }))).rules[0].retriesByItself).toBe(true);
    expect(problems(set(rule({ retriesByItself: true })))).toEqual([
      expect.stringMatching(/^rule busy \(retriesByItself\): only blocked rules say the CLI retries by itself/),
    ]);
  });

  it('accepts a prompt layout only on waiting rules that read the screen, and no stateful regex in it', () => {
    const waiting = { implies: { primary: 'waiting', detail: 'permission' } as const, prompt: { anchor: '^Allow\\?' } };
    expect(loadRuleSet(set(rule({ id: 'ask', ...waiting }))).rules[0].prompt?.anchor).toEqual(/^Allow\?/u);
    expect(problems(set(rule({ prompt: { anchor: 'x' } })))).toEqual([
      expect.stringMatching(/^rule busy \(prompt\): only waiting rules that read the screen locate a prompt/),
    ]);
    expect(problems(set(rule({ id: 'ask', ...waiting, prompt: { anchor: 'x', omit: [/hint/g] } })))).toEqual([
      expect.stringMatching(/^rule ask \(prompt\): regex \/hint\/g: drop the g\/y flag/),
    ]);
  });

  it('refuses an unknown region, naming the rule', () => {
    expect(problems(set(rule({ id: 'bad-region', region: 'prompt_box_body' })))).toEqual([
      expect.stringMatching(/^rule bad-region \(region\): unknown region "prompt_box_body"/),
    ]);
  });

  it('refuses an unknown region inside a nested matcher', () => {
    const p = problems(set(rule({ id: 'nested', match: { all: [{ region: 'status_bar', contains: 'x' }] } })));
    expect(p[0]).toMatch(/^rule nested \(match\.all\.0\.region\): unknown region "status_bar"/);
  });

  it('refuses unknown fields (strict)', () => {
    expect(problems(set(rule({ id: 'typo', state: 'idle' }))).join()).toMatch(/rule typo.*state/);
    expect(problems(set(rule({ id: 'typo2', match: { contain: 'x' } as never }))).join()).toMatch(/rule typo2 \(match\)/);
  });

  it('refuses a detail that does not belong to the primary', () => {
    expect(problems(set(rule({ id: 'contra', implies: { primary: 'idle', detail: 'permission' } })))[0]).toMatch(
      /rule contra \(implies\.detail\): idle cannot have detail permission/,
    );
    expect(problems(set(rule({ id: 'nulldetail', implies: { primary: 'waiting', detail: null } })))[0]).toMatch(
      /may be null only for active/,
    );
  });

  it('refuses states a screen cannot imply (stuck, dead, starting come from timing and exits)', () => {
    expect(problems(set(rule({ id: 'dead', implies: { primary: 'dead' as never, detail: null } })))[0]).toMatch(/^rule dead/);
  });

  it('refuses duplicate ids, g/y regexes, empty matchers and deep nesting', () => {
    expect(problems(set(rule(), rule()))).toContain('rule busy: duplicate id');
    expect(problems(set(rule({ id: 'glob', match: { line: /x/g } })))[0]).toMatch(/rule glob: regex \/x\/g: drop the g\/y flag/);
    expect(problems(set(rule({ id: 'empty', match: {} })))[0]).toMatch(/rule empty \(match\): a matcher needs/);
    const deep = { not: { not: { not: { not: { contains: 'x' } } } } };
    expect(problems(set(rule({ id: 'deep', match: deep })))[0]).toMatch(/rule deep \(match\): matcher nesting deeper than 4/);
  });

  it('requires a sample and a source', () => {
    expect(problems(set(rule({ id: 'nosample', sample: '' })))[0]).toMatch(/^rule nosample \(sample\)/);
    expect(problems(set(rule({ id: 'nosource', source: 'x' })))[0]).toMatch(/^rule nosource \(source\)/);
  });
});
