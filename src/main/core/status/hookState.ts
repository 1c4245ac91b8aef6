/**
 * Structured hooks (Claude Code's UserPromptSubmit / PreToolUse / PostToolUse / Notification /
 * Stop / SessionEnd) as a status signal. A hook says exactly what the agent did, so while fresh it
 * takes precedence over the screen — except that a screen showing a dialog (waiting) wins: the
 * permission dialog appears right after PreToolUse, and its Notification hook only follows
 * seconds later. Hook state expires, so a lost hook can never pin a status.
 */
import type { AgentDetail, AgentHookEvent, BlockedInfo } from '../../../shared/status';
import type { RulePrimary } from './ruleSchema';
import { turnErrorDetail } from './turnErrors';

/** A hook decides the status for this long after it fired; then the screen decides again.
 *  Long enough to cover the screen's render lag, short enough that a lost Stop hook costs
 *  at most this much of a wrong status. */
export const HOOK_FRESH_MS = 10_000;

interface HookImplication {
  primary: RulePrimary;
  detail: AgentDetail;
}

interface HookRule {
  /** Matches Notification hooks by type or message; omitted for the other events. */
  notification?: { types: string[]; message: RegExp };
  implies: HookImplication | 'clear';
}

/** Claude Code 2.1.197 hook semantics (notification types are strings of that binary). */
const HOOK_RULES: Readonly<Record<AgentHookEvent['event'], HookRule[]>> = {
  UserPromptSubmit: [{ implies: { primary: 'active', detail: 'thinking' } }],
  PreToolUse: [{ implies: { primary: 'active', detail: 'using_tools' } }],
  PostToolUse: [{ implies: { primary: 'active', detail: 'thinking' } }],
  ResponseStart: [{ implies: { primary: 'active', detail: 'responding' } }],
  // A request to the model starts; the tracker reads a second one in the same step as a retry.
  ModelRequest: [{ implies: { primary: 'active', detail: 'thinking' } }],
  ApiRetry: [{ implies: { primary: 'active', detail: 'retrying' } }],
  Notification: [
    {
      // Claude Code and Qwen Code: `permission_prompt`; Gemini CLI: `ToolPermission`.
      notification: { types: ['permission_prompt', 'ToolPermission'], message: /needs your (?:permission|approval)/i },
      implies: { primary: 'waiting', detail: 'permission' },
    },
    {
      notification: { types: ['idle_prompt'], message: /waiting for your input/i },
      implies: { primary: 'idle', detail: 'waiting_input' },
    },
  ],
  Stop: [{ implies: { primary: 'idle', detail: 'ready' } }],
  // The turn ended on an error: blocked, with the detail its error says (hookImplication).
  TurnError: [{ implies: { primary: 'waiting', detail: 'api_error' } }],
  // The session ended, but the process may live on (/clear starts a new session): let the screen
  // and the process exit decide.
  SessionEnd: [{ implies: 'clear' }],
};

/** What a hook event implies: a state, 'clear' (forget hook state), or undefined (no opinion). */
export function hookImplication(e: AgentHookEvent): HookImplication | 'clear' | undefined {
  if (e.event === 'TurnError') return { primary: 'waiting', detail: turnErrorDetail(e) };
  for (const rule of HOOK_RULES[e.event]) {
    if (!rule.notification) return rule.implies;
    const byType = e.notificationType !== undefined && rule.notification.types.includes(e.notificationType);
    const byMessage = e.message !== undefined && rule.notification.message.test(e.message);
    if (byType || byMessage) return rule.implies;
  }
  return undefined;
}

export interface HookState extends HookImplication {
  event: AgentHookEvent['event'];
  at: number;
  /** A waiting hook: the screen has shown the dialog since (see StatusTracker). */
  isPromptDrawn?: boolean;
  /** A busy hook: the screen has shown the turn running since (see StatusTracker's stale-hook rule). */
  isTurnDrawn?: boolean;
  /** A busy hook: the screen has shown the agent busy since (not only a dialog). */
  isBusyDrawn?: boolean;
  /** A ModelRequest: the screen has shown its answer since (text or a tool), so a next one is no retry. */
  isAnswerDrawn?: boolean;
  /** A retry (ApiRetry, or a ModelRequest repeated): what the CLI said about it. */
  retry?: { message: string; attempt?: number; maxAttempts?: number; retryAt?: number };
  /** A TurnError: the error as the CLI reported it. */
  error?: BlockedInfo;
}

