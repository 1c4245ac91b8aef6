/**
 * The attention inbox: every waiting agent with what it asks, and answers that act only while the
 * prompt the person saw is still on screen. The core re-reads the screen at the moment of the
 * answer, so a click on a prompt that has gone (answered in the pane, timed out, replaced by
 * another) types nothing.
 */
import { SwitchboardError } from '../../../shared/errors';
import type { AnswerPromptArgs, AnswerPromptResult, WaitingAgent } from '../../../shared/inbox';
import type { AgentStatusInfo } from '../../../shared/status';
import type { PromptAnswers } from '../agents';
import type { RuleSet, ScreenLike } from '../status';
import { readScreenPrompt } from './screenPrompt';

/** What the inbox needs of one agent entry. */
export interface InboxAgent {
  id: string;
  name: string;
  preset: string;
  rules: RuleSet;
  answers: PromptAnswers;
  status: AgentStatusInfo;
  screen: ScreenLike & { readonly title: string };
  write(data: string): void;
}

/** The inbox row of a waiting agent, or undefined when it is not waiting. */
function waitingAgentOf(agent: InboxAgent): WaitingAgent | undefined {
  const { status } = agent;
  if (status.primary !== 'waiting') return undefined;
  const prompt = readScreenPrompt(agent.screen, agent.screen.title, agent.rules, agent.answers);
  const base = { id: agent.id, name: agent.name, preset: agent.preset, since: status.since };
  if (!prompt) {
    // Waiting by a hook (Claude Code's permission Notification) before the dialog is drawn.
    return { ...base, detail: waitingDetail(status), question: status.reason, choices: [] };
  }
  return {
    ...base,
    detail: prompt.detail,
    question: prompt.text,
    fingerprint: prompt.fingerprint,
    choices: prompt.answers.map((a) => ({ id: a.choice, label: a.label })),
  };
}

/** Every waiting agent, the one waiting longest first. */
export function listWaiting(agents: Iterable<InboxAgent>): WaitingAgent[] {
  const rows: WaitingAgent[] = [];
  for (const agent of agents) {
    const row = waitingAgentOf(agent);
    if (row) rows.push(row);
  }
  return rows.sort((a, b) => a.since - b.since || a.name.localeCompare(b.name));
}

/**
 * Sends the keys of `args.choice` to this agent, only if its screen still shows the prompt with
 * `args.fingerprint` and the choice still means what it says there.
 */
export function answerPrompt(agent: InboxAgent, args: AnswerPromptArgs): AnswerPromptResult {
  const prompt = readScreenPrompt(agent.screen, agent.screen.title, agent.rules, agent.answers);
  if (!prompt) {
    throw new SwitchboardError(
      'stale_prompt',
      `"${agent.name}" no longer shows a prompt (it was answered or went away); nothing was sent.`,
    );
  }
  if (prompt.fingerprint !== args.fingerprint) {
    throw new SwitchboardError(
      'stale_prompt',
      `"${agent.name}" now shows a different prompt than the one answered; nothing was sent. Read it again and answer that one.`,
      { current_fingerprint: prompt.fingerprint },
    );
  }
  const answer = prompt.answers.find((a) => a.choice === args.choice);
  if (!answer) {
    throw new SwitchboardError(
      'invalid_argument',
      `"${agent.name}" cannot be answered "${args.choice}" from here (the menu cursor moved, or ${agent.preset} has no such answer); nothing was sent. Answer in its pane.`,
    );
  }
  agent.write(answer.keys);
  return { id: agent.id, choice: answer.choice, label: answer.label };
}

function waitingDetail(status: AgentStatusInfo): WaitingAgent['detail'] {
  return status.detail === 'permission' || status.detail === 'question' ? status.detail : null;
}
