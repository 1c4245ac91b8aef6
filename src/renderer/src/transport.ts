/**
 * The renderer's only door to the core. In Electron the preload exposes `window.switchboard`;
 * in a browser (serve) the same calls go over the token-protected WebSocket.
 */
import { decodeOutputFrame } from '../../shared/outputFrame';
import { fromSerializedError } from '../../shared/errors';
import type {
  ClientMessage,
  CommandArgsOf,
  CommandName,
  CommandResults,
  ControlClient,
  ControlEvent,
  ServerMessage,
} from '../../shared/api';

interface PreloadApi {
  call(cmd: string, args: unknown): Promise<unknown>;
  onEvent(listener: (event: ControlEvent) => void): () => void;
}

declare global {
  interface Window {
    switchboard?: PreloadApi;
  }
}

export function connect(): Promise<ControlClient> {
  const preload = window.switchboard;
  if (preload) {
    return Promise.resolve({
      call: (cmd, args) => preload.call(cmd, args) as never,
      onEvent: (listener) => preload.onEvent(listener),
    });
  }
  return connectWebSocket();
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

async function connectWebSocket(): Promise<ControlClient> {
  await signIn();
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.binaryType = 'arraybuffer';
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(event: ControlEvent) => void>();
  let seq = 0;

  socket.addEventListener('message', (raw) => {
    if (raw.data instanceof ArrayBuffer) {
      const event: ControlEvent = { type: 'output', ...decodeOutputFrame(raw.data) };
      for (const listener of listeners) listener(event);
      return;
    }
    const message = JSON.parse(String(raw.data)) as ServerMessage;
    if (message.t === 'event') {
      for (const listener of listeners) listener(message.event);
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

  const client: ControlClient = {
    call<C extends CommandName>(cmd: C, args: CommandArgsOf<C>): Promise<CommandResults[C]> {
      return new Promise((resolve, reject) => {
        const id = ++seq;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        const message: ClientMessage = { t: 'call', seq: id, cmd, args };
        socket.send(JSON.stringify(message));
      });
    },
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
