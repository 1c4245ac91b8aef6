/**
 * What the app says about itself when no window shows it: the tray line ("3 agents working,
 * 1 waiting, 4 servers ready"), the tray menu, and the quit confirmation naming the agents a quit
 * would interrupt. Plain functions of the entries' state, so they are tested without Electron.
 */
import type { ProcessInfo } from '../../shared/model';

interface Activity {
  working: string[];
  waiting: string[];
  serversReady: number;
  running: number;
}

export function activityOf(processes: readonly ProcessInfo[]): Activity {
  const agents = processes.filter((p) => p.kind === 'agent' && p.pid !== undefined);
  return {
    working: agents.filter((p) => p.agent?.primary === 'active' || p.agent?.primary === 'stuck').map((p) => p.name),
    waiting: agents.filter((p) => p.agent?.primary === 'waiting').map((p) => p.name),
    serversReady: processes.filter((p) => p.kind === 'command' && p.state === 'ready').length,
    running: processes.filter((p) => p.pid !== undefined).length,
  };
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "3 agents working, 1 waiting, 4 servers ready"; parts that are zero are left out. */
export function statusLine(activity: Activity): string {
  const parts: string[] = [];
  if (activity.working.length > 0) parts.push(`${count(activity.working.length, 'agent', 'agents')} working`);
  if (activity.waiting.length > 0)
    parts.push(parts.length > 0 ? `${activity.waiting.length} waiting` : `${count(activity.waiting.length, 'agent', 'agents')} waiting`);
  if (activity.serversReady > 0) parts.push(`${count(activity.serversReady, 'server', 'servers')} ready`);
  if (parts.length === 0) return activity.running > 0 ? `${count(activity.running, 'process', 'processes')} running` : 'Nothing running';
  return parts.join(', ');
}

export type TrayAction = 'open' | 'quit';
interface TrayItem {
  label: string;
  action?: TrayAction;
  separator?: boolean;
}

export function trayMenu(processes: readonly ProcessInfo[]): TrayItem[] {
  return [
    { label: statusLine(activityOf(processes)) },
    { label: '', separator: true },
    { label: 'Open Switchboard', action: 'open' },
    { label: 'Quit Switchboard', action: 'quit' },
  ];
}

interface QuitConfirmation {
  message: string;
  detail: string;
  buttons: [quit: string, cancel: string];
}

/** Asked before quitting while an agent works or waits for an answer; undefined when nothing would be interrupted. */
export function quitConfirmation(processes: readonly ProcessInfo[]): QuitConfirmation | undefined {
  const { working, waiting } = activityOf(processes);
  if (working.length === 0 && waiting.length === 0) return undefined;
  const lines = [
    ...(working.length > 0 ? [`Working: ${working.join(', ')}`] : []),
    ...(waiting.length > 0 ? [`Waiting for you: ${waiting.join(', ')}`] : []),
    'Quitting stops them; agents that can resume offer Resume at the next launch.',
  ];
  const n = working.length + waiting.length;
  return { message: `Quit while ${count(n, 'agent is', 'agents are')} busy?`, detail: lines.join('\n'), buttons: ['Quit', 'Cancel'] };
}

/** Closing the last window keeps the app alive while anything runs (tray/dock); with nothing running it quits (not on macOS). */
export function keepAliveWithoutWindow(processes: readonly ProcessInfo[], platform: NodeJS.Platform): boolean {
  return platform === 'darwin' || processes.some((p) => p.pid !== undefined);
}
