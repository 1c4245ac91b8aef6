/**
 * A notification's Approve / Deny, used from a paired device: the token names the prompt it was
 * issued for, and the core's own answerPrompt refuses it when the screen shows another prompt now.
 * Opened in a browser, the link shows a one-button page; the answer is only ever given by a POST.
 */
import { basename } from 'node:path';
import { SwitchboardError } from '../../../shared/errors';
import type { DevicePrincipal, Devices, PromptAction } from '../devices';
import type { Workspace } from '../workspace';

interface ActionAnswered {
  answered: string;
  entry: { id: string; name: string };
  project: { id: string; name: string };
}

function projectOf(workspace: Workspace, action: PromptAction) {
  const project = workspace.list().find((p) => p.id === action.projectId);
  if (!project) throw new SwitchboardError('not_found', 'The project of this notification is no longer open.');
  return project;
}

/** What the link would do, for the confirmation page; nothing is used. */
export function describeAction(
  workspace: Workspace,
  devices: Devices,
  token: string,
  device: DevicePrincipal,
): { ok: boolean; text: string } {
  const action = devices.actions.peek(token);
  if (!action) return { ok: false, text: 'This action was already used, withdrawn or has expired: open Switchboard to answer.' };
  if (action.deviceId !== undefined && action.deviceId !== device.deviceId)
    return { ok: false, text: 'This action was sent to another device.' };
  try {
    const project = projectOf(workspace, action);
    const waiting = project.handle.core.listWaiting().find((w) => w.id === action.entryId);
    if (!waiting || waiting.fingerprint !== action.fingerprint)
      return {
        ok: false,
        text: 'The agent no longer shows this prompt (answered elsewhere, or it changed): open Switchboard to see what it asks now.',
      };
    const choice = waiting.choices.find((c) => c.id === action.choice);
    return { ok: true, text: `${choice?.label ?? action.choice} — ${waiting.name} (${basename(project.dir)}) asks: ${waiting.question}` };
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
  const action = devices.actions.redeem(token, device.deviceId);
  const project = projectOf(workspace, action);
  const core = project.handle.core;
  const result = await core.answerPrompt({ id: action.entryId, fingerprint: action.fingerprint, choice: action.choice });
  const name = core.findEntry(action.entryId)?.name ?? action.entryId;
  return { answered: result.label, entry: { id: action.entryId, name }, project: { id: project.id, name: basename(project.dir) } };
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
