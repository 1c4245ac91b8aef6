/**
 * Writing to processes: keystrokes and pastes, messages to agents as user turns, and asking a
 * person for attention.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidArgumentError, NotRunningError } from '../../../../shared/errors';
import { DEFAULT_OUTPUT_BYTES } from '../../../../shared/mcp';
import { callerKey } from '../identity';
import { keySequence } from '../terminalInput';
import { DeliveryHeldError, TURN_GATE, pasteSequence, settleAfterEcho, waitForEcho } from '../../sessions';
import { blockedAgentsOf } from '../../blocked';
import { callerProcessId, defineTool, senderName, senderTag, WrongKindError, type ToolCall, type ToolContext } from '../toolContext';
import { screenOf } from './output';
import { timerView } from './timers';

const sendInput = defineTool({
  name: 'send_input',
  title: 'Type into a process',
  summary: "Type text, paste, or press a key in an entry's terminal.",
  description:
    'Type into a process\'s terminal. kind "text" types text as is, "paste" pastes it (bracketed paste when the program enabled it, so multi-line text is not run line by line), "key" presses a named key (Enter, Escape, Tab, Up, Down, Left, Right, Backspace, C-c, …). submit presses Enter afterwards as a separate write. wait_ms returns the screen after waiting.',
  requires: { perCall: ({ process_id }) => [{ entry: process_id, right: 'input', action: 'typing into' }] },
  run: async ({ process_id, kind, text, key, submit, wait_ms }, call, ctx) => {
    const entry = ctx.core.entry(process_id);
    let data: string;
    if (kind === 'key') {
      if (key === undefined) throw new InvalidArgumentError('kind "key" needs key, e.g. "Enter" or "C-c"');
      data = keySequence(key);
    } else {
      if (text === undefined) throw new InvalidArgumentError(`kind "${kind}" needs text`);
      data = kind === 'paste' ? await pasteSequence(entry, text) : text;
    }
    if (!entry.isRunning) throw new NotRunningError(entry.id, entry.name);
    admitFromAnotherAgent(ctx, call, process_id, `input from ${senderName(ctx, call)}`);
    const echoed = submit ? waitForEcho(entry, kind === 'key' ? '' : (text ?? '')) : undefined;
    if (data.length > 0) ctx.core.writeInput(process_id, data);
    if (echoed) {
      await echoed;
      await settleAfterEcho(entry, ctx.core.submitAfterEchoMs(process_id));
      ctx.core.writeInput(process_id, '\r');
    }
    const result = { process_id, written_chars: data.length, submitted: submit === true };
    if (wait_ms === undefined) return result;
    await sleep(wait_ms, undefined, { signal: call.signal }).catch(() => undefined); // cancelled: answer with what is there
    return { ...result, screen: await screenOf(entry, DEFAULT_OUTPUT_BYTES) };
  },
});

const sendMessage = defineTool({
  name: 'send_message',
  title: 'Message an agent',
  summary: 'Send another agent a user turn tagged with your name.',
  description:
    'Deliver a message to another agent as a user turn, tagged with who sent it ("[from <name> (<id>)] …"), and submit it. If the agent is busy, its CLI queues the message. An agent at its budget takes nothing: the call fails with code "held", and a person decides (go on once, raise the cap).',
  requires: { perCall: ({ target_process_id }) => [{ entry: target_process_id, right: 'input', action: 'sending a message to' }] },
  run: async ({ target_process_id, message }, call, ctx) => {
    const entry = ctx.core.entry(target_process_id);
    if (entry.kind !== 'agent') {
      throw new WrongKindError(
        `Process "${entry.name}" (${entry.id}) is a ${entry.kind}, not an agent: send_message delivers user turns to agents; use send_input to type into it`,
      );
    }
    if (call.caller.kind === 'process' && call.caller.processId === target_process_id) {
      throw new InvalidArgumentError('You cannot send a message to yourself');
    }
    const tagged = `${senderTag(ctx, call)} ${message}`;
    await ctx.core.sendAutomatedTurn(target_process_id, tagged, `a message from ${senderName(ctx, call)}`);
    return { delivered: true, target_process_id, text: tagged };
  },
});

const requestHumanAttention = defineTool({
  name: 'request_human_attention',
  title: 'Ask a person',
  summary: 'Notify a person and flag a pane until they look.',
  description:
    'Raise a desktop notification and flag the pane until a person looks at it (counts in the dock badge). Use when you need a decision, a credential or a review. process_id defaults to your own entry.',
  requires: { open: 'asks a person to look at a pane; nothing in the entry changes and nothing of it is read' },
  run: ({ process_id, reason }, call, ctx) => {
    const id = process_id ?? callerProcessId(call, 'process_id (the entry to flag)');
    const info = ctx.core.requestAttention(id, reason, callerKey(call.caller));
    return { flagged: true, process_id: id, attention: info.attention };
  },
});

const listWaiting = defineTool({
  name: 'list_waiting',
  title: 'Agents waiting for an answer',
  summary: 'Agents waiting for permission or an answer, with their choices.',
  description:
    'The attention inbox: every agent waiting for permission or an answer, longest waiting first, with what it asks (the prompt as on its screen), since when, a prompt fingerprint and the choices (approve, deny, answer) that answer_prompt can send.',
  annotations: { readOnlyHint: true },
  // The prompts are screen content of other entries.
  requires: { scope: 'entries:read-all', action: 'reading the prompts of waiting agents' },
  run: (_args, _call, ctx) => ({ agents: ctx.core.listWaiting() }),
});

const answerPromptTool = defineTool({
  name: 'answer_prompt',
  title: 'Answer an agent’s prompt',
  summary: "Approve, deny or answer a waiting agent's prompt.",
  description:
    'Approve, deny or answer the prompt an agent shows, with the keys its CLI takes for that choice. Pass the fingerprint from list_waiting: when the agent no longer shows that prompt nothing is typed and the call fails with stale_prompt.',
  requires: { perCall: ({ process_id }) => [{ entry: process_id, right: 'input', action: 'answering the prompt of' }] },
  run: ({ process_id, fingerprint, choice, text }, _call, ctx) => ctx.core.answerPrompt({ id: process_id, fingerprint, choice, text }),
});

const resolveBlocked = defineTool({
  name: 'resolve_blocked',
  title: 'Act on a blocked agent',
  summary: 'Open, retry now, or continue at reset an agent list_waiting shows as blocked.',
  description:
    'The action that fits an agent list_waiting shows as blocked (signed out, at its limit, API errors): open_pane selects it, retry_now types its CLI’s continue, continue_at_reset sets a visible timer (timer_list; cancel or pause it there) that types the continue after its limit resets and asks a person again if the agent does not go on.',
  requires: { perCall: ({ process_id }) => [{ entry: process_id, right: 'input', action: 'acting on the blocked agent' }] },
  run: async ({ process_id, action }, call, ctx) => {
    if (action === 'retry_now') admitFromAnotherAgent(ctx, call, process_id, `a retry from ${senderName(ctx, call)}`);
    const { done, timer } = await blockedAgentsOf(ctx.core).resolve({ id: process_id, action });
    return { process_id, action, done, ...(timer && { timer: timerView(timer) }) };
  },
});

const setContinueAtReset = defineTool({
  name: 'set_continue_at_reset',
  title: 'Continue an agent at its limit by itself',
  summary: "Turn an agent's continue-at-reset setting on or off.",
  description:
    'On: when the agent is blocked at a usage limit Switchboard types its CLI’s continue by itself — at the reset when the CLI shows one, else as a bounded back-off probe (1, 2, 4 … 30 min, six tries) — as a visible timer (timer_list), then checks the agent went on and asks a person if not. Turned on while blocked, the timer is set at once. Off cancels the continues it set. Overrides switchboard.json continueAtReset for this run.',
  requires: { perCall: ({ process_id }) => [{ entry: process_id, right: 'input', action: 'setting continue at reset of' }] },
  run: ({ process_id, enabled }, _call, ctx) => {
    const { continueAtReset, done, timer } = blockedAgentsOf(ctx.core).setContinueAtReset({ id: process_id, enabled });
    return { process_id, continue_at_reset: continueAtReset, done, ...(timer && { timer: timerView(timer) }) };
  },
});

export const inputTools = [
  sendInput,
  sendMessage,
  requestHumanAttention,
  listWaiting,
  answerPromptTool,
  resolveBlocked,
  setContinueAtReset,
];

/** Another agent making `id` take a turn is Switchboard sending on its behalf: the target's budget may hold it. */
function admitFromAnotherAgent(ctx: ToolContext, call: ToolCall, id: string, what: string): void {
  if (call.caller.kind !== 'process' || call.caller.processId === id) return;
  const hold = ctx.core.services.find(TURN_GATE)?.admit(id, what);
  if (hold) throw new DeliveryHeldError(hold);
}
