/**
 * The listener paired devices reach (docs/devices.md): HTTPS on `--listen ADDR:PORT`, or plain
 * HTTP on a loopback port of its own behind the person's HTTPS front (`--public-url`). It admits
 * only device credentials: the loopback UI secret means nothing here, so it cannot work (or leak)
 * through it. Pairing, Web Push subscriptions and notification actions live here; the control
 * WebSocket is the desktop UI's, narrowed to the phone view's commands.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ClientMessage } from '../../../shared/api';
import { PairRequestSchema, PushSubscriptionSchema } from '../../../shared/devices';
import { SwitchboardError, toSerializedError, type SerializedError } from '../../../shared/errors';
import { assertDeviceMayCall, type DevicePrincipal, type Devices } from '../devices';
import type { Workspace } from '../workspace';
import { IDENTITY_NONCE, IDENTITY_PATH, identityProof } from '../security';
import { parseRequestTarget } from './requestTarget';
import { actionPage, answerAction, describeAction } from './deviceActions';
import { SECURITY_HEADERS, deny, refuseSocket, serveControlSocket, serveStatic } from './webServer';

/** `__Host-`: Secure, Path=/ and no Domain, so no other host or path can set or shadow it. */
const DEVICE_COOKIE = '__Host-sb_device';
const WS_PATH = '/ws';
/** Where the app's page signs in (the same path as on loopback; here only a device cookie counts). */
const SESSION_PATH = '/session';
const NOT_PAIRED = 'This device is not paired with Switchboard (or was revoked): open the pairing link the desktop shows under Devices.';
const MAX_BODY_BYTES = 16 * 1024;
const MAX_WS_MESSAGE_BYTES = 2 * 1024 * 1024;
/** Long enough to outlive a phone's browser session, short of forever: a revoke ends it sooner. */
const COOKIE_MAX_AGE_S = 400 * 24 * 3600;

interface DeviceServerOptions {
  workspace: Workspace;
  devices: Devices;
  staticDir: string;
  /** The origin devices open, e.g. `https://box.tailnet.ts.net` or `https://192.168.1.5:8443`. */
  publicOrigin: string;
  /** `--listen`: HTTPS on this address. Absent: plain HTTP on 127.0.0.1, for the person's HTTPS front. */
  tls?: { host: string; port: number; cert: Buffer; key: Buffer };
  /** The loopback port for the front (0: any free one). */
  loopbackPort?: number;
  /** The VAPID public key devices subscribe with. */
  pushPublicKey?: () => string;
}

export interface RunningDeviceServer {
  server: Server;
  /** Where it listens: `https://ADDR:PORT`, or `http://127.0.0.1:PORT` for the front to forward to. */
  listenUrl: string;
  close(): Promise<void>;
}

