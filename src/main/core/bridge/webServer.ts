/**
 * `serve`'s HTTP server: the built renderer as static files plus a WebSocket that carries exactly
 * the control API. Bound to 127.0.0.1. The static shell holds no data and loads without a secret;
 * the renderer takes the UI secret from the URL fragment (never sent to a server, dropped from the
 * address bar), trades it once at `POST /session` for an HttpOnly cookie whose name carries this
 * port and whose value is a session of this run (`UiSessions`), and the WebSocket needs such a
 * cookie (or the secret as a bearer). `GET /identity` proves this server is the one a tab knew
 * (`serverIdentity.ts`) before the tab sends it anything. Host and Origin are checked against DNS
 * rebinding. No request, however malformed, throws out of a handler.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ClientMessage, ServerMessage } from '../../../shared/api';
import { toSerializedError } from '../../../shared/errors';
import { FrameSlabs } from '../../../shared/outputFrame';
import type { Workspace } from '../workspace';
import { WorkspaceClientSession } from './workspaceClientSession';
import { parseRequestTarget } from './requestTarget';
import {
  bearerToken,
  IDENTITY_NONCE,
  IDENTITY_PATH,
  identityKeyOf,
  identityProof,
  isAllowedHost,
  isAllowedOrigin,
  tokensEqual,
} from '../security';
import { UiSessions, type UiSession } from './uiSessions';

/** Largest control message accepted from a browser (input pastes are far below). */
const MAX_WS_MESSAGE_BYTES = 2 * 1024 * 1024;
const WS_PATH = '/ws';
/** Where the renderer trades the fragment's secret for the cookie. */
const SESSION_PATH = '/session';
/** A slow client gets this long to send its headers, then the whole request. */
const HEADERS_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 30_000;

/** Browsers send cookies to every port of a host; the name tells our cookie from another server's. */
function uiCookieName(port: number): string {
  return `sb_ui_${port}`;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
  505: 'HTTP Version Not Supported',
  500: 'Internal Server Error',
};

interface WebServerOptions {
  /** Every open project; each browser tab sees all of them. */
  workspace: Workspace;
  staticDir: string;
  /** The browser UI's own secret (not the MCP app token). */
  uiSecret: string;
  port?: number;
  /** The sessions of this server's cookies (default: a fresh in-memory set). */
  sessions?: UiSessions;
  /** Extra HTTP routes (the MCP endpoint mounts here when it shares the port). */
  extraRoute?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

export interface RunningWebServer {
  server: Server;
  port: number;
  /** The UI address to open: the secret rides in the fragment, which no server ever receives. */
  uiUrl: string;
  /** The browser sessions signed in to this server (revoking one closes its sockets). */
  sessions: UiSessions;
  close(): Promise<void>;
}

export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const { workspace, staticDir, uiSecret } = options;
  let port = 0;
  const sockets = new Set<WebSocket>();
  const sessions = options.sessions ?? new UiSessions();
  const identityKey = identityKeyOf(uiSecret);
  const socketsOf = new Map<UiSession, Set<WebSocket>>();
  const stopRevocations = sessions.onRevoked((session) => {
    for (const ws of socketsOf.get(session) ?? []) ws.close(4401, 'Session ended');
    socketsOf.delete(session);
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_MESSAGE_BYTES });
  /** The session a request's cookies name (any of several `sb_ui_<port>` cookies may be ours). */
  const sessionOf = (req: IncomingMessage) => sessions.resolve(cookieValues(req, uiCookieName(port)));
  const isUiClient = (req: IncomingMessage) =>
    sessionOf(req) !== undefined || tokensEqual(bearerToken(req.headers.authorization), uiSecret);

