/**
 * The renderer's only door to the core. In Electron the preload exposes `window.switchboard`;
 * in a browser (serve) the same calls go over the token-protected WebSocket.
 */
import { decodeOutputFrame } from '../../shared/outputFrame';
import { fromSerializedError } from '../../shared/errors';
import type { ClientMessage, ControlClient, ControlEvent, ServerMessage, WorkspaceClient } from '../../shared/api';

interface PreloadApi {
  call(cmd: string, args: unknown, project?: string): Promise<unknown>;
  onEvent(listener: (event: ControlEvent, project?: string) => void): () => void;
  /** The file system path of a dropped file or folder (desktop app only). */
  pathForFile(file: File): string;
}

declare global {
  interface Window {
    switchboard?: PreloadApi;
  }
}

export function connect(): Promise<WorkspaceClient> {
  const preload = window.switchboard;
  if (preload) {
    return Promise.resolve({
      call: (cmd, args, project) => preload.call(cmd, args, project) as never,
      workspace: (cmd, args) => preload.call(cmd, args) as never,
      onEvent: (listener) => preload.onEvent(listener),
    });
  }
  return connectWebSocket();
}

/** One project's view of the workspace: its calls carry its id, and only its events come through. */
export function projectClient(workspace: WorkspaceClient, projectId: string): ControlClient {
  return {
    call: (cmd, args) => workspace.call(cmd, args, projectId),
    onEvent: (listener) =>
      workspace.onEvent((event, project) => {
        if (project === projectId) listener(event);
      }),
  };
}

/**
 * The UI secret arrives in the URL fragment (no server, proxy or Referer ever sees it). It is
 * dropped from the address bar and history at once and traded for this server's HttpOnly cookie;
 * a reload finds the cookie.
 */
async function signIn(): Promise<void> {
  const secret = new URLSearchParams(location.hash.slice(1)).get('token');
  if (!secret) return;
  history.replaceState(null, '', location.pathname + location.search);
  const res = await fetch('/session', { method: 'POST', headers: { Authorization: `Bearer ${secret}` }, credentials: 'same-origin' });
  if (!res.ok) throw new Error(`Switchboard refused the UI secret (${res.status}): open the "ui" URL that serve printed`);
}

async function connectWebSocket(): Promise<WorkspaceClient> {
  await signIn();
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.binaryType = 'arraybuffer';
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(event: ControlEvent, project?: string) => void>();
  let seq = 0;

  socket.addEventListener('message', (raw) => {
    if (raw.data instanceof ArrayBuffer) {
      const event: ControlEvent = { type: 'output', ...decodeOutputFrame(raw.data) };
      for (const listener of listeners) listener(event);
      return;
    }
    const message = JSON.parse(String(raw.data)) as ServerMessage;
    if (message.t === 'event') {
      for (const listener of listeners) listener(message.event, message.project);
      return;
    }
    const waiter = pending.get(message.seq);
    if (!waiter) return;
    pending.delete(message.seq);
    if (message.ok) waiter.resolve(message.value);
    else waiter.reject(fromSerializedError(message.error));
  });
  socket.addEventListener('close', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('Connection to Switchboard closed'));
    pending.clear();
    for (const listener of listeners)
      listener({ type: 'configChanged', issues: [{ path: '', message: 'connection to Switchboard lost — reload the page' }] });
  });

  const send = (cmd: string, args: unknown, project?: string) =>
    new Promise<never>((resolve, reject) => {
      const id = ++seq;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      const message: ClientMessage = project === undefined ? { t: 'call', seq: id, cmd, args } : { t: 'call', seq: id, cmd, args, project };
      socket.send(JSON.stringify(message));
    });
  const client: WorkspaceClient = {
    call: (cmd, args, project) => send(cmd, args, project),
    workspace: (cmd, args) => send(cmd, args),
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return new Promise((resolve, reject) => {
    socket.addEventListener('open', () => resolve(client), { once: true });
    socket.addEventListener('error', () => reject(new Error('Cannot connect to Switchboard: open the "ui" URL that serve printed')), {
      once: true,
    });
  });
}
