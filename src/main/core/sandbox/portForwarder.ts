/**
 * Servers inside a sandbox, reachable from the host: each port listening in the sandbox's network
 * namespace (1024 and up, not one of the sandbox's own relays) gets a listener on the host's
 * loopback at the same number. A connection there goes in through a spare: a connection the
 * sandbox keeps open to a host socket, on which the host names the port, then joins the streams.
 *
 * The sandbox connects out to a socket in a folder it cannot write; the host never connects to a
 * path the sandbox could write (a symlink there would point the host at any socket of the machine).
 */
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { namespaceListeners } from '../ports';
import type { HostSockets } from './hostSockets';
import type { SpareLink } from './sandboxBackend';

/** Ports below this are the system's (a sandboxed root must not take the host's port 53 or 80). */
const FIRST_FORWARDED_PORT = 1024;
/** Between scans while the run lives; output (a server announcing itself) asks for one sooner. */
const SCAN_INTERVAL_MS = 1_000;
const SCAN_SOON_MS = 30;
/** How long a host connection waits for a spare before it is dropped (one is made in milliseconds). */
const SPARE_WAIT_MS = 5_000;
const HOST_LOOPBACKS = ['127.0.0.1', '::1'] as const;

const SPARE_SOCKET = 'forward.sock';
const SPARE_SCRIPT = 'forward.sh';

/**
 * Run by socat inside the sandbox with a spare connection as stdin and stdout: it waits for the
 * host's "<4|6> <port>" line, leaves the next spare behind, then joins the sandbox's server.
 * Arguments: socat's path, the host socket.
 */
const SPARE_SCRIPT_TEXT = `read -r family port || exit 0
"$1" "UNIX-CONNECT:$2" "EXEC:/bin/sh $0 $1 $2" </dev/null >/dev/null 2>&1 &
case "$port" in ''|*[!0-9]*) exit 1 ;; esac
if [ "$family" = 6 ]; then exec "$1" - "TCP6:[::1]:$port"; fi
exec "$1" - "TCP4:127.0.0.1:$port"
`;

interface Forwarded {
  family: 4 | 6;
  servers: Server[];
  clients: Set<Socket>;
}

export class SandboxPortForwarder {
  readonly link: SpareLink;
  private readonly spares: Socket[] = [];
  private readonly waiting: { client: Socket; port: number; timer: NodeJS.Timeout }[] = [];
  private readonly forwarded = new Map<number, Forwarded>();
  /** Ports the host's loopback already had in use: not tried again until they close inside. */
  private readonly taken = new Set<number>();
  private excluded: ReadonlySet<number> = new Set();
  private rootPid: number | undefined;
  private innerPid: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerDueAt = 0;
  private isScanning = false;
  private isScanAsked = false;

  constructor(private readonly sockets: HostSockets) {
    const script = join(sockets.dir, SPARE_SCRIPT);
    writeFileSync(script, SPARE_SCRIPT_TEXT, { mode: 0o500 });
    const server = createServer((spare) => this.acceptSpare(spare));
    this.link = { socket: sockets.listen(SPARE_SOCKET, server), script };
  }

  /** The run `rootPid` started (the sandbox's outermost process); `excluded` are its relays' ports. */
  beginRun(rootPid: number, excluded: readonly number[]): void {
    this.endRun();
    this.rootPid = rootPid;
    this.excluded = new Set(excluded);
    this.schedule(SCAN_SOON_MS);
  }

