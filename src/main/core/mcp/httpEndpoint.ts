/**
 * The MCP endpoint on loopback HTTP (docs/mcp.md): Streamable HTTP from the SDK, one McpServer and
 * transport per MCP session. Everything before the SDK sees a request happens here, in this order:
 * Host and Origin (403, DNS rebinding), path (404), bearer token (401), method (405), body cap
 * (413), JSON (400), session lookup (404) — so nothing unauthenticated ever reaches a tool.
 *
 * A session belongs to the caller that opened it: a request carrying another valid token gets the
 * same 404 as an unknown session id (no cross-client use of a session, no probing for ids).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { ErrorCode, isInitializeRequest, isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Emitter, type Event } from '../base';
import { bearerToken, isAllowedHost, isAllowedOrigin } from '../security';
import { MCP_HOOKS_PATH, MCP_PATH, MCP_TOOL_PROFILE_HEADER, MCP_TOOL_PROFILE_QUERY, type McpToolProfile } from '../../../shared/mcp';
import { callerKey, type Caller, type IdentityRegistry } from './identity';
import { defaultProfile, parseProfile } from './toolProfile';

/** Largest request body: above the biggest tool input (1 MB of typed text or scratchpad). */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** A body streamed past the cap is drained up to this much more (so the client reads our 413), then cut. */
const DRAIN_LIMIT_BYTES = 8 * MAX_BODY_BYTES;
/** Open MCP sessions at most; past it the least recently used idle one is closed (clients re-initialize on 404). */
const MAX_SESSIONS = 256;
/** A session with no request and no open stream for this long is closed. */
const SESSION_IDLE_MS = 60 * 60 * 1000;
const IDLE_SWEEP_MS = 60 * 1000;
/** Path of the agent hook receiver (Claude Code HTTP hooks post here with their process token). */
export const HOOKS_PATH = MCP_HOOKS_PATH;

export interface SessionContext {
  sessionId: string;
  caller: Caller;
  /** What tools/list shows this session: asked for at initialize, else the caller's default. */
  profile: McpToolProfile;
}

/**
 * An extra authenticated route beside the MCP path, taking JSON; it may answer with a value or a
 * promise of one, sent as JSON, or with a string, sent as plain text (for a shell to print).
 */
type JsonRoute = (body: unknown, caller: Caller) => unknown;

interface McpHttpEndpointOptions {
  identity: IdentityRegistry;
  /** Builds the server of one new MCP session; it is closed with the session. */
  createSessionServer(session: SessionContext): McpServer;
  /** Tool names the session servers register (unknown ones are a JSON-RPC error, not a tool result). */
  isKnownTool(name: string): boolean;
  port?: number;
  maxBodyBytes?: number;
  routes?: Record<string, JsonRoute>;
}

interface SessionRecord {
  id: string;
  callerKey: string;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastActivity: number;
  /** Requests and streams currently open (a session with an open stream is never idle). */
  open: number;
}

export class McpHttpEndpoint {
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly sockets = new Set<Socket>();
  private readonly sweepTimer: NodeJS.Timeout;
  private closed = false;
  private portNumber = 0;

  private readonly sessionsChanged = new Emitter<number>();
  /** Fired with the session count whenever a session opens or closes. */
  readonly onDidChangeSessions: Event<number> = this.sessionsChanged.event;

  private constructor(
    private readonly server: Server,
    private readonly options: McpHttpEndpointOptions,
  ) {
    this.sweepTimer = setInterval(() => this.closeIdleSessions(), IDLE_SWEEP_MS);
    this.sweepTimer.unref();
  }

