/**
 * `serve`'s HTTP server: the built renderer as static files plus a WebSocket that carries exactly
 * the control API. Bound to 127.0.0.1; nothing is served without the token (query on first load,
 * then an HttpOnly SameSite=Strict cookie), Host and Origin are checked against DNS rebinding.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ClientMessage, ServerMessage } from '../../../shared/api';
import { toSerializedError } from '../../../shared/errors';
import { encodeOutputFrame, slabFrameAllocator } from '../../../shared/outputFrame';
import type { SwitchboardCore } from '../app/switchboardCore';
import { ControlClientSession } from './controlClientSession';
import { bearerToken, isAllowedHost, isAllowedOrigin, tokensEqual } from '../security/tokens';

/** Largest control message accepted from a browser (input pastes are far below). */
export const MAX_WS_MESSAGE_BYTES = 2 * 1024 * 1024;
const COOKIE_NAME = 'sb_token';
export const WS_PATH = '/ws';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

export interface WebServerOptions {
  core: SwitchboardCore;
  staticDir: string;
  token: string;
  port?: number;
  /** Extra HTTP routes (the MCP endpoint mounts here when it shares the port). */
  extraRoute?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

export interface RunningWebServer {
  server: Server;
  port: number;
  uiUrl: string;
  close(): Promise<void>;
}

export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const { core, staticDir, token } = options;
  let port = 0;
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_MESSAGE_BYTES });

  const server = createServer((req, res) => {
    if (!isAllowedHost(req.headers.host, port)) return deny(res, 403, 'Forbidden: Host must be a loopback address with this port');
    if (options.extraRoute?.(req, res)) return;
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const queryToken = url.searchParams.get('token');
    const given = queryToken ?? cookieToken(req) ?? bearerToken(req.headers.authorization);
    if (!tokensEqual(given, token)) return deny(res, 401, 'Unauthorized: open the "ui" URL that serve printed (it carries ?token=…)');
    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'Method not allowed');
    const headers: Record<string, string> = { ...SECURITY_HEADERS };
    if (queryToken) headers['Set-Cookie'] = `${COOKIE_NAME}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    void serveStatic(staticDir, url.pathname, res, headers);
  });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const given = url.searchParams.get('token') ?? cookieToken(req);
    const refusal =
      url.pathname !== WS_PATH
        ? '404 Not Found'
        : !isAllowedHost(req.headers.host, port) || !isAllowedOrigin(req.headers.origin, port)
          ? '403 Forbidden'
          : !tokensEqual(given, token)
            ? '401 Unauthorized'
            : undefined;
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      serveControlSocket(core, ws, () => sockets.delete(ws));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as { port: number }).port;
  return {
    server,
    port,
    uiUrl: `http://127.0.0.1:${port}/?token=${token}`,
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function serveControlSocket(core: SwitchboardCore, ws: WebSocket, onClose: () => void): void {
  const send = (message: ServerMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const allocateFrame = slabFrameAllocator();
  const client = new ControlClientSession(core, (event) => {
    if (event.type !== 'output') return send({ t: 'event', event });
    if (ws.readyState === ws.OPEN) ws.send(encodeOutputFrame(event, allocateFrame), { binary: true });
  });
  ws.on('message', (raw, isBinary) => {
    if (isBinary)
      return send({ t: 'result', seq: -1, ok: false, error: { code: 'invalid_argument', message: 'Send calls as JSON text frames' } });
    // The socket keeps the default binaryType, so a text frame arrives as one Buffer.
    void handleMessage(client, (raw as Buffer).toString('utf8'), send);
  });
  ws.on('close', () => {
    client.dispose();
    onClose();
  });
  ws.on('error', () => ws.terminate());
}

async function handleMessage(client: ControlClientSession, raw: string, send: (m: ServerMessage) => void): Promise<void> {
  let message: ClientMessage;
  try {
    message = JSON.parse(raw) as ClientMessage;
  } catch {
    return send({ t: 'result', seq: -1, ok: false, error: { code: 'invalid_argument', message: 'Message is not valid JSON' } });
  }
  const seq = typeof message?.seq === 'number' ? message.seq : -1;
  if (message?.t !== 'call')
    return send({
      t: 'result',
      seq,
      ok: false,
      error: { code: 'invalid_argument', message: 'Expected {"t":"call","seq":N,"cmd":…,"args":…}' },
    });
  try {
    const value = await client.call(message.cmd, message.args);
    send({ t: 'result', seq, ok: true, value: value ?? null });
  } catch (err) {
    send({ t: 'result', seq, ok: false, error: toSerializedError(err) });
  }
}

async function serveStatic(root: string, pathname: string, res: ServerResponse, headers: Record<string, string>): Promise<void> {
  const relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
  const file = normalize(join(root, relative));
  if (!file.startsWith(normalize(root) + sep)) return deny(res, 404, 'Not found');
  try {
    const body = await readFile(file);
    res.writeHead(200, { ...headers, 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    deny(res, 404, 'Not found');
  }
}

function cookieToken(req: IncomingMessage): string | undefined {
  const cookies = req.headers.cookie?.split(';').map((c) => c.trim()) ?? [];
  const found = cookies.find((c) => c.startsWith(`${COOKIE_NAME}=`));
  return found?.slice(COOKIE_NAME.length + 1);
}

function deny(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
  res.end(message);
}
