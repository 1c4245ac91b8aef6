/**
 * A commit message asked of the worktree's agent (docs/worktrees.md, "Commit message from the
 * agent"): the agent gets a user turn, through the same core method MCP's `send_message` uses,
 * asking it to hand the message back with the MCP tool `propose_commit_message`; the asker waits
 * for that call. A tool argument, not the agent's screen: a TUI draws, wraps and decorates its
 * reply, while the tool's argument is the message as the agent wrote it.
 */
import type { WorktreeHost } from './worktreeHost';
import { WorktreeError } from './worktreeError';

/** An agent turn that reads a diff and writes a line is quick; a stuck one should not hold the button longer. */
const ANSWER_TIMEOUT_MS = 180_000;

interface PendingAsk {
  agentId: string;
  answer(message: string): void;
  fail(error: Error): void;
}

export interface CommitMessageAnswer {
  message: string;
  /** The entry id of the agent that wrote it. */
  agent: string;
}

export class CommitMessageRequests {
  /** One open question per worktree, by worktree id. */
  private readonly pending = new Map<string, PendingAsk>();

  constructor(
    private readonly host: Pick<WorktreeHost, 'entries' | 'sendUserTurn'>,
    private readonly timeoutMs = ANSWER_TIMEOUT_MS,
  ) {}

  /** Asks the agent running in `worktree` for a message for its uncommitted work and waits for it. */
  async ask(worktree: string): Promise<CommitMessageAnswer> {
    const agent = this.host.entries().find((e) => e.kind === 'agent' && e.definition.worktree === worktree && e.isRunning);
    if (!agent) throw new WorktreeError('no_agent', `No agent runs in worktree "${worktree}" to ask for a commit message: type one.`);
    if (this.pending.has(worktree))
      throw new WorktreeError('already_asked', `The agent in worktree "${worktree}" is already writing a commit message.`);
    const answer = this.awaitAnswer(worktree, agent.id);
    try {
      await this.host.sendUserTurn(agent.id, askingTurn(worktree));
    } catch (err) {
      this.pending.get(worktree)?.fail(err instanceof Error ? err : new Error(String(err)));
    }
    return { message: await answer, agent: agent.id };
  }

  /** The MCP tool's call: the caller must be the agent asked, in the worktree asked about. */
  propose(callerId: string | undefined, worktree: string | undefined, message: string): { delivered: true } {
    const ask = worktree === undefined ? undefined : this.pending.get(worktree);
    if (!ask || ask.agentId !== callerId)
      throw new WorktreeError('not_asked', 'Nobody asked you for a commit message: propose_commit_message answers that request only.');
    ask.answer(message.trim());
    return { delivered: true };
  }

  private awaitAnswer(worktree: string, agentId: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        this.pending.delete(worktree);
      };
      const timer = setTimeout(() => {
        settle();
        reject(
          new WorktreeError(
            'no_answer',
            `The agent in worktree "${worktree}" did not propose a commit message within ${this.timeoutMs / 1000} s: type one.`,
          ),
        );
      }, this.timeoutMs);
      this.pending.set(worktree, {
        agentId,
        answer: (message) => (settle(), resolve(message)),
        fail: (error) => (settle(), reject(error)),
      });
    });
  }
}

function askingTurn(worktree: string): string {
  return [
    `Write a commit message for the uncommitted changes in this worktree (${worktree}):`,
    'a subject line of at most 72 characters, then, if it helps, a blank line and a short body.',
    'Do not commit. Hand the message back by calling the Switchboard MCP tool propose_commit_message with it as `message`.',
  ].join(' ');
}
