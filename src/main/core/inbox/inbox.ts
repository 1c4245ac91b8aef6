/**
 * The attention inbox: every waiting agent with what it asks, and answers that act only while the
 * prompt the person saw is still on screen. The core re-reads the screen at the moment of the
 * answer, so a click on a prompt that has gone (answered in the pane, timed out, replaced by
 * another) types nothing.
 */
import { SwitchboardError } from '../../../shared/errors';
import type { AnswerPromptArgs, AnswerPromptResult, WaitingAgent } from '../../../shared/inbox';
import { isBlockedDetail, type AgentStatusInfo } from '../../../shared/status';
import type { TimerSummary } from '../../../shared/model';
import { blockedRowOf, blockedSummary } from './blockedRow';
import type { PromptAnswer, PromptAnswers } from '../agents';
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
  /** Its live timers (an armed continue shows in its blocked row). */
  timers: readonly TimerSummary[];
  screen: ScreenLike & { readonly title: string };
  write(data: string): void;
  /** Types `text` as a user turn: the same path as MCP send_message (echo-wait, then Enter). */
  typeTurn(text: string): Promise<void>;
  /** True once the screen rows pass `test`, false after `maxMs` or when the run ends. */
  waitForScreen(test: (rows: string) => boolean, maxMs: number): Promise<boolean>;
}

/** How long the menu cursor may take to reach the free-text option before the answer gives up. */
const FIELD_REACH_TIMEOUT_MS = 3_000;
/**
 * How long an answered prompt may stay on screen before its keys are sent once more. A CLI may drop
 * keys that arrive the moment its dialog is drawn: Claude Code 2.1.332 took Enter 0.5 s after drawing
 * its permission dialog and dropped it 0.1 s after (test/remote/remoteGrid.test.ts, an Approve
 * from a notification through a remote host). A prompt still there this much later was not answered.
 */
const ANSWER_CONFIRM_MS = 1_500;

/** The inbox row of a waiting agent, or undefined when it is not waiting. */
function waitingAgentOf(agent: InboxAgent): WaitingAgent | undefined {
  const { status } = agent;
  if (status.primary !== 'waiting') return undefined;
  const prompt = readScreenPrompt(agent.screen, agent.screen.title, agent.rules, agent.answers);
  const base = { id: agent.id, name: agent.name, preset: agent.preset, since: status.since };
  if (isBlockedDetail(status.detail)) {
    const blocked = blockedRowOf(status.detail, status, agent.timers);
    return { ...base, detail: null, question: `${agent.preset}: ${blockedSummary(blocked)}`, choices: [], blocked };
  }
  if (!prompt) {
    // Waiting by a hook (Claude Code's permission Notification) before the dialog is drawn.
    return { ...base, detail: waitingDetail(status), question: status.reason, choices: [] };
  }
  return {
    ...base,
    detail: prompt.detail,
    question: prompt.text,
    fingerprint: prompt.fingerprint,
    choices: prompt.answers.map((a) => ({ id: a.choice, label: a.label, ...(a.text && { takesText: true as const }) })),
  };
}

/**
 * Answers once more when the prompt is still on screen after {@link ANSWER_CONFIRM_MS}, with the
 * keys the choice takes on the screen as it is then: part of the first keys may have been taken
 * (a cursor moved), and the fingerprint leaves the cursor out.
 */
async function resendIfDropped(agent: InboxAgent, fingerprint: string, choice: AnswerPromptArgs['choice']): Promise<void> {
  const current = () => readScreenPrompt(agent.screen, agent.screen.title, agent.rules, agent.answers);
  if (await agent.waitForScreen(() => current()?.fingerprint !== fingerprint, ANSWER_CONFIRM_MS)) return;
  const prompt = current();
  const answer = prompt?.fingerprint === fingerprint ? prompt.answers.find((a) => a.choice === choice && !a.text) : undefined;
  if (answer) agent.write(answer.keys);
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
export async function answerPrompt(agent: InboxAgent, args: AnswerPromptArgs): Promise<AnswerPromptResult> {
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
  if (!answer.text) {
    if (args.text !== undefined)
      throw new SwitchboardError('invalid_argument', `"${answer.label}" takes no text: send it without one; nothing was sent.`);
    agent.write(answer.keys);
    await resendIfDropped(agent, args.fingerprint, args.choice);
    return { id: agent.id, choice: answer.choice, label: answer.label };
  }
  if (args.text === undefined)
    throw new SwitchboardError('invalid_argument', `"${answer.label}" needs the answer's text; nothing was sent.`);
  const { cursor, down } = answer.text;
  const field = fieldNumber(agent, answer.text, prompt.screenRows);
  agent.write(down.repeat(field - optionNumber(cursor, prompt.screenRows)));
  // Text typed before the cursor is on the option would go to the menu, not into the answer.
  if (!(await agent.waitForScreen((rows) => optionNumber(cursor, rows) === field, FIELD_REACH_TIMEOUT_MS))) {
    throw new SwitchboardError(
      'stale_prompt',
      `"${agent.name}" did not move to its option for a typed answer; the text was not typed. Answer in its pane.`,
    );
  }
  await agent.typeTurn(args.text);
  return { id: agent.id, choice: answer.choice, label: answer.label };
}

/** The number of the option the menu cursor is on (NaN when none is). */
function optionNumber(cursor: RegExp, rows: string): number {
  return Number(cursor.exec(rows)?.[1]);
}

/** The number of the free-text option, which must lie at or below the cursor. */
function fieldNumber(agent: InboxAgent, text: NonNullable<PromptAnswer['text']>, rows: string): number {
  const cursor = optionNumber(text.cursor, rows);
  const field = Number(text.field.exec(rows)?.[1]);
  if (!Number.isInteger(cursor) || !Number.isInteger(field) || field < cursor) {
    throw new SwitchboardError(
      'invalid_argument',
      `"${agent.name}" shows no option to type an answer into below its menu cursor; nothing was sent. Answer in its pane.`,
    );
  }
  return field;
}

function waitingDetail(status: AgentStatusInfo): WaitingAgent['detail'] {
  return status.detail === 'permission' || status.detail === 'question' ? status.detail : null;
}
