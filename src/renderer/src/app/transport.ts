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
 * What this tab knows of its server: the key the server proves its identity with (so a reconnect
 * can tell it from a restarted serve or another program on the port before sending anything), and
 * the UI secret when the tab was opened with it (memory only: a pinned serve that restarted gets a
 * new session from it). Never stored: any later page on this origin could read storage.
 */
interface ServerTrust {
  identity: CryptoKey;
  secret?: string;
}

const REFUSED_LINK = 'open the "ui" URL that serve printed';

/**
 * The UI secret arrives in the URL fragment (no server, proxy or Referer ever sees it). It is
 * dropped from the address bar and history at once and traded for a session cookie of this
 * server; a reload finds the cookie and asks the server for its identity key.
 */
async function signIn(): Promise<ServerTrust> {
  const secret = new URLSearchParams(location.hash.slice(1)).get('token') ?? undefined;
  if (secret) history.replaceState(null, '', location.pathname + location.search);
  const res = secret ? await postSession(secret) : await fetch('/session', { credentials: 'same-origin', cache: 'no-store' });
  if (!res.ok)
    throw new Error(secret ? `Switchboard refused the UI secret (${res.status}): ${REFUSED_LINK}` : `Not signed in: ${REFUSED_LINK}`);
  const { identity } = (await res.json()) as { identity: string };
  return { identity: await importIdentityKey(identity), secret };
}

function postSession(secret: string): Promise<Response> {
  return fetch('/session', { method: 'POST', headers: { Authorization: `Bearer ${secret}` }, credentials: 'same-origin' });
}

function importIdentityKey(base64url: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', fromBase64Url(base64url), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/**
 * Whether the server now on this address is the one this tab signed in to: it must answer a fresh
 * nonce with the HMAC of the key it gave us. Asked without cookies, so nothing of ours reaches a
 * server that turns out to be another one.
 */
async function checkServer(trust: ServerTrust): Promise<'same' | 'other' | 'down'> {
  const nonce = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  let res: Response;
  try {
    res = await fetch(`/identity?nonce=${nonce}`, { credentials: 'omit', cache: 'no-store', redirect: 'error' });
  } catch {
    return 'down';
  }
  try {
    const { proof } = (await res.json()) as { proof?: unknown };
    const expected = toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', trust.identity, new TextEncoder().encode(nonce))));
    return res.ok && proof === expected ? 'same' : 'other';
  } catch {
    return 'other';
  }
}

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
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
  const trust = await signIn();
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

  /** Retries until the server is back; stops for good when the server on this address is not the one this tab knew. */
  const reconnect = async () => {
    for (let attempt = 0; ; attempt++) {
      const delay = Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_BASE_DELAY_MS * 2 ** attempt);
      const seconds = Math.max(1, Math.round(delay / 1000));
      announce({
        status: 'reconnecting',
        message:
          attempt === 0 ? 'Connection to Switchboard lost: reconnecting…' : `Connection to Switchboard lost: reconnecting in ${seconds}s…`,
      });
      await new Promise((r) => window.setTimeout(r, delay));
      const server = await checkServer(trust);
      if (server === 'down') continue;
      if (server === 'other') {
        return announce({
          status: 'lost',
          message: `This Switchboard server restarted or is another program now: ${REFUSED_LINK} (this tab sends it nothing)`,
        });
      }
      if (await reopen()) return;
    }
  };

  /** The same server: its socket again, or a new session first when it no longer knows ours (a pinned serve that restarted). */
  const reopen = async (): Promise<boolean> => {
    try {
      await open();
    } catch {
      const signedIn = trust.secret !== undefined && (await postSession(trust.secret).catch(() => undefined))?.ok === true;
      if (!signedIn) {
        announce({ status: 'lost', message: `Switchboard is running but refused this page's session: ${REFUSED_LINK}` });
        return true;
      }
      try {
        await open();
      } catch {
        return false; // it went down again meanwhile: the next round checks it afresh
      }
    }
    announce({ status: 'connected' });
    for (const listener of reconnectListeners) listener();
    return true;
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
