/**
 * A reverse proxy in front of one model API: the sandbox sends its requests here with a
 * placeholder key, and they leave for the real base URL with the real key. Nothing else is
 * changed; streamed answers are piped as they come.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { keyHeaderValue, type ApiKeyRoute } from './apiKeyRoutes';

export function createKeyProxy(route: ApiKeyRoute, realBaseUrl: string, realKey: string): Server {
  const base = new URL(realBaseUrl);
  const basePath = base.pathname.replace(/\/$/, '');
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
  return createServer((req, res) => {
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: base.host };
    delete headers['x-api-key'];
    delete headers.authorization;
    delete headers['x-goog-api-key'];
    headers[route.header] = keyHeaderValue(route, realKey);
    const upstream = send(
      {
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        method: req.method,
        path: `${basePath}${req.url ?? '/'}`,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`Switchboard key proxy: ${err.message}\n`);
      else res.destroy();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
}