  /** The run ended: its ports are gone from the host. */
  endRun(): void {
    this.rootPid = undefined;
    this.innerPid = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const port of [...this.forwarded.keys()]) this.unforward(port);
    this.taken.clear();
  }

  /** Something happened in the run (it printed): a server may have just started listening. */
  scanSoon(): void {
    if (this.rootPid !== undefined) this.schedule(SCAN_SOON_MS);
  }

  /** The host ports forwarded now. */
  get ports(): number[] {
    return [...this.forwarded.keys()].sort((a, b) => a - b);
  }

  dispose(): void {
    this.endRun();
    for (const spare of this.spares.splice(0)) spare.destroy();
    for (const { client, timer } of this.waiting.splice(0)) {
      clearTimeout(timer);
      client.destroy();
    }
  }

  /**
   * A scan `delayMs` from now, unless one is due sooner: output asks on every chunk, so a run that
   * keeps printing costs a comparison per chunk and never pushes the pending scan back.
   */
  private schedule(delayMs: number): void {
    const dueAt = performance.now() + delayMs;
    if (this.timer && this.timerDueAt <= dueAt) return;
    clearTimeout(this.timer);
    this.timerDueAt = dueAt;
    this.timer = setTimeout(() => void this.scan(), delayMs);
    this.timer.unref();
  }

  private async scan(): Promise<void> {
    this.timer = undefined;
    if (this.isScanning) {
      this.isScanAsked = true;
      return;
    }
    this.isScanning = true;
    try {
      const pid = this.sandboxPid();
      const listening = pid === undefined ? new Map<number, 4 | 6>() : await this.listeningInside(pid);
      if (this.rootPid !== undefined) this.update(listening);
    } finally {
      this.isScanning = false;
      if (this.rootPid !== undefined) this.schedule(this.isScanAsked ? 0 : SCAN_INTERVAL_MS);
      this.isScanAsked = false;
    }
  }

  private async listeningInside(pid: number): Promise<Map<number, 4 | 6>> {
    const ports = new Map<number, 4 | 6>();
    for (const { port, family } of await namespaceListeners(pid)) {
      if (port < FIRST_FORWARDED_PORT || this.excluded.has(port)) continue;
      // A server on both families is joined over IPv4.
      if (ports.get(port) !== 4) ports.set(port, family);
    }
    return ports;
  }

  private update(listening: Map<number, 4 | 6>): void {
    for (const port of [...this.forwarded.keys()]) if (!listening.has(port)) this.unforward(port);
    for (const port of [...this.taken]) if (!listening.has(port)) this.taken.delete(port);
    for (const [port, family] of listening) {
      const known = this.forwarded.get(port);
      if (known) known.family = family;
      else if (!this.taken.has(port)) this.forward(port, family);
    }
  }

  /** A process of the run inside the sandbox's network namespace (the first one found below the root). */
  private sandboxPid(): number | undefined {
    if (this.innerPid !== undefined && namespaceOf(this.innerPid) !== undefined) return this.innerPid;
    const root = this.rootPid;
    if (root === undefined) return undefined;
    const own = namespaceOf(process.pid);
    const queue = [root];
    for (let seen = 0; queue.length > 0 && seen < 64; seen += 1) {
      const pid = queue.shift()!;
      const namespace = namespaceOf(pid);
      if (namespace !== undefined && namespace !== own) return (this.innerPid = pid);
      queue.push(...childrenOf(pid));
    }
    return undefined;
  }

  private forward(port: number, family: 4 | 6): void {
    const entry: Forwarded = { family, servers: [], clients: new Set() };
    this.forwarded.set(port, entry);
    HOST_LOOPBACKS.forEach((host, index) => {
      const server = createServer((client) => {
        entry.clients.add(client);
        client.on('close', () => entry.clients.delete(client));
        this.join(client, port);
      });
      server.on('error', (err: NodeJS.ErrnoException) => {
        // The host's IPv4 loopback already has this port: it stays the host's. No IPv6 is fine.
        if (index === 0 && err.code === 'EADDRINUSE' && this.forwarded.get(port) === entry) {
          this.unforward(port);
          this.taken.add(port);
        }
      });
      server.listen({ host, port, exclusive: true });
      entry.servers.push(server);
    });
  }

  private unforward(port: number): void {
    const entry = this.forwarded.get(port);
    if (!entry) return;
    this.forwarded.delete(port);
    for (const server of entry.servers) server.close();
    for (const client of entry.clients) client.destroy();
  }

  private acceptSpare(spare: Socket): void {
    spare.on('error', () => spare.destroy());
    spare.on('close', () => {
      const index = this.spares.indexOf(spare);
      if (index >= 0) this.spares.splice(index, 1);
    });
    const waiter = this.waiting.shift();
    if (waiter) {
      clearTimeout(waiter.timer);
      this.pipe(waiter.client, spare, waiter.port);
    } else {
      this.spares.push(spare);
    }
  }

  private join(client: Socket, port: number): void {
    client.on('error', () => client.destroy());
    const spare = this.spares.shift();
    if (spare) return this.pipe(client, spare, port);
    const timer = setTimeout(() => {
      const index = this.waiting.findIndex((w) => w.client === client);
      if (index >= 0) this.waiting.splice(index, 1);
      client.destroy();
    }, SPARE_WAIT_MS);
    timer.unref();
    this.waiting.push({ client, port, timer });
  }

  private pipe(client: Socket, spare: Socket, port: number): void {
    const family = this.forwarded.get(port)?.family ?? 4;
    spare.write(`${family} ${port}\n`);
    client.pipe(spare).pipe(client);
    const end = () => {
      client.destroy();
      spare.destroy();
    };
    client.on('close', end);
    spare.on('close', end);
  }
}

function namespaceOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return undefined; // exited
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return []; // exited
  }
}