  const handleRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (req.httpVersion !== '1.1' && req.httpVersion !== '1.0') return deny(res, 505, 'HTTP version not supported: speak HTTP/1.1');
    const hostProblem = hostRefusal(req, port);
    if (hostProblem) return deny(res, hostProblem.status, hostProblem.message);
    if (options.extraRoute?.(req, res)) return;
    const target = parseRequestTarget(req.url);
    if (!target) return deny(res, 400, 'Bad request: the path is not a valid origin-form path');
    if (target.path === SESSION_PATH) return req.method === 'GET' ? describeUiSession(req, res) : startUiSession(req, res);
    if (target.path === IDENTITY_PATH) return proveIdentity(req, res, target.query.get('nonce'));
    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'Method not allowed');
    serveStatic(staticDir, target.path, res).catch(() => deny(res, 500, 'Internal error'));
  };

  const startUiSession = (req: IncomingMessage, res: ServerResponse) => {
    if (!isAllowedOrigin(req.headers.origin, port)) return deny(res, 403, 'Forbidden: Origin is not this server');
    if (req.method !== 'POST') return deny(res, 405, 'Method not allowed: POST the secret as a bearer token');
    if (!tokensEqual(bearerToken(req.headers.authorization), uiSecret))
      return deny(res, 401, 'Unauthorized: open the "ui" URL that serve printed (the secret is in its #fragment)');
    const { value } = sessions.create({ kind: 'uiSecret' });
    sendJson(res, { identity: identityKey }, { 'Set-Cookie': `${uiCookieName(port)}=${value}; HttpOnly; SameSite=Strict; Path=/` });
  };

  /** A reloaded tab has its cookie but no key: the key it checks this server's identity with on a reconnect. */
  const describeUiSession = (req: IncomingMessage, res: ServerResponse) => {
    if (!isAllowedOrigin(req.headers.origin, port)) return deny(res, 403, 'Forbidden: Origin is not this server');
    if (!sessionOf(req)) return deny(res, 401, 'Unauthorized: open the "ui" URL that serve printed (the secret is in its #fragment)');
    sendJson(res, { identity: identityKey });
  };

  const proveIdentity = (req: IncomingMessage, res: ServerResponse, nonce: string | null) => {
    if (req.method !== 'GET') return deny(res, 405, 'Method not allowed');
    if (!nonce || !IDENTITY_NONCE.test(nonce)) return deny(res, 400, 'Bad request: ?nonce= takes 22–86 base64url characters');
    sendJson(res, { proof: identityProof(identityKey, nonce) });
  };

  const server = createServer(
    { requireHostHeader: false, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
    (req, res) => {
      try {
        handleRequest(req, res);
      } catch {
        deny(res, 500, 'Internal error');
      }
    },
  );
  // Node answers these itself, without our headers; route them through the same handler.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => deny(res, 417, 'Expectation failed'));
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => refuseSocket(socket, 405, 'CONNECT is not supported'));
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) =>
    refuseSocket(socket, clientErrorStatus(err), 'Malformed request'),
  );

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    try {
      const refusal = upgradeRefusal(req, port, isUiClient);
      if (refusal) return refuseSocket(socket, refusal.status, refusal.message);
      const session = sessionOf(req);
      wss.handleUpgrade(req, socket, head, (ws) => {
        sockets.add(ws);
        if (session) (socketsOf.get(session) ?? socketsOf.set(session, new Set()).get(session)!).add(ws);
        if (session) ws.on('message', () => sessions.touch(session));
        serveControlSocket(workspace, ws, () => {
          sockets.delete(ws);
          if (session) socketsOf.get(session)?.delete(ws);
        });
      });
    } catch {
      refuseSocket(socket, 500, 'Internal error');
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as { port: number }).port;
  return {
    server,
    port,
    uiUrl: `http://127.0.0.1:${port}/#token=${uiSecret}`,
    sessions,
    async close() {
      stopRevocations();
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Refusal {
  status: number;
  message: string;
}

/** RFC 9112: exactly one Host, and it must be ours (DNS rebinding). */
function hostRefusal(req: IncomingMessage, port: number): Refusal | undefined {
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === 'host') hosts += 1;
  if (hosts > 1 || (hosts === 0 && req.httpVersion !== '1.0') || (hosts === 1 && !req.headers.host))
    return { status: 400, message: 'Bad request: exactly one Host header is required' };
  if (!isAllowedHost(req.headers.host, port)) return { status: 403, message: 'Forbidden: Host must be a loopback address with this port' };
  return undefined;
}

const WEBSOCKET_KEY = /^[+/0-9A-Za-z]{22}==$/;

function upgradeRefusal(req: IncomingMessage, port: number, isUiClient: (req: IncomingMessage) => boolean): Refusal | undefined {
  const hostProblem = hostRefusal(req, port);
  if (hostProblem) return hostProblem;
  const target = parseRequestTarget(req.url);
  if (!target) return { status: 400, message: 'Bad request: the path is not a valid origin-form path' };
  if (target.path !== WS_PATH) return { status: 404, message: 'Not found' };
  if (!isAllowedOrigin(req.headers.origin, port)) return { status: 403, message: 'Forbidden: Origin is not this server' };
  const isWebSocketHandshake =
    req.method === 'GET' &&
    req.headers.upgrade?.toLowerCase() === 'websocket' &&
    req.headers['sec-websocket-version'] === '13' &&
    WEBSOCKET_KEY.test(req.headers['sec-websocket-key'] ?? '');
  if (!isWebSocketHandshake) return { status: 400, message: 'Bad request: not a WebSocket version 13 handshake' };
  if (!isUiClient(req)) return { status: 401, message: 'Unauthorized' };
  return undefined;
}

function clientErrorStatus(err: NodeJS.ErrnoException): number {
  if (err.code === 'HPE_HEADER_OVERFLOW') return 431;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/** Answers on a raw socket (parse errors, refused upgrades) with the same headers as every answer. */
export function refuseSocket(socket: Duplex, status: number, message: string): void {
  if (socket.writable) {
    const headers = Object.entries({
      ...SECURITY_HEADERS,
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(message)),
      Connection: 'close',
    });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n${headers.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n${message}`,
    );
  } else socket.destroy();
}

/** A check every call passes before it reaches the core (a paired device's rights); throwing refuses that call. */
type CallAdmission = (message: ClientMessage) => void;

/** One viewer's control socket: JSON calls in, results, events and output frames out. */
export function serveControlSocket(workspace: Workspace, ws: WebSocket, onClose: () => void, admit?: CallAdmission): void {
  const send = (message: ServerMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const frames = new FrameSlabs();
  const client = new WorkspaceClientSession(workspace, (event, project) => {
    if (event.type !== 'output') return send(project === undefined ? { t: 'event', event } : { t: 'event', event, project });
    if (ws.readyState !== ws.OPEN) return;
    const frame = frames.encode(event);
    // The frame's slab is reused once the socket has written it (or failed to).
    ws.send(frame.bytes, { binary: true }, () => frame.release());
  });
  ws.on('message', (raw, isBinary) => {
    if (isBinary)
      return send({ t: 'result', seq: -1, ok: false, error: { code: 'invalid_argument', message: 'Send calls as JSON text frames' } });
    // The socket keeps the default binaryType, so a text frame arrives as one Buffer.
    void handleMessage(client, (raw as Buffer).toString('utf8'), send, admit);
  });
  ws.on('close', () => {
    client.dispose();
    onClose();
  });
  ws.on('error', () => ws.terminate());
}

async function handleMessage(
  client: WorkspaceClientSession,
  raw: string,
  send: (m: ServerMessage) => void,
  admit: CallAdmission | undefined,
): Promise<void> {
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
    admit?.(message);
    const value = await client.call(message.cmd, message.args, message.project);
    send({ t: 'result', seq, ok: true, value: value ?? null });
  } catch (err) {
    send({ t: 'result', seq, ok: false, error: toSerializedError(err) });
  }
}

/** Addresses the app's page answers itself (the pairing page reads its code from the fragment). */
const APP_PAGES = new Set(['/', '/pair']);

export async function serveStatic(root: string, path: string, res: ServerResponse): Promise<void> {
  const relative = APP_PAGES.has(path) ? 'index.html' : path.replace(/^\/+/, '');
  const file = normalize(join(root, relative));
  if (!file.startsWith(normalize(root) + sep)) return deny(res, 404, 'Not found');
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return deny(res, 404, 'Not found');
  }
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': body.length,
  });
  res.end(body);
}

/** Every value of the cookies called `name`: a page on another loopback port can add its own of the same name. */
function cookieValues(req: IncomingMessage, name: string): string[] {
  const cookies = req.headers.cookie?.split(';').map((c) => c.trim()) ?? [];
  return cookies.filter((c) => c.startsWith(`${name}=`)).map((c) => c.slice(name.length + 1));
}

function sendJson(res: ServerResponse, value: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify(value);
  res.writeHead(200, { ...SECURITY_HEADERS, ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export function deny(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
  res.end(message);
}
