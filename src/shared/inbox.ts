/**
 * The attention inbox (docs/ui.md): every agent waiting for a person, what it asks, and the
 * answers its preset knows how to give. One core method answers, for the UI, MCP and `serve`.
 */
import { z } from 'zod';
import type { BlockedDetail } from './status';
import type { ContinueAtResetInfo, TimerSummary } from './model';

/** What an answer means; the keys that carry it are preset data in the core. */
const PROMPT_CHOICE_KINDS = ['approve', 'deny', 'answer'] as const;
export type PromptChoiceKind = (typeof PROMPT_CHOICE_KINDS)[number];

export interface PromptChoice {
  /** Stable within a prompt: `approve`, `deny`, `answer`. */
  id: PromptChoiceKind;
  /** What the button says ("Yes", "No", "Yes, I trust this folder"). */
  label: string;
  /** The answer is text the person types (a question's free-text option): `answerPrompt` needs `text`. */
  takesText?: true;
}

/**
 * What fits a blocked agent (docs/agent-status.md, "Blocked agents"): sign in → open its pane;
 * a limit → continue when it resets; an API error or the network → retry now.
 */
const BLOCKED_ACTIONS = ['open_pane', 'continue_at_reset', 'retry_now'] as const;
export type BlockedAction = (typeof BLOCKED_ACTIONS)[number];

/** A blocked agent's row: why, in the CLI's words, and what to do. */
export interface BlockedRow {
  detail: BlockedDetail;
  /** The CLI's own line ("Not logged in · Please run /login"). */
  message: string;
  /** Epoch ms when the limit resets, when the CLI showed it. */
  resetsAt?: number;
  action: BlockedAction;
  /** The CLI keeps trying by itself (nothing to type into it): the action is only to open its pane. */
  retriesByItself?: true;
  /**
   * The continue already armed for it (continue at reset, or a back-off probe): its timer, which
   * timer_list shows and timer_cancel / timer_pause act on. The action is not offered again meanwhile.
   */
  continues?: ArmedContinue;
}

/** A continue timer armed for a blocked agent. */
export interface ArmedContinue {
  timerId: string;
  label?: string;
  /** Epoch ms when it fires (absent while paused). */
  firesAt?: number;
  paused?: true;
}

export interface WaitingAgent {
  id: string;
  name: string;
  /** Agent preset id ("claude", "codex", …). */
  preset: string;
  detail: 'permission' | 'question' | null;
  /** Epoch ms since when the agent waits. */
  since: number;
  /** What it asks: the prompt as it stands on its screen (or the reason when the screen shows none). */
  question: string;
  /**
   * Identifies the prompt on screen now. An answer carries it and is refused when the screen no
   * longer shows the same prompt. Absent when no screen prompt is recognised (nothing to answer here).
   */
  fingerprint?: string;
  /** Answers that can be sent from the inbox (empty: answer in the pane). */
  choices: PromptChoice[];
  /** Set when the agent is blocked rather than asking: nothing to answer, something to do. */
  blocked?: BlockedRow;
}

/** A waiting agent of one of the open projects (the window's inbox lists every project's). */
export interface ProjectWaitingAgent extends WaitingAgent {
  project: { id: string; name: string; host?: string };
}

/** Longest typed answer accepted (a few paragraphs). */
const MAX_ANSWER_CHARS = 10_000;

export const AnswerPromptArgsSchema = z.strictObject({
  id: z.string().min(1, 'process id is required'),
  /** The fingerprint of the prompt the person saw. */
  fingerprint: z.string().min(1, 'fingerprint is required').max(200),
  choice: z.enum(PROMPT_CHOICE_KINDS),
  /** The typed answer, for a choice that takes text. */
  text: z.string().trim().min(1, 'the answer is empty').max(MAX_ANSWER_CHARS).optional(),
});
export type AnswerPromptArgs = z.infer<typeof AnswerPromptArgsSchema>;

export interface AnswerPromptResult {
  id: string;
  choice: PromptChoiceKind;
  /** The label of the answer given, as the agent's screen offered it. */
  label: string;
}

/** Act on a blocked agent (the inbox's button, MCP resolve_blocked, `serve`): one core method. */
export const ResolveBlockedArgsSchema = z.strictObject({
  id: z.string().min(1, 'process id is required'),
  action: z.enum(BLOCKED_ACTIONS),
});
export type ResolveBlockedArgs = z.infer<typeof ResolveBlockedArgsSchema>;

export interface ResolveBlockedResult {
  id: string;
  action: BlockedAction;
  /** What was done, in one line ("continue typed", "continues at 15:00 (timer t_1a2b3c)"). */
  done: string;
  /** continue_at_reset: the visible timer that sends the continue at the reset (cancel and pause it like any timer). */
  timer?: TimerSummary;
}

/** The per-agent continue-at-reset toggle (the UI, MCP set_continue_at_reset, `serve`): one core method. */
export const SetContinueAtResetArgsSchema = z.strictObject({
  id: z.string().min(1, 'process id is required'),
  enabled: z.boolean(),
});
export type SetContinueAtResetArgs = z.infer<typeof SetContinueAtResetArgsSchema>;

export interface SetContinueAtResetResult {
  id: string;
  /** The agent's setting now, and where it comes from (`toggle`). */
  continueAtReset: ContinueAtResetInfo;
  /** "on (timer t_1a2b3c)", "off (timer t_1a2b3c cancelled)". */
  done: string;
  /** Turned on while blocked: the continue (or first probe) armed at once. */
  timer?: TimerSummary;
}
