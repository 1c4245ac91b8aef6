/**
 * Blocked and retrying rules read the CLI's own line (`report`): on its sample every such rule
 * reads a message, and the Gemini CLI dialogs give the model's limit and its reset as an instant.
 */
import { describe, expect, it } from 'vitest';
import { readBlockedReport } from '../blockedReport';
import { classify } from '../classifier';
import type { StatusRule } from '../ruleSchema';
import { BUILTIN_RULE_SETS } from './index';

/** 2026-11-28 02:34 UTC, when the sample's dialog was drawn. */
const NOW = Date.UTC(2026, 10, 28, 2, 34);

/** The sample as the screen, window title or state report its rule reads. */
function reportOn(rule: StatusRule, sample: string) {
  if (rule.region === 'osc_state') return readBlockedReport(rule, { lines: [], title: '', agentState: sample, cols: 0 }, NOW);
  if (rule.region === 'osc_title') return readBlockedReport(rule, { lines: [], title: sample, cols: 0 }, NOW);
  const lines = sample.split('\n');
  return readBlockedReport(rule, { lines, title: '', cols: lines.reduce((w, l) => Math.max(w, l.length), 0) }, NOW, 'America/New_York');
}

function ruleOf(agent: string, id: string): StatusRule {
  const rule = BUILTIN_RULE_SETS.get(agent)?.rules.find((r) => r.id === id);
  if (!rule) throw new Error(`no ${agent}/${id}`);
  return rule;
}

