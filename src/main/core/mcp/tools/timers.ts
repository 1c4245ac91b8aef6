/**
 * Timer tools (docs/mcp.md, docs/timers.md): schedule a user turn for an agent after a delay or when other agents
 * go idle, and manage the timers the caller may manage. Each calls the same TimerManager method
 * the UI's commands call; results use the MCP tools' snake_case.
 */
import type { TimerHistoryEntry, TimerSummary } from '../../../../shared/model';
import type { TimerArmed } from '../../timers';
import type { McpToolArgs } from '../../../../shared/mcp';
import { defineTool, type Requirement, type ToolCall, type ToolContext } from '../toolContext';

/** A timer as agents read it. */
export function timerView(t: TimerSummary): Record<string, unknown> {
  return {
    timer_id: t.id,
    kind: t.kind,
    ...(t.label !== undefined ? { label: t.label } : {}),
    state: t.state,
    owner_process_id: t.ownerId,
    ...(t.firesAt !== undefined ? { fires_at: new Date(t.firesAt).toISOString() } : {}),
    ...(t.remainingMs !== undefined ? { remaining_ms: Math.round(t.remainingMs) } : {}),
    ...(t.watched ? { watched: t.watched } : {}),
    ...(t.waitingOn ? { waiting_on: t.waitingOn } : {}),
    ...(t.blockedOn ? { blocked_on: t.blockedOn.map((b) => ({ process_id: b.id, reason: b.reason })) } : {}),
    ...(t.whenBlocked ? { continue_at_reset: true } : {}),
    body_preview: t.bodyPreview,
    created_by: t.createdBy,
    created_at: new Date(t.createdAt).toISOString(),
  };
}

function historyView(h: TimerHistoryEntry): Record<string, unknown> {
  return {
    timer_id: h.id,
    kind: h.kind,
    ...(h.label !== undefined ? { label: h.label } : {}),
    state: h.state,
    reason: h.reason,
    owner_process_id: h.ownerId,
    owner_name: h.ownerName,
    ended_at: new Date(h.endedAt).toISOString(),
    body_preview: h.bodyPreview,
    created_by: h.createdBy,
  };
}

/** The answer to setting a timer: the timer, who is idle already, who it waits on, in a sentence too. */
function armedView(armed: TimerArmed, ctx: ToolContext, call: ToolCall): Record<string, unknown> {
  const t = armed.timer;
  const owner =
    t.ownerId === (call.caller.kind === 'process' ? call.caller.processId : undefined) ? `you (${t.ownerId})` : nameOf(ctx, t.ownerId);
  let message: string;
  if (t.state === 'due') message = `Every watched agent is already idle: the body goes to ${owner} as soon as it is at its prompt.`;
  else if (t.kind === 'delay')
    message = `Timer ${t.id} fires in ${secondsText(t.remainingMs)}; the body then goes to ${owner} as a new user turn once it is at its prompt.`;
  else {
    const what = t.kind === 'idle_any' ? 'when any of them finishes a turn' : 'when all of them are idle';
    const fallback = t.remainingMs !== undefined ? `, or after ${secondsText(t.remainingMs)} at the latest` : '';
    message = `Timer ${t.id} waits on ${armed.waitingOn.map((id) => nameOf(ctx, id)).join(', ') || 'nobody'} and fires ${what}${fallback}; the body goes to ${owner}.`;
  }
  return { ...timerView(t), already_idle: armed.alreadyIdle, waiting_on: armed.waitingOn, message };
}

function nameOf(ctx: ToolContext, id: string): string {
  const entry = ctx.core.findEntry(id);
  return entry ? `${entry.name} (${id})` : id;
}

function secondsText(ms: number | undefined): string {
  const seconds = Math.round((ms ?? 0) / 100) / 10;
  return `${seconds} s`;
}

const DELIVERY =
  "The body is typed into the owner's terminal as a fresh user turn, only when the owner is at its prompt (a busy owner gets it when it is idle again). The owner is you, or owner_process_id (required when you are not a process started by Switchboard).";

/** The timer manager shows and changes only the caller's timers (those it owns or set); another's is "not found". */
const OWN_TIMERS: { open: string } = { open: "only the caller's own timers (it owns or set them); another's is answered as not found" };

/** Setting a timer for another entry needs the right to type into it. */
function deliversToOwner({ owner_process_id }: { owner_process_id?: string }): Requirement[] {
  return [{ entry: owner_process_id, right: 'input', action: 'delivering a timer body to' }];
}

/** Both idle timers take the same arguments; `kind` says whether any or all watched agents must be idle. */
function setIdleTimer(kind: 'idle_any' | 'idle_all') {
  return (args: McpToolArgs<'timer_fire_when_idle_any'>, call: ToolCall, ctx: ToolContext): Record<string, unknown> => {
    const { watched, body, max_wait_seconds, label, owner_process_id } = args;
    const timer = { kind, watched, body, maxWaitSeconds: max_wait_seconds, label, ownerId: owner_process_id };
    return armedView(ctx.core.timers.setIdle(call.caller, timer), ctx, call);
  };
}

