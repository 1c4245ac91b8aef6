/** Signs a client in to serve's UI the way the renderer does: the secret from the URL fragment, posted once for the cookie. */

interface UiSession {
  /** `Cookie` header value for later requests and WebSocket upgrades. */
  cookie: string;
  secret: string;
}

export async function uiSession(uiUrl: string): Promise<UiSession> {
  const url = new URL(uiUrl);
  const secret = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  const res = await fetch(new URL('/session', url.origin), { method: 'POST', headers: { Authorization: `Bearer ${secret}` } });
  if (res.status !== 204) throw new Error(`POST /session answered ${res.status}: ${await res.text()}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0], secret };
}
