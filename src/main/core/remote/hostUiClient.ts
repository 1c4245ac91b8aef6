/**
 * A client of a remote host's UI socket, reached through the tunnel: the same WebSocket and wire
 * format a browser tab uses (JSON calls and events, binary output frames), signed in with the
 * host's UI secret as a bearer header, so the secret travels inside the SSH connection only.
 */
import { WebSocket } from 'ws';
import type { ClientMessage, ControlEvent, ServerMessage } from '../../../shared/api';
import { fromSerializedError } from '../../../shared/errors';
import { decodeOutputFrame } from '../../../shared/outputFrame';
import { Emitter } from '../base';
import { checkServerIdentity } from '../security';

type EventListener = (event: ControlEvent, project?: string) => void;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

/** The UI secret in a server's UI address (its fragment). */
export function uiSecretOf(uiUrl: string): string {
  return new URLSearchParams(new URL(uiUrl).hash.slice(1)).get('token') ?? '';
}

export class HostUiClient {
  private readonly pending = new Map<number, Pending>();
  private readonly closed = new Emitter<void>();
  /** The socket closed (the tunnel or the host's server went away); calls from now on fail. */
  readonly onDidClose = this.closed.event;
  private seq = 0;

  private constructor(
    private readonly socket: WebSocket,
    private readonly onEvent: EventListener,
    private readonly host: string,
  ) {
    socket.on('message', (raw: Buffer, isBinary) => this.receive(raw, isBinary));
    socket.on('close', () => this.end());
    socket.on('error', () => socket.terminate());
  }

  /**
   * Opens the socket of the host UI at `uiUrl` (`http://127.0.0.1:P/#token=SECRET`, the tunnelled
   * address), once the server there proved it holds that secret: nothing is sent to another one.
   */
  static async open(uiUrl: string, host: string, onEvent: EventListener): Promise<HostUiClient> {
    const url = new URL(uiUrl);
    const secret = uiSecretOf(uiUrl);
    const identity = await checkServerIdentity(url.origin, secret);
    if (identity === 'unreachable') throw new Error(`${host}'s Switchboard cannot be reached at port ${url.port}`);
    if (identity === 'other')
      throw new Error(`${host}'s Switchboard at port ${url.port} does not prove it is the server we started: nothing was sent to it`);
    const socket = new WebSocket(`ws://${url.host}/ws`, { headers: { Authorization: `Bearer ${secret}` } });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new HostUiClient(socket, onEvent, host)));
      socket.once('unexpected-response', (_req, res) =>
        reject(new Error(`${host}'s Switchboard refused the connection (${res.statusCode})`)),
      );
      socket.once('error', (err) => reject(new Error(`${host}'s Switchboard cannot be reached: ${err.message}`)));
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  call(cmd: string, args: unknown, project?: string): Promise<unknown> {
    if (!this.isOpen) return Promise.reject(new Error(`${this.host} is disconnected: reconnecting`));
    const seq = ++this.seq;
    const message: ClientMessage = project === undefined ? { t: 'call', seq, cmd, args } : { t: 'call', seq, cmd, args, project };
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.socket.send(JSON.stringify(message));
    });
  }

  close(): void {
    this.socket.terminate();
    this.end();
  }

  private receive(raw: Buffer, isBinary: boolean): void {
    if (isBinary) return this.onEvent({ type: 'output', ...decodeOutputFrame(new Uint8Array(raw)) });
    const message = JSON.parse(raw.toString('utf8')) as ServerMessage;
    if (message.t === 'event') return this.onEvent(message.event, message.project);
    const waiter = this.pending.get(message.seq);
    if (!waiter) return;
    this.pending.delete(message.seq);
    if (message.ok) waiter.resolve(message.value);
    else waiter.reject(fromSerializedError(message.error));
  }

  private end(): void {
    for (const waiter of this.pending.values()) waiter.reject(new Error(`${this.host} is disconnected: reconnecting`));
    this.pending.clear();
    this.closed.fire();
    this.closed.dispose();
  }
}
