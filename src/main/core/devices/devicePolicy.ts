/**
 * What a paired device may call over the control WebSocket: the phone view's commands. Reading
 * status and screens and answering prompts is every device's; starting, stopping and typing into a
 * pane is only for a device the person allowed to control entries. Everything else (config, trust,
 * tokens, worktrees, opening folders, hosts) stays with the desktop.
 */
import { SwitchboardError } from '../../../shared/errors';
import type { DevicePrincipal } from './deviceStore';

const READ_AND_ANSWER = new Set([
  'getWorkspace',
  // Which project the view shows (the desktop's shown project follows, as from any viewer).
  'focusProject',
  'listWaitingAcrossProjects',
  'getSnapshot',
  'getUiState',
  'listWaiting',
  'listTimers',
  'getUsage',
  // Reading a usage warning is like answering: it only takes the row away.
  'dismissUsageWarning',
  'attach',
  'detach',
  'ackOutput',
  'answerPrompt',
  'resolveBlocked',
  // A person's answer to an agent at its budget: one more delivery (raising the cap stays on the desktop).
  'budgetGoOnce',
  // The reply box: a user turn typed into an agent, like answering its prompt.
  'sendUserTurn',
]);

const CONTROL = new Set(['startProcess', 'stopProcess', 'restartProcess', 'resumeProcess', 'writeInput']);

/** Throws `forbidden` unless `device` may call `cmd`. */
export function assertDeviceMayCall(device: DevicePrincipal, cmd: unknown): void {
  if (typeof cmd !== 'string') return; // the session refuses it as an unknown command
  if (READ_AND_ANSWER.has(cmd)) return;
  if (CONTROL.has(cmd)) {
    if (device.mayControl) return;
    throw new SwitchboardError(
      'forbidden',
      `"${device.name}" may not start, stop or type into entries: allow it under Devices on the desktop.`,
    );
  }
  throw new SwitchboardError('forbidden', `${cmd} is not available from a paired device: use the desktop.`);
}
