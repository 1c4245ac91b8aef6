/** Signs a client in to serve's UI the way the renderer does: the secret from the URL fragment, posted once for the cookie. */
import WebSocket from 'ws';
import type { ServerMessage } from '../../src/shared/api';

interface UiSession {
  /** `Cookie` header value for later requests and WebSocket upgrades. */
  cookie: string;
  secret: string;
}

export async function uiSession(uiUrl: string): Promise<UiSession> {
  const url = new URL(uiUrl);
  const secret = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  const res = await fetch(new URL('/session', url.origin), { method: 'POST', headers: { Authorization: `Bearer ${secret}` } });
  if (res.status !== 200) throw new Error(`POST /session answered ${res.status}: ${await res.text()}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0], secret };
}

/**
 * One control-API call over serve's WebSocket, signed in as the browser UI is: what a click in the
 * UI sends (`commitWorktree`, `askCommitMessage`, …). Resolves with its value; a refusal rejects
 * with the core's message.
 */
export async function uiCall<T>(uiUrl: string, cmd: string, args: unknown): Promise<T> {
  const { cookie } = await uiSession(uiUrl);
  const socket = new WebSocket(`ws://${new URL(uiUrl).host}/ws`, { headers: { Cookie: cookie } });
  try {
    return await new Promise<T>((resolve, reject) => {
      socket.once('open', () => socket.send(JSON.stringify({ t: 'call', seq: 1, cmd, args })));
      socket.on('message', (raw, isBinary) => {
        if (isBinary) return;
        const message = JSON.parse(raw.toString()) as ServerMessage;
        if (message.t !== 'result' || message.seq !== 1) return;
        if (message.ok) resolve(message.value as T);
        else reject(new Error(`${cmd}: ${message.error.message}`));
      });
      socket.once('error', reject);
      socket.once('close', () => reject(new Error(`${cmd}: the socket closed before its answer`)));
    });
  } finally {
    socket.close();
  }
}
