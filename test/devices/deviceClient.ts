/** A paired device's side of `serve`'s device listener: HTTPS requests and the control WebSocket, trusting the test certificate. */
import { request } from 'node:https';
import WebSocket from 'ws';
import type { ServerMessage } from '../../src/shared/api';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

export interface DeviceHttp {
  origin: string;
  ca: Buffer;
}

export function httpsCall(
  target: DeviceHttp,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, target.origin),
      {
        method,
        ca: target.ca,
        headers: { Origin: target.origin, ...(body && { 'Content-Type': 'application/json' }), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** One control-API call over the device WebSocket; resolves with the whole result message. */
export async function deviceWsCall(
  target: DeviceHttp,
  cookie: string,
  cmd: string,
  args: unknown,
  project?: string,
): Promise<Extract<ServerMessage, { t: 'result' }>> {
  const socket = new WebSocket(`${target.origin.replace('https:', 'wss:')}/ws`, {
    ca: target.ca,
    headers: { Cookie: cookie, Origin: target.origin },
  });
  try {
    return await new Promise((resolve, reject) => {
      socket.once('open', () => socket.send(JSON.stringify({ t: 'call', seq: 1, cmd, args, ...(project && { project }) })));
      socket.on('message', (raw, isBinary) => {
        if (isBinary) return;
        const message = JSON.parse(raw.toString()) as ServerMessage;
        if (message.t === 'result' && message.seq === 1) resolve(message);
      });
      socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      socket.once('error', reject);
    });
  } finally {
    socket.close();
  }
}