/**
 * How long a retry holds against a screen that shows nothing but the turn still busy (a spinner:
 * what a CLI waiting out its back-off draws): until the next attempt the CLI announced is due, plus
 * the usual freshness; without an announced time, RETRY_HOLD_MS (Gemini CLI 0.61's longest
 * back-off is 30 s). Past it a retry that never came back is a stalled turn again (stuck).
 */
const RETRY_HOLD_MS = 35_000;

export function retryHoldEndsAt(hook: HookState, freshMs: number): number | undefined {
  if (!hook.retry) return undefined;
  const { retryAt } = hook.retry;
  return retryAt === undefined ? hook.at + RETRY_HOLD_MS : Math.max(retryAt, hook.at) + freshMs;
}

/**
 * The hook state an event sets, given the one before it. ApiRetry carries the CLI's own account.
 * A ModelRequest right after another one (no tool ran, no answer was drawn between) is that
 * request's next attempt: Gemini CLI fires BeforeModel for every attempt and nothing when one
 * fails, so the repeat is the only structured sign of a retry (docs/agent-status.md).
 */
export function nextHookState(e: AgentHookEvent, implied: HookImplication, previous: HookState | undefined): HookState {
  const state: HookState = { ...implied, event: e.event, at: e.at };
  if (e.event === 'TurnError') return { ...state, error: { message: e.message ?? 'the turn ended on an error' } };
  if (e.event === 'ApiRetry') {
    const retry = { message: e.message ?? 'retrying a failed request', attempt: e.attempt, maxAttempts: e.maxAttempts, retryAt: e.retryAt };
    return { ...state, retry: definedOnly(retry) };
  }
  if (e.event !== 'ModelRequest' || previous?.event !== 'ModelRequest' || previous.isAnswerDrawn) return state;
  const attempt = (previous.retry?.attempt ?? 1) + 1;
  return { ...state, primary: 'active', detail: 'retrying', retry: { message: 'the model request is being retried', attempt } };
}

/** What the hook's CLI said about a retrying or blocked `detail` the hook decided (its retry, its error). */
export function hookReport(hook: HookState | undefined, detail: AgentDetail): BlockedInfo | undefined {
  if (hook?.detail !== detail) return undefined;
  if (hook.retry) {
    const { retryAt: _, ...said } = hook.retry;
    return said;
  }
  return hook.error;
}

function definedOnly<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export interface MergedState {
  primary: RulePrimary;
  detail: AgentDetail;
  reason: string;
  /** The hook decided the primary (an authoritative Stop needs no idle debounce). */
  isFromHook?: boolean;
  /** The screen shows a strong idle signal: the short idle debounce applies. */
  isStrongIdle?: boolean;
}

/**
 * Combine a fresh hook state with the screen's classification: the hook decides the primary,
 * a screen dialog (waiting) overrides it, and the screen refines a hook's "thinking" while both
 * say active (a PostToolUse "thinking" becomes "responding" once text streams).
 */
export function mergeHookWithScreen(hook: HookState, screen: MergedState): MergedState {
  // The screen knows which dialog it shows (a CLI may notify a question as a permission prompt).
  if (screen.primary === 'waiting') return hook.primary === 'waiting' ? { ...screen, isFromHook: true } : screen;
  // A retry is over once the screen shows its answer (text streaming, a tool running).
  if (hook.detail === 'retrying' && screen.primary === 'active' && screen.detail !== null && screen.detail !== 'thinking') return screen;
  // UserPromptSubmit / PostToolUse only say "a request is in flight": the screen shows when it
  // streams (responding) or runs a tool. PreToolUse (using_tools) and Stop are exact, and so is
  // PostToolUse about the tool: the finished tool's box lingers on screen, it does not run.
  const isFinishedToolOnScreen = hook.event === 'PostToolUse' && screen.detail === 'using_tools';
  if (
    hook.primary === 'active' &&
    hook.detail === 'thinking' &&
    screen.primary === 'active' &&
    screen.detail !== null &&
    !isFinishedToolOnScreen
  ) {
    return { primary: hook.primary, detail: screen.detail, reason: `hook:${hook.event}+${screen.reason}`, isFromHook: true };
  }
  return hookAlone(hook);
}

/** The hook's own state, for when nothing on screen refines it. */
export function hookAlone(hook: HookState): MergedState {
  return { primary: hook.primary, detail: hook.detail, reason: `hook:${hook.event}`, isFromHook: true };
}
