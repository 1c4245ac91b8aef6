/**
 * Ports for instances outside the main checkout: one per (worktree, entry), stable across restarts
 * while it is still free (kept in the app's data dir), never one something listens on (checked by
 * binding the v4 and v6 wildcard addresses, which fails while any address of that port is taken).
 */
import { createServer } from 'node:net';
import { mkdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../base';

/** Port assignments by worktree id, then entry name. */
type PortAssignments = Record<string, Record<string, number>>;

interface PortStore {
  load(): PortAssignments;
  save(assignments: PortAssignments): void;
}

/**
 * Below Linux's ephemeral range (32768–60999), so an outgoing connection never holds an
 * assigned port, and above the usual dev-server defaults (3000–9000).
 */
const DEFAULT_PORT_RANGE = { first: 20_000, last: 32_000 } as const;

interface PortAllocatorOptions {
  store?: PortStore;
  range?: { first: number; last: number };
  isFree?: (port: number) => Promise<boolean>;
  /**
   * Where this allocator's searches start (the project): two projects each with a worktree
   * `feature-a` start at different ports, so two Switchboards planning at once rarely meet.
   */
  seed?: string;
}

export class PortAllocator {
  private readonly assignments: PortAssignments;
  private readonly range: { first: number; last: number };
  private readonly isFree: (port: number) => Promise<boolean>;
  /** Allocations run one at a time so two never pick the same free port. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PortAllocatorOptions = {}) {
    this.assignments = options.store?.load() ?? {};
    this.range = options.range ?? DEFAULT_PORT_RANGE;
    this.isFree = options.isFree ?? isPortFree;
  }

  /** The port of `name` in `worktreeId`: the one it had if still free, else a new free one outside `avoid`. */
  allocate(worktreeId: string, name: string, avoid: ReadonlySet<number> = new Set()): Promise<number> {
    const next = this.queue.then(() => this.pick(worktreeId, name, avoid));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** What a worktree holds now (for display and tests). */
  assigned(worktreeId: string): Readonly<Record<string, number>> {
    return { ...this.assignments[worktreeId] };
  }

  /** A removed worktree's ports go back to the pool. */
  release(worktreeId: string): void {
    if (!(worktreeId in this.assignments)) return;
    delete this.assignments[worktreeId];
    this.options.store?.save(this.assignments);
  }

  private async pick(worktreeId: string, name: string, avoid: ReadonlySet<number>): Promise<number> {
    const taken = this.portsOfOthers(worktreeId, name);
    const previous = this.assignments[worktreeId]?.[name];
    if (previous !== undefined && !taken.has(previous) && !avoid.has(previous) && (await this.isFree(previous))) return previous;
    const size = this.range.last - this.range.first + 1;
    const start = hash(`${this.options.seed ?? ''}/${worktreeId}/${name}`) % size;
    for (let i = 0; i < size; i++) {
      const port = this.range.first + ((start + i) % size);
      if (taken.has(port) || avoid.has(port) || !(await this.isFree(port))) continue;
      (this.assignments[worktreeId] ??= {})[name] = port;
      this.options.store?.save(this.assignments);
      return port;
    }
    throw new Error(`no free port left in ${this.range.first}–${this.range.last}`);
  }

  private portsOfOthers(worktreeId: string, name: string): Set<number> {
    const ports = new Set<number>();
    for (const [worktree, byName] of Object.entries(this.assignments))
      for (const [entry, port] of Object.entries(byName)) if (worktree !== worktreeId || entry !== name) ports.add(port);
    return ports;
  }
}

/** Whether nothing listens on `port` on any local address, v4 or v6. */
export async function isPortFree(port: number): Promise<boolean> {
  if (!(await canBind(port, '0.0.0.0', false))) return false;
  return canBind(port, '::', true);
}

/** Binding fails with EADDRINUSE while any socket listens on that port; no IPv6 on the machine counts as free. */
function canBind(port: number, host: string, ipv6Only: boolean): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => done(err.code === 'EAFNOSUPPORT' || err.code === 'EADDRNOTAVAIL'));
    server.listen({ port, host, ipv6Only, exclusive: true }, () => server.close(() => done(true)));
  });
}

/** FNV-1a: the same (worktree, entry) starts its search at the same place every time. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Assignments kept as JSON in the app's data dir; a missing or broken file starts empty. */
export class JsonPortStore implements PortStore {
  constructor(private readonly path: string) {}

  /** One file per project in the app's data dir (never in the project, which agents can write). */
  static forProject(dataDir: string, projectDir: string): JsonPortStore {
    const key = createHash('sha256').update(resolve(projectDir)).digest('hex').slice(0, 16);
    return new JsonPortStore(join(dataDir, 'ports', `${key}.json`));
  }

  load(): PortAssignments {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
      return isAssignments(parsed) ? parsed : {};
    } catch {
      return {}; // first run, or a damaged file: ports are re-picked, nothing else depends on it
    }
  }

  save(assignments: PortAssignments): void {
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileAtomic(this.path, JSON.stringify(assignments, null, 2));
  }
}

function isAssignments(value: unknown): value is PortAssignments {
  return isRecord(value) && Object.values(value).every((byName) => isRecord(byName) && Object.values(byName).every(isPort));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function isPort(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 65536;
}
