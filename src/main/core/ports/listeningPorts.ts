/**
 * TCP ports a process tree listens on. Linux reads /proc (no child process per scan): the tree
 * from each process's `children` list, its sockets from /proc/PID/fd, and listening sockets from
 * /proc/PID/net/tcp{,6}. The tree and fd reads are tiny: read synchronously they cost ~1 ms for a
 * dev server's tree, while as async fs calls they would queue through libuv's thread pool one
 * small hop at a time (9–20 ms) — and readiness waits on this scan to confirm port ownership.
 * The tcp tables are different: the kernel walks its whole socket hash for each read (several ms
 * on a quiet machine, far more on a busy one), so they are read asynchronously, off the main
 * thread, and one read of a network namespace serves every scan within `maxAgeMs`.
 * macOS asks `ps` for the tree and `lsof` for the sockets. Elsewhere the list is empty (URL
 * sightings and the configured port still work).
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { execFile } from 'node:child_process';

/** `lsof` on a busy Mac takes ~100 ms; more than this means it hangs, and the scan is skipped. */
const LSOF_TIMEOUT_MS = 2_000;
/** /proc/net/tcp state column value for LISTEN (include/net/tcp_states.h: TCP_LISTEN = 10). */
const TCP_STATE_LISTEN = '0A';
/** Bounds the tree walk: a fork bomb under an entry must not stall the scanner. */
const MAX_TREE_PROCESSES = 2_000;

interface TcpListener {
  inode: string;
  port: number;
  acceptQueue: number;
  /** Which table it came from: tcp (4) or tcp6 (6). */
  family: 4 | 6;
}

/** A listening socket of a network namespace: its port and address family. */
interface NamespaceListener {
  port: number;
  family: 4 | 6;
}

export interface ListPortsOptions {
  /** How old a namespace's tcp tables may be (read by an earlier scan); 0 shares only a read under way. */
  maxAgeMs?: number;
}

export async function listListeningPorts(rootPid: number, options: ListPortsOptions = {}): Promise<number[]> {
  if (process.platform === 'linux') return listListeningPortsFromProc(rootPid, options);
  if (process.platform === 'darwin') return listListeningPortsWithLsof(rootPid);
  return [];
}

// ---- Linux ----------------------------------------------------------------------------------

async function listListeningPortsFromProc(rootPid: number, options: ListPortsOptions = {}): Promise<number[]> {
  const pids = collectProcTree(rootPid);
  if (pids.length === 0) return [];
  const inodes = new Set<string>();
  for (const pid of pids) addSocketInodes(pid, inodes);
  if (inodes.size === 0) return [];
  // Every network namespace the tree has a process in (a sandbox makes its own).
  const perNamespace = await Promise.all(namespaceRepresentatives(pids).map((pid) => listenersOf(pid, options.maxAgeMs ?? 0)));
  const listeners = perNamespace.flat();
  const ports = new Set<number>();
  let ownInodes: Set<string> | undefined;
  for (const { inode, port } of listeners) {
    if (!inodes.has(inode)) continue;
    // A child between fork and exec still holds every socket of ours (the MCP endpoint, the
    // web server): those are Switchboard's, never the child's server.
    ownInodes ??= rootPid === process.pid ? new Set() : socketInodesOf(process.pid);
    if (!ownInodes.has(inode)) ports.add(port);
  }
  return [...ports].sort((a, b) => a - b);
}

/**
 * Connections waiting in the accept queue of whatever listens on `port` in this process's network
 * namespace (the one its loopback probes reach); undefined when nothing listens there or the
 * platform has no /proc. A live server empties its queue within microseconds; connections that
 * stay queued mean the process accepts nothing (stopped, paused at a breakpoint, event loop stuck).
 */
export async function acceptQueueLength(port: number, options: ListPortsOptions = {}): Promise<number | undefined> {
  if (process.platform !== 'linux') return undefined;
  let waiting: number | undefined;
  for (const listener of await listenersOf(process.pid, options.maxAgeMs ?? 0)) {
    if (listener.port === port) waiting = Math.max(waiting ?? 0, listener.acceptQueue);
  }
  return waiting;
}

/** Every listening socket of `pid`'s network namespace, whoever holds it (a sandbox's namespace is all its own). */
export async function namespaceListeners(pid: number, options: ListPortsOptions = {}): Promise<NamespaceListener[]> {
  if (process.platform !== 'linux') return [];
  return (await listenersOf(pid, options.maxAgeMs ?? 0)).map(({ port, family }) => ({ port, family }));
}

/** One pid per distinct network namespace among `pids` (the root's first). */
function namespaceRepresentatives(pids: number[]): number[] {
  const byNamespace = new Map<string, number>();
  for (const pid of pids) {
    const namespace = readLinkOrUndefined(`/proc/${pid}/ns/net`);
    if (namespace !== undefined && !byNamespace.has(namespace)) byNamespace.set(namespace, pid);
  }
  return byNamespace.size > 0 ? [...byNamespace.values()] : pids.slice(0, 1);
}

function socketInodesOf(pid: number): Set<string> {
  const inodes = new Set<string>();
  addSocketInodes(pid, inodes);
  return inodes;
}

/** Reads of a network namespace's listening sockets, by namespace, with when each began. */
const tableReads = new Map<string, { startedAt: number; settled: boolean; listeners: Promise<TcpListener[]> }>();

