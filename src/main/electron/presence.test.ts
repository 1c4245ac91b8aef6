import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../shared/model';
import { activityOf, keepAliveWithoutWindow, quitConfirmation, statusLine, trayMenu } from './presence';

let n = 0;
function proc(over: Partial<ProcessInfo>): ProcessInfo {
  n += 1;
  return {
    id: `p_${String(n).padStart(6, '0')}`,
    name: `e${n}`,
    kind: 'command',
    argv: ['x'],
    cwd: '/',
    state: 'running',
    message: '',
    pid: 100 + n,
    runId: 1,
    cols: 80,
    rows: 24,
    title: '',
    offsets: { start: 0, end: 0, runStart: 0 },
    isPaused: false,
    ...over,
  };
}
const agent = (name: string, primary: string, running = true) =>
  proc({ name, kind: 'agent', pid: running ? 1 : undefined, agent: { primary } as ProcessInfo['agent'] });

describe('tray and quit', () => {
  const procs = [
    agent('claude-a', 'active'),
    agent('claude-b', 'active'),
    agent('codex', 'stuck'),
    agent('reviewer', 'waiting'),
    agent('idle-one', 'idle'),
    proc({ state: 'ready' }),
    proc({ state: 'ready' }),
    proc({ state: 'ready' }),
    proc({ state: 'ready' }),
    proc({ state: 'starting' }),
  ];

  it('the tray line counts working and waiting agents and ready servers', () => {
    expect(statusLine(activityOf(procs))).toBe('3 agents working, 1 waiting, 4 servers ready');
    expect(statusLine(activityOf([agent('a', 'waiting')]))).toBe('1 agent waiting');
    expect(statusLine(activityOf([proc({ state: 'running' })]))).toBe('1 process running');
    expect(statusLine(activityOf([]))).toBe('Nothing running');
  });

  it('the tray menu shows the line, opens the window and quits', () => {
    expect(trayMenu(procs).map((i) => i.action ?? i.label)).toEqual(['3 agents working, 1 waiting, 4 servers ready', '', 'open', 'quit']);
  });

  it('quitting asks first and names the agents that work or wait; not when none do', () => {
    const ask = quitConfirmation(procs)!;
    expect(ask.message).toBe('Quit while 4 agents are busy?');
    expect(ask.detail).toContain('Working: claude-a, claude-b, codex');
    expect(ask.detail).toContain('Waiting for you: reviewer');
    expect(ask.detail).not.toContain('idle-one');
    expect(quitConfirmation([agent('idle-one', 'idle'), proc({ state: 'ready' })])).toBeUndefined();
    // A stopped agent whose last status read "active" interrupts nothing.
    expect(quitConfirmation([agent('gone', 'active', false)])).toBeUndefined();
  });

  it('closing the last window keeps the app alive while anything runs (always on macOS)', () => {
    expect(keepAliveWithoutWindow(procs, 'linux')).toBe(true);
    expect(keepAliveWithoutWindow([proc({ pid: undefined, state: 'stopped' })], 'linux')).toBe(false);
    expect(keepAliveWithoutWindow([], 'darwin')).toBe(true);
  });
});
