/**
 * The renderer's only door to the core. In Electron the preload exposes `window.switchboard`;
 * in a browser (serve) the same calls go over the token-protected WebSocket.
 */
import { decodeOutputFrame } from '../../../shared/outputFrame';
import { fromSerializedError } from '../../../shared/errors';
import type { ClientMessage, ControlClient, ControlEvent, ServerMessage, WorkspaceClient } from '../../../shared/api';

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

/** First retry after a drop, doubling up to the cap: a restarting serve is back within seconds. */
const RECONNECT_BASE_DELAY_MS = 250;
const RECONNECT_MAX_DELAY_MS = 5_000;

interface ConnectionChange {
  status: 'connected' | 'reconnecting' | 'lost';
  message?: string;
}

const connectionListeners = new Set<(change: ConnectionChange) => void>();
const reconnectListeners = new Set<() => void>();

/** The WebSocket dropped, came back, or cannot come back (never fires in Electron, whose IPC does not drop). */
export function onConnectionChange(listener: (change: ConnectionChange) => void): () => void {
  connectionListeners.add(listener);
  return () => connectionListeners.delete(listener);
}

/** A new socket is open after a drop: re-read the snapshot and re-attach every pane. */
export function onReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

function announce(change: ConnectionChange): void {
  for (const listener of connectionListeners) listener(change);
}

async function connectWebSocket(): Promise<WorkspaceClient> {
  await signIn();
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const url = `${scheme}://${location.host}/ws`;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(event: ControlEvent, project?: string) => void>();
  let seq = 0;
  let socket: WebSocket | undefined;

  const onMessage = (raw: MessageEvent) => {
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
  };

  /** One socket: resolves once open; after that, its close starts the retries. */
  const open = () =>
    new Promise<void>((resolve, reject) => {
      const next = new WebSocket(url);
      next.binaryType = 'arraybuffer';
      let isOpen = false;
      next.addEventListener('message', onMessage);
      next.addEventListener('open', () => {
        isOpen = true;
        socket = next;
        resolve();
      });
      next.addEventListener('close', () => {
        if (!isOpen) return reject(new Error('Cannot connect to Switchboard: open the "ui" URL that serve printed'));
        socket = undefined;
        for (const waiter of pending.values()) waiter.reject(new Error('Connection to Switchboard closed'));
        pending.clear();
        void reconnect();
      });
    });

  const reconnect = async () => {
    for (let attempt = 0; ; attempt++) {
      const delay = Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_BASE_DELAY_MS * 2 ** attempt);
      // Right after the drop the server may still answer while it shuts down: ask why only once a retry failed.
      announce(
        attempt === 0 ? { status: 'reconnecting', message: 'Connection to Switchboard lost: reconnecting…' } : await describeDrop(delay),
      );
      await new Promise((r) => window.setTimeout(r, delay));
      try {
        await open();
        announce({ status: 'connected' });
        for (const listener of reconnectListeners) listener();
        return;
      } catch {
        // still down: the next round says why and waits longer
      }
    }
  };

  const send = (cmd: string, args: unknown, project?: string) =>
    new Promise<never>((resolve, reject) => {
      if (!socket) return reject(new Error('Not connected to Switchboard: reconnecting'));
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
  await open();
  return client;
}

/** Down, or up but refusing this page (serve restarted with another secret): the two need different help. */
async function describeDrop(retryInMs: number): Promise<ConnectionChange> {
  const seconds = Math.max(1, Math.round(retryInMs / 1000));
  try {
    const res = await fetch('/', { method: 'HEAD', cache: 'no-store' });
    if (res.ok) {
      return {
        status: 'lost',
        message: `Switchboard is running but refused this page's session: open the "ui" URL that serve printed (retrying in ${seconds}s)`,
      };
    }
  } catch {
    // not reachable: the server is down or restarting
  }
  return { status: 'reconnecting', message: `Connection to Switchboard lost: reconnecting in ${seconds}s…` };
}