/** The listening sockets of `rootPid`'s namespace: its tcp and tcp6 tables, read and parsed once per read. */
function listenersOf(rootPid: number, maxAgeMs: number): Promise<TcpListener[]> {
  const namespace = readLinkOrUndefined(`/proc/${rootPid}/ns/net`);
  const now = performance.now();
  const known = namespace === undefined ? undefined : tableReads.get(namespace);
  if (known && (!known.settled || now - known.startedAt <= maxAgeMs)) return known.listeners;
  const read = { startedAt: now, settled: false, listeners: Promise.resolve<TcpListener[]>([]) };
  const tables = (['tcp', 'tcp6'] as const).map((name) => readFile(`/proc/${rootPid}/net/${name}`, 'utf8').catch(() => ''));
  read.listeners = Promise.all(tables)
    .then(([tcp, tcp6]) => [...parseProcNetTcpListeners(tcp, 4), ...parseProcNetTcpListeners(tcp6, 6)])
    .finally(() => (read.settled = true));
  if (namespace !== undefined) tableReads.set(namespace, read);
  return read.listeners;
}

function readLinkOrUndefined(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined; // exited, or not ours to read
  }
}

/** Listening sockets of a /proc/net/tcp or tcp6 table: inode, local port and accept queue. */
export function parseProcNetTcpListeners(table: string, family: 4 | 6 = 4): TcpListener[] {
  const listeners: TcpListener[] = [];
  // Most rows of a busy machine are connections (TIME_WAIT, ESTABLISHED): only the state column is
  // looked at for those, by position, and only LISTEN rows are split into fields.
  for (let start = table.indexOf('\n') + 1; start > 0 && start < table.length;) {
    const newline = table.indexOf('\n', start);
    const end = newline === -1 ? table.length : newline;
    const localAddress = table.indexOf(': ', start) + 2;
    const remoteAddressEnd = table.indexOf(' ', table.indexOf(' ', localAddress) + 1);
    if (localAddress > 1 && remoteAddressEnd < end && table.startsWith(` ${TCP_STATE_LISTEN} `, remoteAddressEnd)) {
      const listener = parseListenerRow(table.slice(start, end), family);
      if (listener) listeners.push(listener);
    }
    start = end + 1;
  }
  return listeners;
}

function parseListenerRow(row: string, family: 4 | 6): TcpListener | undefined {
  // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
  const fields = row.trim().split(/\s+/);
  if (fields.length < 10) return undefined;
  const port = Number.parseInt(fields[1].slice(fields[1].lastIndexOf(':') + 1), 16);
  // A listener's rx_queue is its accept queue: connections the process has not accepted yet.
  const acceptQueue = Number.parseInt(fields[4].slice(fields[4].indexOf(':') + 1), 16);
  const inode = fields[9];
  if (!Number.isInteger(port) || port <= 0 || inode === '0') return undefined;
  return { inode, port, acceptQueue: Number.isInteger(acceptQueue) ? acceptQueue : 0, family };
}

function collectProcTree(rootPid: number): number[] {
  const found: number[] = [];
  const seen = new Set<number>();
  const queue = [rootPid];
  while (queue.length > 0 && found.length < MAX_TREE_PROCESSES) {
    const pid = queue.shift()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const children = readChildren(pid);
    if (children === undefined) continue; // exited
    found.push(pid);
    queue.push(...children);
  }
  return found;
}

/** Children of every thread of `pid` (a child belongs to the thread that forked it). */
function readChildren(pid: number): number[] | undefined {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined; // exited
  }
  return tids.flatMap((tid) => readOrEmpty(`/proc/${pid}/task/${tid}/children`).split(' ').filter(Boolean).map(Number));
}

function addSocketInodes(pid: number, into: Set<string>): void {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return; // exited, or not ours to read
  }
  for (const fd of fds) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed meanwhile
    }
    const socket = /^socket:\[(\d+)\]$/.exec(target);
    if (socket) into.add(socket[1]);
  }
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return ''; // the process (or thread) exited between listing and reading
  }
}

// ---- macOS ----------------------------------------------------------------------------------

async function listListeningPortsWithLsof(rootPid: number): Promise<number[]> {
  const psOutput = await run('ps', ['-A', '-o', 'pid=,ppid=']);
  if (psOutput === undefined) return [];
  const pids = collectTreeFromPs(rootPid, psOutput);
  const lsofOutput = await run('lsof', ['-nP', '-a', '-iTCP', '-sTCP:LISTEN', '-p', pids.join(','), '-Fn']);
  return lsofOutput === undefined ? [] : parseLsofListeningPorts(lsofOutput);
}

/** The root and its descendants from `ps -A -o pid=,ppid=` output. */
export function collectTreeFromPs(rootPid: number, psOutput: string): number[] {
  const children = new Map<number, number[]>();
  for (const line of psOutput.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (!Number.isInteger(pid) || !Number.isInteger(ppid)) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const tree: number[] = [];
  const stack = [rootPid];
  while (stack.length > 0 && tree.length < MAX_TREE_PROCESSES) {
    const pid = stack.pop()!;
    if (tree.includes(pid)) continue;
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Ports from `lsof -Fn` name lines: "n*:3000", "n127.0.0.1:5173", "n[::1]:5173". */
export function parseLsofListeningPorts(output: string): number[] {
  const ports = new Set<number>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('n')) continue;
    const port = Number(line.slice(line.lastIndexOf(':') + 1));
    if (Number.isInteger(port) && port > 0) ports.add(port);
  }
  return [...ports].sort((a, b) => a - b);
}

function run(command: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: LSOF_TIMEOUT_MS, encoding: 'utf8' }, (err, stdout) => {
      // lsof exits 1 when nothing matched; its output is still the answer (empty).
      resolve(err && !stdout ? (isNoMatchExit(err) ? '' : undefined) : stdout);
    });
  });
}

function isNoMatchExit(err: Error & { code?: unknown }): boolean {
  return err.code === 1;
}