const timerSet = defineTool({
  name: 'timer_set',
  title: 'Set a timer',
  summary: 'Deliver a body to the owner as a user turn after a delay.',
  description: `One-shot timer: after \`seconds\`, deliver \`body\` to the owner. ${DELIVERY} Returns timer_id, fires_at and remaining_ms.`,
  requires: { perCall: deliversToOwner },
  run: ({ seconds, body, label, owner_process_id }, call, ctx) =>
    armedView(ctx.core.timers.setDelay(call.caller, { seconds, body, label, ownerId: owner_process_id }), ctx, call),
});

const timerFireWhenIdleAny = defineTool({
  name: 'timer_fire_when_idle_any',
  title: 'Fire when any agent finishes',
  summary: 'Deliver a body when any watched agent goes idle.',
  description: `Deliver \`body\` when any of the \`watched\` agents finishes a turn (goes from working to idle). Agents already idle now do not count until they work and come back; a freshly spawned agent counts once it has done its first instructions. With max_wait_seconds it fires anyway after that long. ${DELIVERY} Returns already_idle and waiting_on.`,
  requires: { perCall: deliversToOwner },
  run: setIdleTimer('idle_any'),
});

const timerFireWhenIdleAll = defineTool({
  name: 'timer_fire_when_idle_all',
  title: 'Fire when all agents are idle',
  summary: 'Deliver a body when all watched agents are idle.',
  description: `Deliver \`body\` when every one of the \`watched\` agents is idle at the same time (agents idle already count; a freshly spawned agent only once it has done its first instructions; an agent that exited counts as done). Fires at once if all are idle now. With max_wait_seconds it fires anyway after that long. ${DELIVERY} Returns already_idle and waiting_on.`,
  requires: { perCall: deliversToOwner },
  run: setIdleTimer('idle_all'),
});

const timerCancel = defineTool({
  name: 'timer_cancel',
  title: 'Cancel a timer',
  summary: 'Cancel a timer.',
  description:
    "Cancel one of your timers (one you own or set); it moves to timer_list's history. Callers outside Switchboard can cancel any timer.",
  annotations: { destructiveHint: true },
  requires: OWN_TIMERS,
  run: ({ timer_id }, call, ctx) => historyView(ctx.core.timers.cancel(call.caller, timer_id)),
});

const timerPause = defineTool({
  name: 'timer_pause',
  title: 'Pause a timer',
  summary: 'Pause a timer, keeping its remaining time.',
  description:
    'Pause one of your timers. A delay timer keeps its remaining time; an idle timer stops listening (and its max wait stops counting) until resumed.',
  requires: OWN_TIMERS,
  run: ({ timer_id }, call, ctx) => timerView(ctx.core.timers.pause(call.caller, timer_id)),
});

const timerResume = defineTool({
  name: 'timer_resume',
  title: 'Resume a timer',
  summary: 'Resume a paused timer.',
  description:
    'Resume a paused timer: a delay counts down the time it had left; an idle timer listens again (transitions while paused are not counted).',
  requires: OWN_TIMERS,
  run: ({ timer_id }, call, ctx) => timerView(ctx.core.timers.resume(call.caller, timer_id)),
});

const timerList = defineTool({
  name: 'timer_list',
  title: 'List timers',
  summary: 'Your timers and what each waits on.',
  description:
    'Your timers (those you own or set; every timer for callers outside Switchboard), nearest first, and a history of ended ones: fired, cancelled, or dropped with the reason (owner closed or exited, watched agent closed).',
  annotations: { readOnlyHint: true },
  requires: OWN_TIMERS,
  run: (_args, call, ctx) => {
    const { timers, history } = ctx.core.timers.list(call.caller);
    return { timers: timers.map(timerView), history: history.map(historyView) };
  },
});

const timerWait = defineTool({
  name: 'timer_wait',
  title: 'Wait (legacy)',
  summary: 'Legacy delay: a fixed line typed to you after some seconds (prefer timer_set).',
  description:
    'Legacy delay: after `seconds`, a fixed line ("[switchboard] timer_wait: N s elapsed.") is typed to you as a user turn. Prefer timer_set, which delivers a body you choose.',
  requires: { open: 'a timer for the caller itself' },
  run: ({ seconds, label }, call, ctx) => armedView(ctx.core.timers.setLegacyWait(call.caller, { seconds, label }), ctx, call),
});

export const timerTools = [
  timerSet,
  timerFireWhenIdleAny,
  timerFireWhenIdleAll,
  timerCancel,
  timerPause,
  timerResume,
  timerList,
  timerWait,
];