  static async start(options: McpHttpEndpointOptions): Promise<McpHttpEndpoint> {
    const server = createServer();
    const endpoint = new McpHttpEndpoint(server, options);
    server.on('request', (req, res) => void endpoint.handle(req, res));
    server.on('connection', (socket) => {
      endpoint.sockets.add(socket);
      socket.on('close', () => endpoint.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    endpoint.portNumber = (server.address() as AddressInfo).port;
    return endpoint;
  }

  get port(): number {
    return this.portNumber;
  }

  get url(): string {
    return `http://127.0.0.1:${this.portNumber}${MCP_PATH}`;
  }

  /** Base URL for sibling routes (hooks). */
  get origin(): string {
    return `http://127.0.0.1:${this.portNumber}`;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweepTimer);
    await Promise.allSettled([...this.sessions.values()].map((s) => this.closeSession(s)));
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Open SSE streams keep sockets alive forever; the endpoint is going away, so cut them.
    for (const socket of this.sockets) socket.destroy();
    await stopped;
    this.sessionsChanged.dispose();
  }

  /** Closes every session a caller opened (its token was revoked: the entry is gone). */
  async closeSessionsOf(caller: Caller): Promise<void> {
    const key = callerKey(caller);
    await Promise.allSettled([...this.sessions.values()].filter((s) => s.callerKey === key).map((s) => this.closeSession(s)));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.route(req, res);
    } catch (err) {
      // Last resort: a bug here must answer the request, never crash the app.
      if (!res.headersSent)
        sendJsonRpcError(res, 500, ErrorCode.InternalError, `Internal error: ${err instanceof Error ? err.message : String(err)}`);
      else res.end();
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (this.closed) return sendJsonRpcError(res, 503, ErrorCode.ConnectionClosed, 'Switchboard is shutting down');
    if (!isAllowedHost(req.headers.host, this.portNumber)) {
      return sendJsonRpcError(res, 403, -32000, `Forbidden: Host "${req.headers.host ?? ''}" is not this loopback endpoint`);
    }
    const origin = req.headers.origin;
    if (!isAllowedOrigin(origin, this.portNumber))
      return sendJsonRpcError(res, 403, -32000, `Forbidden: Origin "${origin}" is not allowed`);

    const path = (req.url ?? '/').split('?')[0];
    const route = path === MCP_PATH ? undefined : this.options.routes?.[path];
    if (path !== MCP_PATH && !route) return sendJsonRpcError(res, 404, -32000, `Not found: the MCP endpoint is ${MCP_PATH}`);

    const caller = this.options.identity.resolve(bearerToken(req.headers.authorization));
    if (!caller) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="switchboard"');
      return sendJsonRpcError(
        res,
        401,
        -32000,
        'Unauthorized: send "Authorization: Bearer <token>" (see mcp-endpoint.json or SWITCHBOARD_MCP_TOKEN)',
      );
    }

    if (route) return this.handleRoute(req, res, route, caller);
    if (req.method === 'POST') return this.handlePost(req, res, caller);
    if (req.method === 'GET' || req.method === 'DELETE') return this.handleSessionRequest(req, res, caller, undefined);
    res.setHeader('Allow', 'GET, POST, DELETE');
    return sendJsonRpcError(res, 405, -32000, `Method ${req.method} not allowed`);
  }

  private async handlePost(req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
    const body = await this.readJsonBody(req, res);
    if (body === NO_BODY) return;
    const invalid = envelopeProblem(body);
    if (invalid) return sendJsonRpcError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: ${invalid}`, idOf(body));
    if (headerOf(req, 'mcp-session-id') !== undefined) return this.handleSessionRequest(req, res, caller, body);
    if (!isInitializeRequest(body)) {
      return sendJsonRpcError(res, 400, -32000, 'Bad Request: no valid MCP session; start with an initialize request', idOf(body));
    }
    let profile: McpToolProfile;
    try {
      profile = parseProfile(headerOf(req, MCP_TOOL_PROFILE_HEADER) ?? queryOf(req, MCP_TOOL_PROFILE_QUERY)) ?? defaultProfile(caller);
    } catch (err) {
      return sendJsonRpcError(res, 400, ErrorCode.InvalidRequest, `Bad Request: ${(err as Error).message}`, idOf(body));
    }
    const record = await this.openSession(caller, profile);
    await this.dispatch(record, req, res, caller, body);
  }

  private async handleSessionRequest(req: IncomingMessage, res: ServerResponse, caller: Caller, body: unknown): Promise<void> {
    const sessionId = headerOf(req, 'mcp-session-id');
    if (sessionId === undefined) return sendJsonRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required', idOf(body));
    const record = this.sessions.get(sessionId);
    if (!record || record.callerKey !== callerKey(caller)) return sendJsonRpcError(res, 404, -32001, 'Session not found', idOf(body));
    await this.dispatch(record, req, res, caller, body);
  }

  private async dispatch(record: SessionRecord, req: IncomingMessage, res: ServerResponse, caller: Caller, body: unknown): Promise<void> {
    record.lastActivity = Date.now();
    record.open += 1;
    res.once('close', () => {
      record.open -= 1;
      record.lastActivity = Date.now();
    });
    const authInfo: AuthInfo = { token: 'redacted', clientId: callerKey(caller), scopes: [], extra: { caller } };
    (req as IncomingMessage & { auth?: AuthInfo }).auth = authInfo;
    await record.transport.handleRequest(req, res, body);
  }

  private async openSession(caller: Caller, profile: McpToolProfile): Promise<SessionRecord> {
    if (this.sessions.size >= MAX_SESSIONS) this.evictLeastRecentlyUsed();
    // eslint-disable-next-line prefer-const -- the transport's callbacks close over the record built after it
    let record!: SessionRecord;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        record.id = id;
        this.sessions.set(id, record);
        this.sessionsChanged.fire(this.sessions.size);
      },
      // We read and cap the body ourselves; the SDK's own limit would never see it.
      maxRequestBodySize: this.options.maxBodyBytes ?? MAX_BODY_BYTES,
    });
    const server = this.options.createSessionServer({
      get sessionId() {
        return record.id;
      },
      caller,
      profile,
    });
    record = { id: '', callerKey: callerKey(caller), transport, server, lastActivity: Date.now(), open: 0 };
    transport.onclose = () => this.forget(record);
    await server.connect(transport);
    this.gateUnknownTools(transport);
    return record;
  }

  /**
   * MCP says an unknown tool is a protocol error (-32602); SDK 1.32 would turn it into an
   * `isError` result, which a model then retries as if the tool existed. Answer it here.
   */
  private gateUnknownTools(transport: StreamableHTTPServerTransport): void {
    const deliver = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage, extra) => {
      if (isJSONRPCRequest(message) && message.method === 'tools/call') {
        const name = (message.params as { name?: unknown } | undefined)?.name;
        if (typeof name !== 'string' || !this.options.isKnownTool(name)) {
          const text =
            typeof name === 'string'
              ? `Unknown tool "${name.slice(0, 100)}": tools/list shows the available tools`
              : 'tools/call needs a tool name';
          void transport
            .send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: text } })
            .catch(() => undefined); // the client hung up: nobody is left to tell
          return;
        }
      }
      deliver?.(message, extra);
    };
  }

  private forget(record: SessionRecord): void {
    if (record.id && this.sessions.get(record.id) === record) {
      this.sessions.delete(record.id);
      this.sessionsChanged.fire(this.sessions.size);
    }
  }

  private async closeSession(record: SessionRecord): Promise<void> {
    this.forget(record);
    // Closing the server closes its transport: in-flight handlers are aborted, streams end.
    await record.server.close().catch(() => undefined);
  }

  private evictLeastRecentlyUsed(): void {
    const idle = [...this.sessions.values()].filter((s) => s.open === 0).sort((a, b) => a.lastActivity - b.lastActivity);
    const victim = idle[0] ?? [...this.sessions.values()].sort((a, b) => a.lastActivity - b.lastActivity)[0];
    if (victim) void this.closeSession(victim);
  }

  private closeIdleSessions(): void {
    const cutoff = Date.now() - SESSION_IDLE_MS;
    for (const record of [...this.sessions.values()]) {
      if (record.open === 0 && record.lastActivity < cutoff) void this.closeSession(record);
    }
  }

  private async handleRoute(req: IncomingMessage, res: ServerResponse, route: JsonRoute, caller: Caller): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return sendJson(res, 405, { error: `Method ${req.method} not allowed` });
    }
    const body = await this.readJsonBody(req, res);
    if (body === NO_BODY) return;
    try {
      const answer = await route(body, caller);
      if (typeof answer === 'string') sendText(res, answer);
      else sendJson(res, 200, answer ?? {});
    } catch (err) {
      sendJson(res, 400, { error: err instanceof Error ? err.message : String(err) });
    }
  }

  /** Reads and parses the body under the cap; answers 413/400 itself and returns NO_BODY then. */
  private readJsonBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const max = this.options.maxBodyBytes ?? MAX_BODY_BYTES;
    const declared = Number(req.headers['content-length']);
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let tooLarge = Number.isFinite(declared) && declared > max;
      let settled = false;
      const finish = (value: unknown) => {
        if (settled) return;
        settled = true;
        resolve(value);
      };
      const reject413 = () => {
        res.setHeader('Connection', 'close');
        sendJsonRpcError(res, 413, -32000, `Payload too large: the body limit is ${max} bytes`);
        finish(NO_BODY);
      };
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (!tooLarge && size > max) tooLarge = true;
        if (tooLarge) {
          chunks.length = 0;
          if (size > max + DRAIN_LIMIT_BYTES) {
            reject413();
            req.destroy();
          }
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => {
        if (tooLarge) return reject413();
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          finish(JSON.parse(text));
        } catch {
          sendJsonRpcError(res, 400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON');
          finish(NO_BODY);
        }
      });
      req.on('error', () => finish(NO_BODY));
      req.on('close', () => finish(NO_BODY));
    });
  }
}

const NO_BODY = Symbol('no body');

/**
 * Problems the SDK would let through silently: an empty batch (JSON-RPC says it is invalid), a
 * request method sent without an id — a "notification" the transport would accept with 202 and
 * nobody would ever answer (MCP's only notifications are `notifications/*`) — and responses.
 */
function envelopeProblem(body: unknown): string | undefined {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return 'an empty batch';
  for (const message of messages) {
    if (!message || typeof message !== 'object' || Array.isArray(message)) return 'each message must be a JSON-RPC object';
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (id === undefined && typeof method === 'string' && !method.startsWith('notifications/')) {
      return `"${method.slice(0, 100)}" is a request and needs an id`;
    }
    // Our tools never send requests to clients (no sampling, elicitation or roots), so any response is unsolicited.
    if (method === undefined && ('result' in message || 'error' in message)) return 'a response to a request this server never sent';
  }
  return undefined;
}

function queryOf(req: IncomingMessage, name: string): string | undefined {
  const query = (req.url ?? '').split('?')[1];
  return query === undefined ? undefined : (new URLSearchParams(query).get(name) ?? undefined);
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The id of a single JSON-RPC request, so an error can answer it (null otherwise). */
function idOf(body: unknown): string | number | null {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const id = (body as { id?: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') return id;
  }
  return null;
}

function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, id: string | number | null = null): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id });
}

function sendText(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
