import { describe, expect, it } from 'vitest';
import type { ProcessEntry } from '../sessions';
import { CommitMessageRequests } from './commitMessageRequests';

/** The two facts of an entry the requests read: its kind, worktree and whether it runs. */
const agentIn = (id: string, worktree: string, isRunning = true) =>
  ({ id, kind: 'agent', isRunning, definition: { worktree } }) as unknown as ProcessEntry;

function host(entries: ProcessEntry[], sendUserTurn: (id: string, text: string) => Promise<void> = () => Promise.resolve()) {
  const turns: Array<[string, string]> = [];
  return {
    turns,
    entries: () => entries,
    sendUserTurn: async (id: string, text: string) => {
      turns.push([id, text]);
      await sendUserTurn(id, text);
    },
  };
}

describe('commit messages asked of a worktree agent', () => {
  it('types the question into the agent of that worktree and answers with what it proposes', async () => {
    const h = host([agentIn('p_main', 'main'), agentIn('p_a', 'a')]);
    const requests = new CommitMessageRequests(h);
    const asked = requests.ask('a');
    await Promise.resolve();
    expect(h.turns).toEqual([['p_a', expect.stringContaining('propose_commit_message') as string]]);
    expect(() => requests.propose('p_main', 'main', 'from elsewhere')).toThrow(/Nobody asked you/);
    await expect(requests.ask('a')).rejects.toThrow(/already writing a commit message/);
    expect(requests.propose('p_a', 'a', '  Add notes\n')).toEqual({ delivered: true });
    await expect(asked).resolves.toEqual({ message: 'Add notes', agent: 'p_a' });
    expect(() => requests.propose('p_a', 'a', 'twice')).toThrow(/Nobody asked you/);
  });

  it('refuses a worktree without a running agent, and reports a turn that could not be typed or an agent that never answers', async () => {
    const stopped = new CommitMessageRequests(host([agentIn('p_a', 'a', false)]));
    await expect(stopped.ask('a')).rejects.toThrow(/No agent runs in worktree "a"/);
    const failing = new CommitMessageRequests(host([agentIn('p_a', 'a')], () => Promise.reject(new Error('the agent is dead'))));
    await expect(failing.ask('a')).rejects.toThrow('the agent is dead');
    const silent = new CommitMessageRequests(host([agentIn('p_a', 'a')]), 20);
    await expect(silent.ask('a')).rejects.toThrow(/did not propose a commit message within 0.02 s/);
    await expect(silent.ask('a')).rejects.toThrow(/did not propose/);
  });
});
