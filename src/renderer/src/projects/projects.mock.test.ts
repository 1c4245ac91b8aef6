import { describe, expect, it, vi } from 'vitest';
import type { ControlEvent, WorkspaceClient } from '../../../shared/api';
import type { ProcessInfo } from '../../../shared/model';
import { DEFAULT_UI_STATE } from '../../../shared/uiState';

vi.stubGlobal('window', globalThis); // the store's timers
vi.mock('../terminal/terminalPane', () => ({ panes: new Map(), openLink: () => undefined }));
const { connectWorkspace, routeProjectEvent } = await import('./projects');
const { useUi } = await import('../app/store');

const web = (state: ProcessInfo['state']) => ({ id: 'web', name: 'web', kind: 'command', state }) as ProcessInfo;

/**
 * A core behind one ordered channel, as the WebSocket is: answers and events leave one at a time,
 * each answer computed when it leaves. Right after the first answer to a project call, `web`
 * becomes ready and its processChanged is the next message out.
 */
function coreWithWebBecomingReady(): WorkspaceClient {
  let current = web('starting');
  let projectCallsAnswered = 0;
  const outbox: Array<() => void> = [];
  const listeners = new Set<(event: ControlEvent, project?: string) => void>();
  const pump = () => setTimeout(() => outbox.shift()?.(), 0);
  const answer = (cmd: string): unknown => {
    if (cmd === 'getWorkspace')
      return {
        projects: [{ id: 'p1', dir: '/p', name: 'p' }],
        activeId: 'p1',
        recent: [],
        hasFolderDialog: false,
        roots: [],
        hosts: [],
      };
    if (cmd === 'getUiState') return DEFAULT_UI_STATE;
    if (cmd === 'getSnapshot') return { project: { dir: '/p', name: 'p' }, processes: [current], configIssues: [], trust: { pending: [] } };
    throw new Error(`unexpected call ${cmd}`);
  };
  const becomeReady = () => {
    current = web('ready');
    for (const listener of listeners) listener({ type: 'processChanged', process: current }, 'p1');
    pump();
  };
  const send = (cmd: string, project?: string) =>
    new Promise<never>((resolve) => {
      outbox.push(() => {
        resolve(answer(cmd) as never);
        if (project !== undefined && ++projectCallsAnswered === 1) outbox.unshift(becomeReady);
        pump();
      });
      if (outbox.length === 1) pump();
    });
  return {
    call: (cmd, _args, project) => send(cmd, project),
    workspace: (cmd) => send(cmd),
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

describe('loading a project', () => {
  it('keeps a change the core sent while the project loaded: an entry that became ready meanwhile reads ready', async () => {
    const client = coreWithWebBecomingReady();
    client.onEvent((event, project) => routeProjectEvent(event, project));
    await connectWorkspace(client); // resolves once the project's snapshot is in the store
    expect(useUi.getState().client).toBeDefined();
    expect(useUi.getState().processes.web?.state).toBe('ready');
  });
});
