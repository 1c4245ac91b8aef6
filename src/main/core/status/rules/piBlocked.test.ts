/**
 * pi 0.73.1's retries and give-ups read from its own rows (rules/pi.ts): the retry counter and the
 * error it retries, the cause of a give-up told apart by the last error's words, and an Escape
 * during the back-off (`Retry cancelled`) is the person's choice, not a block.
 */
import { describe, expect, it } from 'vitest';
import { readBlockedReport } from '../blockedReport';
import { classify } from '../classifier';
import type { StatusRule } from '../ruleSchema';
import { BUILTIN_RULE_SETS } from './index';

const pi = BUILTIN_RULE_SETS.get('pi')!;
const ruleOf = (id: string): StatusRule => pi.rules.find((r) => r.id === id)!;
const lookalike = (id: string, why: RegExp) => ruleOf(id).lookalikes!.find((l) => why.test(l.why))!.sample;
const report = (rule: StatusRule, sample: string) => {
  const lines = sample.split('\n');
  return readBlockedReport(rule, { lines, title: '', cols: Math.max(...lines.map((l) => l.length)) }, 0);
};
const stateOf = (sample: string) => classify(sample.split('\n'), 'π - project', { rules: pi, now: 0 });

describe('pi blocked rows', () => {
  it('a retry reads its attempt, the maximum and the error it retries', () => {
    const rule = ruleOf('retrying');
    expect(report(rule, rule.sample)).toEqual({ message: '500 Mock error 500', attempt: 1, maxAttempts: 3 });
  });

  it('each give-up reads its cause, its attempts and the last error as the API words it (no reset: OpenAI says "in 20s", not a time)', () => {
    expect(report(ruleOf('limit-gave-up'), ruleOf('limit-gave-up').sample)).toEqual({
      message:
        '429 Rate limit reached for gpt-4o-mini in organization org-mock on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.',
      attempt: 3,
    });
    expect(report(ruleOf('quota-gave-up'), ruleOf('quota-gave-up').sample)?.message).toMatch(
      /^429 You exceeded your current quota, .* read the docs: \S+\/api-errors\.$/u,
    );
    expect(report(ruleOf('network-gave-up'), ruleOf('network-gave-up').sample)?.message).toBe('Connection error.');
    const states = ['quota-gave-up', 'limit-gave-up', 'network-gave-up', 'api-error-gave-up'].map((id) => stateOf(ruleOf(id).sample));
    expect(states.map((s) => `${s.primary} · ${s.detail}`)).toEqual([
      'waiting · quota',
      'waiting · limit',
      'waiting · network',
      'waiting · api_error',
    ]);
  });

  it('in a 56-column pane the wrapped paragraphs still read (real screens of pi at 56x30)', () => {
    const rule = '─'.repeat(56);
    const narrow = (rows: string[]) =>
      [...rows, rule, '', rule, '~/project (main)', `0.0%/128k (auto)${' '.repeat(24)}switchboard-mock`].join('\n');
    const refused = stateOf(
      narrow([
        ' Say one',
        '',
        ' Error: 401 Incorrect API key provided:',
        ' sk-mock-********************0000. You can find your',
        ' API key at',
        ' https://platform.openai.com/account/api-keys.',
      ]),
    );
    expect(refused).toMatchObject({ primary: 'waiting', detail: 'login', reason: 'pi/api-key-refused' });
    const quota = narrow([
      ' Error: 429 You exceeded your current quota, please',
      ' check your plan and billing details. For more',
      ' information on this error, read the docs:',
      ' https://platform.openai.com/docs/guides/error-codes/ap',
      ' i-errors.',
      '',
      ' Error: Retry failed after 1 attempts: 429 You exceeded',
      ' your current quota, please check your plan and billing',
      ' details. For more information on this error, read the',
      ' docs:',
      ' https://platform.openai.com/docs/guides/error-codes/ap',
      ' i-errors.',
    ]);
    expect(stateOf(quota)).toMatchObject({ primary: 'waiting', detail: 'quota', reason: 'pi/quota-gave-up' });
    expect(report(ruleOf('quota-gave-up'), quota)).toMatchObject({
      attempt: 1,
      message: expect.stringMatching(/^429 You exceeded your current quota, please check/u),
    });
  });

  it('a cancelled retry and a later prompt read idle at the editor', () => {
    for (const sample of [lookalike('api-error-gave-up', /cancelled/u), lookalike('api-error-gave-up', /later prompt/u)]) {
      expect(stateOf(sample)).toMatchObject({ primary: 'idle', reason: 'pi/editor-idle' });
    }
  });
});
