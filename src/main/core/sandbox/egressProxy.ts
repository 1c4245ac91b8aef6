/**
 * The sandbox's only way out: an HTTP proxy (CONNECT tunnels and plain absolute-URL requests) that
 * lets through what the entry's allowlist names and the fixed routes to Switchboard itself, and
 * records every other attempt. It listens on a Unix socket the sandbox reaches through its relay.
 */
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestOptions,
  type Server,
  type ServerResponse,
} from 'node:http';
import { lookup } from 'node:dns/promises';
import { connect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { isAllowed, isLocalAddress, namesAddressAndPort, splitAuthority } from './networkAllowlist';

/** A destination inside the sandbox that leads somewhere fixed on the host (MCP endpoint, API key proxy). */
export type FixedRoute = () => Socket;

interface EgressPolicy {
  /** The allowlist as it is now (a person may widen it while the entry runs). */
  allow(): readonly string[];
  /** Where `host:port` (lower case) leads when it is one of Switchboard's own destinations. */
  fixed(hostPort: string): FixedRoute | undefined;
  onRefused(host: string, port: number): void;
  /** The address a name resolves to (the system resolver by default). */
  resolve?(host: string): Promise<string>;
}

/** Headers about one connection, not the request: each side of the proxy has its own (RFC 9110 §7.6.1). */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
];

/** Where an allowed destination leads, or why it is refused (one line). */
type Route = { open: FixedRoute; address?: string } | { refusal: string } | { failure: string };

const systemResolve = async (host: string) => (await lookup(host)).address;

export function createEgressProxy(policy: EgressPolicy): Server {
  // Plain requests to allowed hosts reuse their upstream connections (a package manager sends many
  // small requests to one registry); each request is still checked against the allowlist first.
  const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 16 });
  const server = createServer((req, res) => forwardPlainRequest(policy, upstreamAgent, req, res));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => openTunnel(policy, req, client, head));
  server.on('close', () => upstreamAgent.destroy());
  return server;
}

/**
 * An allowed name is resolved here and the connection goes to the address checked: a name that
 * resolves to a local address is refused unless the allowlist names that address and port.
 */
async function route(policy: EgressPolicy, host: string, port: number): Promise<Route> {
  const fixed = policy.fixed(`${host}:${port}`);
  if (fixed) return { open: fixed };
  const allow = policy.allow();
  if (!isAllowed(allow, host, port)) return refuse(policy, host, port, refusalText(host, port));
  let address: string;
  try {
    address = isIP(host) ? host : await (policy.resolve ?? systemResolve)(host);
  } catch {
    return { failure: `Switchboard sandbox: ${host} does not resolve\n` };
  }
  if (isLocalAddress(address) && !namesAddressAndPort(allow, address, port)) {
    const shown = isIP(address) === 6 ? `[${address}]` : address;
    const why = host === address ? 'a local address' : `${host} resolves to ${shown}, a local address`;
    return refuse(policy, address, port, `Switchboard sandbox: ${why}; only an allowlist entry ${shown}:${port} reaches it\n`);
  }
  return { open: () => connect({ host: address, port }), address };
}

function refuse(policy: EgressPolicy, host: string, port: number, text: string): Route {
  policy.onRefused(host, port);
  return { refusal: text };
}

function openTunnel(policy: EgressPolicy, req: IncomingMessage, client: Duplex, head: Buffer): void {
  const target = splitAuthority(req.url ?? '');
  client.on('error', () => client.destroy());
  if (!target) return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
  void route(policy, target.host, target.port).then((routed) => {
    if ('refusal' in routed) return void client.end(plainResponse('403 Forbidden', routed.refusal));
    if ('failure' in routed) return void client.end(plainResponse('502 Bad Gateway', routed.failure));
    if (!client.destroyed) tunnelTo(routed.open, client, head);
  });
}

function tunnelTo(open: FixedRoute, client: Duplex, head: Buffer): void {
  const upstream = open();
  upstream.once('connect', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => {
    if (!client.writableEnded) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  client.on('close', () => upstream.destroy());
}

function forwardPlainRequest(policy: EgressPolicy, agent: Agent, req: IncomingMessage, res: ServerResponse): void {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    return void res.writeHead(400).end('The sandbox proxy takes absolute URLs only\n');
  }
  if (url.protocol !== 'http:') return void res.writeHead(400).end('Plain requests must be http:; use CONNECT for https\n');
  const target = splitAuthority(url.host, 80);
  if (!target) return void res.writeHead(400).end('Bad host\n');
  void route(policy, target.host, target.port).then((routed) => {
    if ('refusal' in routed) return void res.writeHead(403, { 'content-type': 'text/plain' }).end(routed.refusal);
    if ('failure' in routed) return void res.writeHead(502, { 'content-type': 'text/plain' }).end(routed.failure);
    // A checked address goes through the keep-alive pool (keyed by that address); Switchboard's own routes open their socket.
    const via: RequestOptions = routed.address
      ? { agent, host: routed.address, port: target.port }
      : { createConnection: () => routed.open() };
    forwardTo(via, url, req, res);
  });
}

function forwardTo(via: RequestOptions, url: URL, req: IncomingMessage, res: ServerResponse): void {
  const upstream = httpRequest(
    { ...via, method: req.method, path: `${url.pathname}${url.search}`, headers: endToEnd(req.headers) },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502).end('Upstream failed\n');
    else res.destroy();
  });
  req.pipe(upstream);
}

/** `headers` without the hop-by-hop ones, and without those the Connection header names. */
function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  const kept = { ...headers };
  for (const name of [...HOP_BY_HOP, ...named]) delete kept[name];
  return kept;
}

function refusalText(host: string, port: number): string {
  return `Switchboard sandbox: ${host}:${port} is not on this entry's network allowlist\n`;
}

function plainResponse(status: string, body: string): string {
  return `HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}
