/**
 * A notification's Approve / Deny, used from a paired device: the token names the prompt it was
 * issued for, and the core's own answerPrompt refuses it when the screen shows another prompt now.
 * Opened in a browser, the link shows a one-button page; the answer is only ever given by a POST.
 * A remote host's agent is answered the way the inbox answers it: through its linked project.
 */
import { basename } from 'node:path';
import { SwitchboardError } from '../../../shared/errors';
import type { AnswerPromptArgs, AnswerPromptResult, WaitingAgent } from '../../../shared/inbox';
import type { DevicePrincipal, Devices, PromptAction } from '../devices';
import type { Workspace } from '../workspace';

interface ActionAnswered {
  answered: string;
  entry: { id: string; name: string };
  project: { id: string; name: string };
}

/** Where a prompt of one project is read and answered: this machine's core, or a host's through its link. */
interface PromptHolder {
  name: string;
  waiting(entryId: string): Promise<WaitingAgent | undefined>;
  answer(args: AnswerPromptArgs): Promise<AnswerPromptResult>;
}

function holderOf(workspace: Workspace, projectId: string): PromptHolder {
  const local = workspace.list().find((p) => p.id === projectId);
  if (local) {
    const core = local.handle.core;
    return {
      name: basename(local.dir),
      waiting: (entryId) => Promise.resolve(core.listWaiting().find((w) => w.id === entryId)),
      answer: (args) => core.answerPrompt(args),
    };
  }
  const linked = workspace.linkedOwning(projectId);
  const info = linked?.list().find((p) => p.id === projectId);
  if (!linked || !info) throw new SwitchboardError('not_found', 'The project of this notification is no longer open.');
  return {
    name: info.host ? `${info.name} on ${info.host}` : info.name,
    waiting: async (entryId) => (await linked.listWaiting()).find((w) => w.project.id === projectId && w.id === entryId),
    answer: async (args) => {
      const view = linked.view(projectId, () => undefined);
      try {
        return (await view.call('answerPrompt', args)) as AnswerPromptResult;
      } finally {
        view.dispose();
      }
    },
  };
}

/** What the link would do, for the confirmation page; nothing is used. */
export async function describeAction(
  workspace: Workspace,
  devices: Devices,
  token: string,
  device: DevicePrincipal,
): Promise<{ ok: boolean; text: string }> {
  const action = devices.actions.peek(token);
  if (!action) return { ok: false, text: 'This action was already used, withdrawn or has expired: open Switchboard to answer.' };
  if (action.deviceId !== undefined && action.deviceId !== device.deviceId)
    return { ok: false, text: 'This action was sent to another device.' };
  try {
    const holder = holderOf(workspace, action.projectId);
    const waiting = await holder.waiting(action.entryId);
    if (!waiting || waiting.fingerprint !== action.fingerprint)
      return {
        ok: false,
        text: 'The agent no longer shows this prompt (answered elsewhere, or it changed): open Switchboard to see what it asks now.',
      };
    const choice = waiting.choices.find((c) => c.id === action.choice);
    return { ok: true, text: `${choice?.label ?? action.choice} — ${waiting.name} (${holder.name}) asks: ${waiting.question}` };
  } catch (err) {
    return { ok: false, text: err instanceof Error ? err.message : String(err) };
  }
}

/** Uses the token (once) and answers the prompt it is bound to, through the same core method as the inbox. */
export async function answerAction(
  workspace: Workspace,
  devices: Devices,
  token: string,
  device: DevicePrincipal,
): Promise<ActionAnswered> {
  const action: PromptAction = devices.actions.redeem(token, device.deviceId);
  const holder = holderOf(workspace, action.projectId);
  const result = await holder.answer({ id: action.entryId, fingerprint: action.fingerprint, choice: action.choice });
  return {
    answered: result.label,
    entry: { id: action.entryId, name: action.entryName },
    project: { id: action.projectId, name: holder.name },
  };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title>` +
  `<style>body{font:16px system-ui,sans-serif;margin:2rem;max-width:32rem}button{font-size:1.1rem;padding:.6rem 1.2rem}</style></head>` +
  `<body><h1>${escape(title)}</h1>${body}</body></html>`;

export const actionPage = {
  confirm: (text: string) =>
    page('Switchboard', `<p>${escape(text)}</p><form method="post"><button type="submit">Send this answer</button></form>`),
  done: (answered: ActionAnswered) =>
    page('Answered', `<p>${escape(`“${answered.answered}” sent to ${answered.entry.name} (${answered.project.name}).`)}</p>`),
  refused: (message: string) => page('Not answered', `<p>${escape(message)}</p>`),
};