describe('blocked reports', () => {
  const reporting = [...BUILTIN_RULE_SETS.values()].flatMap((set) => set.rules.filter((r) => r.report));

  it.each(reporting.map((r) => [r.key, r] as const))('%s reads a message on its sample', (_key, rule) => {
    expect(reportOn(rule, rule.sample)?.message).toMatch(/\S/u);
  });

  it("gemini: the usage-limit dialog names the model, and its reset in the zone it prints (UTC, not the agent's)", () => {
    const rule = ruleOf('gemini', 'usage-limit-dialog');
    expect(reportOn(rule, rule.sample)).toEqual({
      message: 'Usage limit reached for gemini-2.5-flash',
      resetsAt: Date.UTC(2026, 10, 28, 3, 34),
    });
  });

  it("codex: its usage limit's reset read in the agent's zone (today's time, or a later day's date), a refused key, used-up credit", () => {
    const limit = ruleOf('codex', 'error-usage-limit');
    expect(reportOn(limit, limit.sample)).toEqual({
      message:
        'You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/ usage to purchase more credits or try again at 11:38 AM.',
      resetsAt: Date.UTC(2026, 10, 28, 16, 38),
    });
    const later = '■ You’ve hit your usage limit. Try again at Nov 29th,\n2026 9:05 AM.\n› Ask Codex to do anything';
    expect(reportOn(limit, later)?.resetsAt).toBe(Date.UTC(2026, 10, 29, 14, 5));
    expect(reportOn(limit, '■ You’ve hit your usage limit. Try again later.\n› Ask Codex to do anything')).toEqual({
      message: 'You’ve hit your usage limit. Try again later.',
    });
    const login = ruleOf('codex', 'error-unauthorized');
    expect(reportOn(login, login.sample)?.message).toBe(
      'unexpected status 401 Unauthorized: Incorrect API key provided: sk-mock-*****0000. You can find your API key at https://platform.openai.com/account/api-keys.',
    );
    const network = ruleOf('codex', 'waiting-for-network');
    expect(reportOn(network, network.sample)).toEqual({ message: 'Connection failed: error sending request', retriesByItself: true });
    expect(reportOn(login, login.sample)?.retriesByItself).toBeUndefined();
    const quota = ruleOf('codex', 'error-quota');
    expect(reportOn(quota, quota.sample)).toEqual({ message: 'Quota exceeded. Check your plan and billing details.' });
  });

  it('gemini: a rejected key reads as the API words it, across the wrapped row', () => {
    const rule = ruleOf('gemini', 'api-key-rejected');
    expect(reportOn(rule, rule.sample)).toEqual({ message: 'API key not valid. Please pass a valid API key.' });
  });

  it("gemini and opencode: retries given up read the CLI's dialog or the API's message, across the wrapped row", () => {
    const dialog = ruleOf('gemini', 'api-error-dialog');
    expect(reportOn(dialog, dialog.sample)).toEqual({ message: 'We are currently experiencing high demand' });
    const ended = ruleOf('gemini', 'api-error-ended-turn');
    expect(reportOn(ended, ended.sample)).toEqual({ message: 'The model is overloaded. Please try again later.' });
    const quota = ruleOf('gemini', 'quota-spent-ended-turn');
    expect(reportOn(quota, quota.sample)).toEqual({ message: 'You have exhausted your daily quota on this model.' });
    const opencode = ruleOf('opencode', 'api-error-gave-up');
    expect(reportOn(opencode, opencode.sample)).toEqual({
      message: 'The server had an error while processing your request. Sorry about that!',
    });
  });

  it("qwen: its rate-limit countdown reads the API's message and the attempt it shows", () => {
    const rule = ruleOf('qwen', 'retry-countdown');
    expect(reportOn(rule, rule.sample)).toEqual({
      message:
        '429 Rate limit reached for gpt-4o-mini in organization org-mock on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.',
      attempt: 1,
      maxAttempts: 10,
    });
  });

  it('qwen: a refused key reads as the API words it, with its status', () => {
    const rule = ruleOf('qwen', 'api-key-refused');
    expect(reportOn(rule, rule.sample)).toEqual({
      message:
        '401 Incorrect API key provided: sk-mock-************0000. You can find your API key at https://platform.openai.com/account/api-keys.',
    });
  });

  it("qwen: retries given up read the API's message, with or without the retry offer, and an unreachable API Qwen's own", () => {
    const rule = ruleOf('qwen', 'api-error-gave-up');
    expect(reportOn(rule, rule.sample)).toEqual({
      message:
        '429 Rate limit reached for gpt-4o-mini in organization org-mock on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.',
    });
    const offered = ['  > Say something', '  ✕ [API Error: 503 Mock error 503] (Press Ctrl+Y to retry)'];
    expect(reportOn(rule, offered.join('\n'))).toEqual({ message: '503 Mock error 503' });
    const unreachable = ruleOf('qwen', 'api-unreachable');
    expect(reportOn(unreachable, unreachable.sample)).toEqual({ message: 'Connection error. (cause: fetch failed)' });
  });

  it('pi: a refused key reads as the API words it; copilot: the provider it failed to sign in to', () => {
    const pi = ruleOf('pi', 'api-key-refused');
    expect(reportOn(pi, pi.sample)?.message).toBe(
      '401 Incorrect API key provided: sk-mock-********************0000. You can find your API key at https://platform.openai.com/account/api-keys.',
    );
    const copilot = ruleOf('copilot', 'provider-auth-failed');
    expect(reportOn(copilot, copilot.sample)).toEqual({
      message: 'Authentication failed with provider at http://127.0.0.1:39067/v1 (HTTP 401).',
    });
  });

  it("copilot: retries given up read with the API's words wrapped under them, without the transcript's scrollbar column; an unreachable provider by its URL", () => {
    const limit = ruleOf('copilot', 'gave-up-limit');
    expect(reportOn(limit, limit.sample)?.message).toBe(
      'Failed to get response from the AI model; retried 5 times (total retry wait time: 10.69 seconds) Last error: 429 Ra limit reached for gpt-4o in organization org-mock on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 2s.',
    );
    const gaveUp = ruleOf('copilot', 'gave-up');
    // The real screen once the transcript overflowed (the live test's third turn).
    const scrolled = [
      ' ❯ And now?                                                                                                      12:32 ┃',
      '                                                                                                                       ┃',
      ' ● Request failed due to a transient API error. Retrying...                                                            ┃',
      '                                                                                                                       ┃',
      ' ✗ Failed to get response from the AI model; retried 5 times (total retry wait time: 5.58 seconds) Last error: 500 The ┃',
      '   server had an error while processing your request. Sorry about that!                                                ┃',
      '                                                                                                                       ┃',
      ' ~/project [⎇ main]',
    ].join('\n');
    expect(reportOn(gaveUp, scrolled)?.message).toBe(
      'Failed to get response from the AI model; retried 5 times (total retry wait time: 5.58 seconds) Last error: 500 The server had an error while processing your request. Sorry about that!',
    );
    // The scrollbar's thumb (`█`) on the rows in view, as a CI run drew it.
    const thumb = scrolled.replace(/ ┃$/gmu, ' █');
    expect(classify(thumb.split('\n'), '', { rules: BUILTIN_RULE_SETS.get('copilot')!, now: 0 }).reason).toBe('copilot/gave-up');
    expect(reportOn(gaveUp, thumb)?.message).toBe(
      'Failed to get response from the AI model; retried 5 times (total retry wait time: 5.58 seconds) Last error: 500 The server had an error while processing your request. Sorry about that!',
    );
    const network = ruleOf('copilot', 'provider-unreachable');
    expect(reportOn(network, network.sample)?.message).toBe('Could not connect to local model provider at http://127.0.0.1:9/v1.');
  });
});
