/**
 * A reverse proxy in front of one model API: the sandbox sends its requests here with a
 * placeholder key, and they leave for the real base URL with the real key (in the API's header,
 * and in its key parameter when the request carried one). Nothing else is changed; streamed
 * answers are piped as they come, and WebSocket upgrades (Gemini's Live API) are relayed.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { keyHeaderValue, upstreamPath, type ApiKeyRoute } from './apiKeyRoutes';

export function createKeyProxy(route: ApiKeyRoute, realBaseUrl: string, realKey: string): Server {
  const base = new URL(realBaseUrl);
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstreamRequest = (req: IncomingMessage) =>
    send({
      protocol: base.protocol,
      hostname: base.hostname,
      port: base.port,
      method: req.method,
      path: upstreamPath(route, base.pathname, req.url ?? '/', realKey),
      headers: withRealKey(route, req.headers, base.host, realKey),
    });
  const server = createServer((req, res) => {
    const upstream = upstreamRequest(req);
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`Switchboard key proxy: ${err.message}\n`);
      else res.destroy();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  server.on('upgrade', (req: IncomingMessage, client: Duplex, head: Buffer) => relayUpgrade(upstreamRequest(req), client, head));
  return server;
}

/** The request's headers with whatever key came in dropped and the real one set. */
function withRealKey(route: ApiKeyRoute, headers: IncomingHttpHeaders, host: string, key: string): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers, host };
  delete out['x-api-key'];
  delete out.authorization;
  delete out['x-goog-api-key'];
  out[route.header] = keyHeaderValue(route, key);
  return out;
}

/** A WebSocket (or other) upgrade: the upstream's 101 goes back as it came, then bytes flow both ways. */
function relayUpgrade(upstream: ReturnType<typeof httpRequest>, client: Duplex, head: Buffer): void {
  client.on('error', () => upstream.destroy());
  upstream.on('upgrade', (answer: IncomingMessage, socket: Duplex, upstreamHead: Buffer) => {
    const lines = [`HTTP/1.1 ${answer.statusCode ?? 101} ${answer.statusMessage ?? 'Switching Protocols'}`];
    for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
    client.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (upstreamHead.length > 0) client.write(upstreamHead);
    socket.on('error', () => client.destroy());
    socket.pipe(client).pipe(socket);
  });
  // The upstream answered without upgrading (a refusal, a wrong key): pass its answer on and close.
  upstream.on('response', (answer) => {
    const type = answer.headers['content-type'] ? `content-type: ${answer.headers['content-type']}\r\n` : '';
    client.write(`HTTP/1.1 ${answer.statusCode ?? 502} ${answer.statusMessage ?? ''}\r\n${type}connection: close\r\n\r\n`);
    answer.pipe(client);
  });
  upstream.on('error', () => {
    if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  if (head.length > 0) upstream.write(head);
  upstream.end();
}
