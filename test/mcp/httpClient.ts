/**
 * A bare HTTP client for the endpoint (node:http, so Host, Origin and bodies are exactly what the
 * test says), and a reader for the JSON-RPC messages of a JSON or SSE response.
 */
import http from 'node:http';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** JSON-RPC messages in the body (one JSON object, or the data lines of an SSE stream). */
  messages: Array<Record<string, unknown>>;
}

interface RawRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body chunked (no Content-Length). */
  chunked?: boolean;
}

export function rawRequest(url: string, request: RawRequest): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      ...request.headers,
    };
    if (request.body !== undefined && !request.chunked) headers['Content-Length'] = Buffer.byteLength(request.body);
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method ?? 'POST',
        path: request.path ?? target.pathname,
        headers,
        setHost: !('Host' in headers),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            messages: messagesOf(body, String(res.headers['content-type'] ?? '')),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (request.body !== undefined) {
      if (request.chunked) {
        const data = Buffer.from(request.body);
        for (let i = 0; i < data.length; i += 64 * 1024) req.write(data.subarray(i, i + 64 * 1024));
      } else req.write(request.body);
    }
    req.end();
  });
}

function messagesOf(body: string, contentType: string): Array<Record<string, unknown>> {
  const texts = contentType.includes('text/event-stream')
    ? body
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
    : [body];
  const out: Array<Record<string, unknown>> = [];
  for (const text of texts) {
    if (!text) continue;
    try {
      const value = JSON.parse(text) as unknown;
      for (const message of Array.isArray(value) ? value : [value]) out.push(message as Record<string, unknown>);
    } catch {
      // not JSON: the caller sees no messages
    }
  }
  return out;
}

/** True when the response carries an error for the request: HTTP error with a JSON-RPC error, a JSON-RPC error, or an isError tool result. */
export function isErrorAnswer(response: RawResponse): boolean {
  if (response.messages.length === 0) return false;
  return response.messages.every((m) => m.error !== undefined || (m.result as { isError?: boolean } | undefined)?.isError === true);
}

/** Opens an MCP session by hand; returns the headers later requests need. */
export async function openSession(url: string, token: string): Promise<Record<string, string>> {
  const auth = { Authorization: `Bearer ${token}` };
  const init = await rawRequest(url, {
    headers: auth,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  if (init.status !== 200) throw new Error(`initialize failed: ${init.status} ${init.body}`);
  const session = { ...auth, 'Mcp-Session-Id': String(init.headers['mcp-session-id']), 'Mcp-Protocol-Version': '2025-06-18' };
  const ack = await rawRequest(url, { headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  if (ack.status !== 202) throw new Error(`initialized notification: ${ack.status} ${ack.body}`);
  return session;
}
