/** The host ends of a sandbox's relays: servers on Unix sockets in a private folder. */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class HostSockets {
  readonly dir = mkdtempSync(join(tmpdir(), 'switchboard-sandbox-'));
  private readonly servers = new Map<string, { server: Server; sockets: Set<Socket> }>();

  /** `server` listening at `name` in the folder (replacing one there before); binds at once. */
  listen(name: string, server: Server): string {
    const path = join(this.dir, name);
    this.close(name);
    rmSync(path, { force: true });
    const sockets = new Set<Socket>();
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    server.on('error', () => undefined);
    server.listen(path);
    this.servers.set(name, { server, sockets });
    return path;
  }

  /** A socket whose connections go on to the host's `127.0.0.1:port`. */
  forwardToLoopback(name: string, port: number): string {
    const server = createServer((client) => {
      const upstream = connect({ host: '127.0.0.1', port });
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    return this.listen(name, server);
  }

  has(name: string): boolean {
    return this.servers.has(name);
  }

  close(name: string): void {
    const listening = this.servers.get(name);
    if (!listening) return;
    this.servers.delete(name);
    listening.server.close();
    // A closed server keeps its connections (and tunnels) open: they end with it.
    for (const socket of listening.sockets) socket.destroy();
  }

  dispose(): void {
    for (const name of [...this.servers.keys()]) this.close(name);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