export async function startDeviceServer(options: DeviceServerOptions): Promise<RunningDeviceServer> {
  const { devices, tls } = options;
  const origin = new URL(options.publicOrigin).origin;
  const allowedHosts = new Set([new URL(origin).host]);
  if (tls) allowedHosts.add(hostWithPort(tls.host, tls.port));
  const isOurOrigin = (value: string | undefined) => value === undefined || [...allowedHosts].some((h) => value === `https://${h}`);
  const deviceOf = (req: IncomingMessage) => devices.authenticate(cookieValue(req, DEVICE_COOKIE));
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_MESSAGE_BYTES });

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!allowedHosts.has(req.headers.host?.toLowerCase() ?? '')) return deny(res, 403, 'Forbidden: Host is not this server');
    const target = parseRequestTarget(req.url);
    if (!target) return deny(res, 400, 'Bad request: the path is not a valid origin-form path');
    const isPost = req.method === 'POST';
    if (isPost && !isOurOrigin(req.headers.origin)) return deny(res, 403, 'Forbidden: Origin is not this server');
    if (target.path === '/pair' && isPost) return pair(req, res);
    if (target.path === '/push/key' && req.method === 'GET') return pushKey(res);
    if (target.path === SESSION_PATH && req.method === 'GET') return describeSession(req, res);
    if (target.path === IDENTITY_PATH && req.method === 'GET') return proveIdentity(res, target.query.get('nonce'));
    const action = /^\/action\/([\w-]{16,64})$/.exec(target.path);
    if (action) return actionRoute(req, res, action[1]);
    if (target.path === '/push/subscribe' && isPost) return withDevice(req, res, (device) => subscribe(req, res, device));
    if (target.path === '/push/unsubscribe' && isPost) return withDevice(req, res, () => unsubscribe(req, res));
    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'Method not allowed');
    return serveStatic(options.staticDir, target.path, res);
  };

  const pair = async (req: IncomingMessage, res: ServerResponse) => {
    const { code, name } = PairRequestSchema.parse(await readJson(req));
    const { device, credential } = devices.pair(code, name);
    const cookie = `${DEVICE_COOKIE}=${credential}; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=${COOKIE_MAX_AGE_S}`;
    sendJson(res, 200, { deviceId: device.deviceId }, { 'Set-Cookie': cookie });
  };

  /** The page's sign-in: with a device cookie, the key it checks this server's identity with on a reconnect. */
  const describeSession = (req: IncomingMessage, res: ServerResponse) => {
    if (!deviceOf(req)) return sendError(res, new SwitchboardError('unauthorized', NOT_PAIRED));
    sendJson(res, 200, { identity: devices.identityKey });
  };

  const proveIdentity = (res: ServerResponse, nonce: string | null) => {
    if (!nonce || !IDENTITY_NONCE.test(nonce)) return deny(res, 400, 'Bad request: ?nonce= takes 22–86 base64url characters');
    sendJson(res, 200, { proof: identityProof(devices.identityKey, nonce) });
  };

  const pushKey = (res: ServerResponse) => {
    if (!options.pushPublicKey) return sendError(res, new SwitchboardError('not_found', 'Web Push is not set up on this server.'));
    sendJson(res, 200, { publicKey: options.pushPublicKey() });
  };

  const subscribe = async (req: IncomingMessage, res: ServerResponse, device: DevicePrincipal) => {
    devices.subscribe(device, PushSubscriptionSchema.parse(await readJson(req)));
    sendJson(res, 200, { subscribed: true });
  };

  const unsubscribe = async (req: IncomingMessage, res: ServerResponse) => {
    const { endpoint } = PushSubscriptionSchema.pick({ endpoint: true }).parse(await readJson(req));
    sendJson(res, 200, { unsubscribed: devices.unsubscribe(endpoint) });
  };

  const actionRoute = async (req: IncomingMessage, res: ServerResponse, token: string) => {
    const wantsPage = (req.headers.accept ?? '').includes('text/html');
    const device = deviceOf(req);
    if (!device) {
      const error = new SwitchboardError('unauthorized', 'This device is not paired with Switchboard (or was revoked): pair it first.');
      return wantsPage ? sendPage(res, 401, actionPage.refused(error.message)) : sendError(res, error);
    }
    if (req.method === 'GET') {
      // Opening the link only shows what it would do: a prefetch or a preview must answer nothing.
      const described = await describeAction(options.workspace, devices, token, device);
      return sendPage(
        res,
        described.ok ? 200 : 403,
        described.ok ? actionPage.confirm(described.text) : actionPage.refused(described.text),
      );
    }
    if (req.method !== 'POST') return deny(res, 405, 'Method not allowed');
    try {
      const answered = await answerAction(options.workspace, devices, token, device);
      return wantsPage ? sendPage(res, 200, actionPage.done(answered)) : sendJson(res, 200, answered);
    } catch (err) {
      return wantsPage
        ? sendPage(res, statusOf(toSerializedError(err)), actionPage.refused(toSerializedError(err).message))
        : sendError(res, err);
    }
  };

  const withDevice = (req: IncomingMessage, res: ServerResponse, then: (device: DevicePrincipal) => Promise<void>) => {
    const device = deviceOf(req);
    if (!device) return sendError(res, new SwitchboardError('unauthorized', 'Pair this device first.'));
    return then(device);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((err: unknown) => sendError(res, err));
  };
  const server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, handle) : createHttpServer(handle);
  server.on('clientError', (_err: Error, socket: Duplex) => refuseSocket(socket, 400, 'Malformed request'));
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (!allowedHosts.has(req.headers.host?.toLowerCase() ?? '')) return refuseSocket(socket, 403, 'Forbidden: Host is not this server');
    if (parseRequestTarget(req.url)?.path !== WS_PATH) return refuseSocket(socket, 404, 'Not found');
    if (req.headers.origin === undefined || !isOurOrigin(req.headers.origin))
      return refuseSocket(socket, 403, 'Forbidden: Origin is not this server');
    const device = deviceOf(req);
    if (!device) return refuseSocket(socket, 401, 'Unauthorized: pair this device first');
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      serveDeviceSocket(options.workspace, devices, device.deviceId, ws, () => sockets.delete(ws));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(tls ? tls.port : (options.loopbackPort ?? 0), tls ? tls.host : '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    server,
    listenUrl: tls ? `https://${hostWithPort(tls.host, port)}` : `http://127.0.0.1:${port}`,
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The desktop's control socket for one device: each call checked against the device as it is now. */
function serveDeviceSocket(workspace: Workspace, devices: Devices, deviceId: string, ws: WebSocket, onClose: () => void): void {
  serveControlSocket(workspace, ws, onClose, (message) => {
    const device = devices.current(deviceId);
    if (!device) {
      // The refusal is answered first; then the socket goes.
      setImmediate(() => ws.close(4401, 'revoked'));
      throw new SwitchboardError('unauthorized', 'This device was revoked.');
    }
    assertDeviceMayCall(device, message.cmd);
    if (message.cmd === 'sendUserTurn' && !device.mayControl) assertAgentEntry(workspace, message);
  });
}

/** A reply is typed into an agent; into a shell it would run a command, which only a device allowed to control may do. */
function assertAgentEntry(workspace: Workspace, message: ClientMessage): void {
  const id = (message.args as { id?: unknown } | undefined)?.id;
  const projectId = message.project ?? workspace.shownId;
  const project = workspace.list().find((p) => p.id === projectId);
  const kind = project?.handle.core.snapshot().processes.find((p) => p.id === id)?.kind;
  if (kind !== 'agent')
    throw new SwitchboardError(
      'forbidden',
      'A reply from a paired device goes to an agent of this machine; typing into other entries needs "may control" under Devices.',
    );
}

function hostWithPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`.toLowerCase();
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  const cookies = req.headers.cookie?.split(';').map((c) => c.trim()) ?? [];
  return cookies.find((c) => c.startsWith(`${name}=`))?.slice(name.length + 1);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new SwitchboardError('invalid_argument', 'The request body is too large.');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new SwitchboardError('invalid_argument', 'The request body is not valid JSON.');
  }
}

const STATUS_BY_CODE: Partial<Record<SerializedError['code'], number>> = {
  invalid_argument: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  stale_prompt: 409,
  unknown_process: 404,
};

function statusOf(error: SerializedError): number {
  return STATUS_BY_CODE[error.code] ?? 500;
}

function sendError(res: ServerResponse, err: unknown): void {
  const error = isZodError(err)
    ? { code: 'invalid_argument' as const, message: err.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ') }
    : toSerializedError(err);
  sendJson(res, statusOf(error), { error });
}

function isZodError(err: unknown): err is { issues: { path: PropertyKey[]; message: string }[] } {
  return err instanceof Error && err.name === 'ZodError';
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json', ...extra });
  res.end(JSON.stringify(body));
}

function sendPage(res: ServerResponse, status: number, html: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
  });
  res.end(html);
}
