import { describe, expect, it } from 'vitest';
import type { ProjectWaitingAgent } from '../../../shared/inbox';
import type { AttentionNews } from './attentionNews';
import { linkedNews } from './linkedAttention';

function row(over: Partial<ProjectWaitingAgent>): ProjectWaitingAgent {
  return {
    id: 'e1',
    name: 'claude',
    detail: 'permission',
    question: 'Bash command: npm publish — Do you want to proceed?',
    choices: [{ id: 'approve', label: 'Yes' }],
    fingerprint: 'fp1',
    since: 1,
    project: { id: 'rp_1', name: 'shop', host: 'build-box' },
    ...over,
  } as ProjectWaitingAgent;
}

describe("a remote host's waiting agents as this machine's news", () => {
  it('announces a new waiting agent naming its host, with its prompt so a notification can carry its answers', () => {
    const news = linkedNews(new Map(), [row({})], 1000);
    expect(news).toEqual([
      {
        event: 'attention',
        key: 'rp_1:e1',
        project: { id: 'rp_1', name: 'shop on build-box' },
        entry: { id: 'e1', name: 'claude' },
        reason: 'Waiting for your permission',
        question: 'Bash command: npm publish — Do you want to proceed?',
        prompt: { fingerprint: 'fp1', choices: [{ id: 'approve', label: 'Yes' }] },
        at: 1000,
      },
    ]);
    // No prompt recognised on its screen: nothing a notification could answer.
    expect(linkedNews(new Map(), [row({ fingerprint: undefined, choices: [] })], 1000)[0].prompt).toBeUndefined();
  });

  it('is quiet while the question stands, replaces it when it changes, and resolves an agent no longer listed', () => {
    const [first] = linkedNews(new Map(), [row({})], 1000);
    const announced = new Map<string, AttentionNews>([[first.key, first]]);
    expect(linkedNews(announced, [row({})], 2000)).toEqual([]);
    // The same words over a new prompt (asked again): news, so the old prompt's answers are withdrawn.
    expect(linkedNews(announced, [row({ fingerprint: 'fp2' })], 2500)).toMatchObject([
      { event: 'attention', prompt: { fingerprint: 'fp2' }, at: 2500 },
    ]);
    expect(linkedNews(announced, [row({ detail: 'question', question: 'Which branch?' })], 3000)).toMatchObject([
      { event: 'attention', reason: 'Asks you a question', question: 'Which branch?', at: 3000 },
    ]);
    expect(linkedNews(announced, [], 4000)).toEqual([{ ...first, event: 'resolved', at: 4000 }]);
  });

  it('says what a blocked agent needs done', () => {
    const blocked = row({
      detail: null,
      question: 'Not logged in',
      blocked: { detail: 'auth', message: 'Not logged in · Please run /login' } as never,
    });
    expect(linkedNews(new Map(), [blocked], 1)[0].reason).toBe('Not logged in · Please run /login');
  });
});
