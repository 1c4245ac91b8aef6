/**
 * The rule table test (docs/style.md, detection tables): every rule of every agent file triggers on
 * its own sample, the whole classifier returns that rule's state for it, and none of its
 * look-alikes triggers it.
 */
import { describe, expect, it } from 'vitest';
import { classify } from '../classifier';
import { matches } from '../matcher';
import { RegionReader } from '../regions';
import type { StatusRule } from '../ruleSchema';
import { BUILTIN_RULE_SETS } from './index';

const AGENTS = ['claude', 'codex', 'gemini', 'opencode', 'qwen', 'pi', 'copilot', 'aider', 'cursor-agent', 'generic'];

/**
 * A look-alike is shown with no title: a rule that needs its sample's title must not match without
 * it. The sample's state report goes with its look-alikes too: they differ on screen.
 */
function screenFor(rule: StatusRule, sample: string): { lines: string[]; title: string; agentState?: string } {
  if (rule.region === 'osc_title') return { lines: [], title: sample };
  if (rule.region === 'osc_state') return { lines: [], title: '', agentState: sample };
  return { lines: sample.split('\n'), title: sample === rule.sample ? (rule.sampleTitle ?? '') : '', agentState: rule.sampleState };
}

function ruleMatches(rule: StatusRule, sample: string): boolean {
  const { lines, title, agentState } = screenFor(rule, sample);
  const cols = lines.reduce((w, l) => Math.max(w, l.length), 0);
  return matches(rule.match, new RegionReader({ lines, title, agentState, cols }), rule.region);
}

describe('built-in rule sets', () => {
  it('exist for every preset, plus generic', () => {
    expect([...BUILTIN_RULE_SETS.keys()].sort()).toEqual([...AGENTS].sort());
  });

  it('give every rule at least one look-alike that must not trigger it', () => {
    const missing = [...BUILTIN_RULE_SETS.values()].flatMap((s) => s.rules.filter((r) => !r.lookalikes?.length).map((r) => r.key));
    expect(missing).toEqual([]);
  });

  it('record where every rule comes from; unverified ones say so', () => {
    for (const set of BUILTIN_RULE_SETS.values()) {
      for (const rule of set.rules) {
        expect(rule.source.length).toBeGreaterThan(10);
        if (set.agent !== 'claude' && set.agent !== 'generic') expect(rule.source).toMatch(/unverified|recording|observed/);
      }
    }
  });
});

for (const agent of AGENTS) {
  const set = BUILTIN_RULE_SETS.get(agent)!;
  describe(`${agent} rules`, () => {
    it.each(set.rules.map((r) => [r.id, r] as const))('%s: its sample triggers it and classifies as its state', (_id, rule) => {
      expect(ruleMatches(rule, rule.sample)).toBe(true);
      const { lines, title, agentState } = screenFor(rule, rule.sample);
      const result = classify(lines, title, { rules: set, now: 0, agentState });
      expect(result.evaluated.find((e) => e.rule === rule.key)?.matched).toBe(true);
      expect({ primary: result.primary, detail: result.detail }).toEqual(rule.implies);
    });

    const withLookalikes = set.rules.filter((r) => r.lookalikes?.length);
    if (withLookalikes.length) {
      it.each(withLookalikes.flatMap((r) => r.lookalikes!.map((l) => [r.id, l.why, r, l.sample] as const)))(
        '%s does not trigger on a look-alike: %s',
        (_id, _why, rule, sample) => {
          expect(ruleMatches(rule, sample)).toBe(false);
        },
      );
    }
  });
}

describe('claude: rules beyond the table', () => {
  const claude = BUILTIN_RULE_SETS.get('claude')!;
  it('every Claude Code state has a rule', () => {
    const states = new Set(claude.rules.map((r) => `${r.implies.primary}/${r.implies.detail}`));
    for (const s of [
      'idle/ready',
      'active/thinking',
      'active/responding',
      'active/using_tools',
      'waiting/permission',
      'waiting/question',
    ]) {
      expect(states).toContain(s);
    }
  });

  it('the title alone does not override a waiting screen (✳ during a permission prompt)', () => {
    const rule = claude.rules.find((r) => r.id === 'permission-prompt')!;
    const result = classify(rule.sample.split('\n'), '✳ Claude Code', { rules: claude, now: 0 });
    expect(result.primary).toBe('waiting');
    expect(result.evaluated.find((e) => e.rule === 'claude/title-idle')?.matched).toBe(true);
  });
});

describe('codex: a refusal outlives the report that keys typed at Codex clear', () => {
  const codex = BUILTIN_RULE_SETS.get('codex')!;
  const limitRows = [
    '■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/',
    'usage to purchase more credits or try again at 3:06 PM.',
    '                                                                  ⚠ 5h limit: only <1% left · resets at 15:06 · /status',
  ];
  const bottom = ['  switchboard-mock default · ~/project · Mock task', '  ← for agents · ? for shortcuts'];
  const read = (rows: string[], agentState: string) => {
    const r = classify(rows, '', { rules: codex, now: 0, agentState });
    return `${r.primary}/${r.detail}`;
  };

  it('idle with the error row still last above the composer (the offer answered, a continue being typed) is still the limit', () => {
    expect(read(['› Say hello', ...limitRows, '› Ask Codex to do anything', ...bottom], 'state=idle:app=codex')).toBe('waiting/limit');
    expect(read(['› Say hello', ...limitRows, '› continue', ...bottom], 'state=idle:app=codex')).toBe('waiting/limit');
  });

  it('lets go once a turn follows the error row, or when the turn ended well', () => {
    const later = ['› Say hello', ...limitRows, '› continue', '• Back at work.', '› Ask Codex to do anything', ...bottom];
    expect(read(later, 'state=idle:app=codex')).toBe('idle/ready');
    expect(read(['› Say hello', ...limitRows, '› Ask Codex to do anything', ...bottom], 'state=working:app=codex')).not.toBe(
      'waiting/limit',
    );
  });

  it('an interrupted turn’s row under an idle report is no refusal', () => {
    const interrupted = [
      '› Say hello',
      '■ Conversation interrupted - tell the model what to do differently.',
      '› Ask Codex to do anything',
      ...bottom,
    ];
    expect(read(interrupted, 'state=idle:app=codex')).toBe('idle/ready');
  });
});

describe('gemini: a turn that ended on an error is read whatever row Gemini CLI 0.61.0 draws under it', () => {
  const gemini = BUILTIN_RULE_SETS.get('gemini')!;
  /** The refused key of a recorded take, with `under` between the error item and the composer. */
  const refusedKey = (under: string[], typed = '  Type your message or @path/to/file') => [
    ' > Say something',
    '✕ [API Error: {"error":{"code":400,"message":"API key not valid. Please pass a valid API',
    '  key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INV',
    '  ALID","domain":"googleapis.com","metadata":{"service":"generativelanguage.googleapis.com"}}]}}]',
    ...under,
    '────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────',
    ' Shift+Tab to accept edits',
    ` > ${typed}`,
    ' workspace (/directory)                         branch    sandbox       /model',
    ' /tmp/switchboard-gemini-LqhQTV/home/project    main      no sandbox    gemini-2.5-flash    ✖ 1 error (F12 for details)',
  ];
  const read = (rows: string[]) => {
    const r = classify(rows, '', { rules: gemini, now: 0 });
    return [`${r.primary}/${r.detail}`, r.reason];
  };
  const LOGIN = ['waiting/login', 'gemini/api-key-rejected'];
  // It keeps its "Executing Hooks" row at least 3 s after the hooks ran (`WARNING_PROMPT_DURATION_MS`,
  // useHookDisplayState), Switchboard's Stop hook included: the take @ 10.3 s.
  const hookRow = '  Executing Hooks: switchboard-status, switchboard-status, switchboard-status                          ? for shortcuts';

  it('under the hook row, plain or spinning, as once the row is gone', () => {
    expect(read(refusedKey([hookRow]))).toEqual(LOGIN);
    expect(read(refusedKey([hookRow.replace('  Executing Hooks', ' ⠙ Executing Hooks')]))).toEqual(LOGIN);
    expect(
      read(
        refusedKey([
          '                                                                                                        ? for shortcuts',
        ]),
      ),
    ).toEqual(LOGIN);
  });

  it('while the next prompt is typed, not sent (the hint hidden): the take @ 14.85 s', () => {
    expect(read(refusedKey([], 'Try again'))).toEqual(LOGIN);
  });

  it('a new prompt under the old error is a new turn: the hook row of its start is not the error’s', () => {
    expect(read(refusedKey([' > Try again', hookRow]))[0]).not.toMatch(/^waiting/u);
  });
});
