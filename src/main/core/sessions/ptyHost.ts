/**
 * The PTYs are read on their own thread, not on the main thread (VS Code's pty host, as a thread
 * of our process): node-pty reads a PTY on the event loop that spawned it, one loop turn per read
 * of a few KB, and any JavaScript the main thread runs between two reads (detectors, screens,
 * viewers, MCP) was time the program waited for the kernel to take its next write. On the PTY
 * thread a flood is read at node-pty's own pace while the main thread takes it in larger messages
 * (ptyThread.ts); a main thread that falls behind pauses the reading there.
 *
 * `spawn` stays synchronous (a pid at once, errors thrown) by waiting on the PTY thread's answer,
 * as node-pty's own spawn waits for the fork.
 *
 * The PTY thread must not be torn down while node-pty may still report an exit on it: node-pty
 * calls into the thread's JavaScript from its wait thread, and during a teardown that call aborts
 * the whole process. So the thread catches its own errors, and before the process exits (and
 * before `dispose` stops the thread) the PTYs still live are ended and their exits awaited,
 * briefly and synchronously: at exit each gets the hangup the teardown would give it (SIGHUP to
 * its process group, as when its master closes), `dispose` kills them. After a clean stop there
 * are none; after a fatal error every tree was just killed, and the exits follow within
 * node-pty's 200 ms drain. If the thread dies anyway, every PTY it held reports an exit
 * (`isHostLost`) and the next spawn starts a new thread.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { LIVE_PTYS, SPAWN_ANSWERED, type FromPtyThread, type PtySpawnReply, type PtySpawnRequest, type ToPtyThread } from './ptyProtocol';
import { startWorkerThread } from './workerThread';

/** The PTY thread answers a spawn within this (its own start included, tsx-compiled under tests). */
const SPAWN_ANSWER_TIMEOUT_MS = 30_000;
/** Longest wait at exit for live PTYs' exits (killed trees report theirs within node-pty's 200 ms drain). */
const EXIT_DRAIN_TIMEOUT_MS = 1_000;

export interface PtyExit {
  exitCode: number;
  signal: number;
  /** The PTY thread died: the program may still run (its entry stops its tree). */
  isHostLost?: boolean;
}

interface PtyEvents {
  /** Output in read order; the bytes are valid during the call only. */
  onData(data: Buffer): void;
  /** Once, after the last output. */
  onExit(exit: PtyExit): void;
}

export type PtySpawnOptions = PtySpawnRequest['options'];

/** The main thread's handle on a PTY the PTY thread owns. */
export interface HostedPty {
  readonly pid: number;
  /** `isTyped`: input from a person or an agent, which gives this PTY priority (inputPriority.ts). */
  write(data: string, isTyped: boolean): void;
  resize(cols: number, rows: number): void;
  /** Whether the PTY is read (flow control, the output budget); output already read still arrives. */
  setReading(isWanted: boolean): void;
}

interface Live {
  readonly pid: number;
  readonly events: PtyEvents;
  isWanted: boolean;
}

interface Thread {
  readonly worker: Worker;
  readonly spawnPort: MessagePort;
  /** Shared with the thread: SPAWN_ANSWERED and LIVE_PTYS. */
  readonly flags: Int32Array;
}

/** What an entry needs of its PTY host: the shared PTY thread, or a fake in unit tests. */
export type PtySpawner = Pick<PtyHost, 'spawn'>;

export class PtyHost {
  private thread: Thread | undefined;
  private readonly live = new Map<number, Live>();
  private nextPtyId = 1;
  private isDisposed = false;
  private readonly drainBeforeExit = () => this.endAll('SIGHUP');

  constructor() {
    process.on('exit', this.drainBeforeExit);
  }

  /** Spawns on the PTY thread; throws what node-pty threw there. */
  spawn(file: string, args: string[], options: PtySpawnOptions, events: PtyEvents): HostedPty {
    if (this.isDisposed) throw new Error('The PTY host was disposed');
    const thread = this.ensureThread();
    const ptyId = this.nextPtyId++;
    Atomics.store(thread.flags, SPAWN_ANSWERED, 0);
    this.send({ type: 'spawn', ptyId, file, args, options });
    const reply = awaitSpawnReply(thread, ptyId);
    if ('error' in reply) throw new Error(reply.error);
    const live: Live = { pid: reply.pid, events, isWanted: true };
    this.live.set(ptyId, live);
    this.applyRef();
    return {
      pid: reply.pid,
      write: (data, isTyped) => this.send({ type: 'write', ptyId, data, isTyped }),
      resize: (cols, rows) => this.send({ type: 'resize', ptyId, cols, rows }),
      setReading: (isWanted) => {
        if (live.isWanted === isWanted) return;
        live.isWanted = isWanted;
        this.send({ type: 'reading', ptyId, isWanted });
      },
    };
  }

  /** The PTY thread, if started (tests). */
  get worker(): Worker | undefined {
    return this.thread?.worker;
  }

  /** Stops the thread; PTYs still live are killed first and their exits awaited (see the top). */
  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    process.off('exit', this.drainBeforeExit);
    this.endAll('SIGKILL');
    const worker = this.thread?.worker;
    this.thread = undefined;
    void worker?.terminate();
  }

  /**
   * Signals every live PTY's process group, then blocks until the thread holds none or
   * EXIT_DRAIN_TIMEOUT_MS passed: the last thing before the process exits (see the top).
   */
  endAll(signal: NodeJS.Signals): void {
    const flags = this.thread?.flags;
    if (!flags || Atomics.load(flags, LIVE_PTYS) === 0) return;
    for (const live of this.live.values()) signalGroup(live.pid, signal);
    const deadline = Date.now() + EXIT_DRAIN_TIMEOUT_MS;
    for (let live = Atomics.load(flags, LIVE_PTYS); live > 0; live = Atomics.load(flags, LIVE_PTYS)) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      waitForChange(flags, LIVE_PTYS, live, left);
    }
  }

  private ensureThread(): Thread {
    if (this.thread) return this.thread;
    const { port1, port2 } = new MessageChannel();
    const flags = new Int32Array(new SharedArrayBuffer(8));
    const worker = startWorkerThread('ptyWorker', {
      workerData: { spawnPort: port2, flags: flags.buffer },
      transferList: [port2],
    });
    const thread: Thread = { worker, spawnPort: port1, flags };
    this.thread = thread;
    worker.on('message', (message: FromPtyThread) => this.route(message));
    worker.on('error', (err) => console.error(`The PTY thread failed: ${err.message}`));
    worker.on('exit', () => this.handleThreadExit(thread));
    this.applyRef();
    return thread;
  }

  private route(message: FromPtyThread): void {
    const live = this.live.get(message.ptyId);
    if (message.type === 'exit') {
      this.live.delete(message.ptyId);
      this.applyRef();
      live?.events.onExit({ exitCode: message.exitCode, signal: message.signal });
      return;
    }
    try {
      live?.events.onData(Buffer.from(message.buffer, 0, message.length));
    } finally {
      // The bytes were taken in (copied into the ring): the buffer goes back to be filled again.
      this.send({ type: 'taken', ptyId: message.ptyId, buffer: message.buffer }, [message.buffer]);
    }
  }

  private handleThreadExit(thread: Thread): void {
    if (this.thread !== thread) return;
    this.thread = undefined;
    thread.spawnPort.close();
    const lost = [...this.live.values()];
    this.live.clear();
    for (const live of lost) live.events.onExit({ exitCode: -1, signal: 0, isHostLost: true });
  }

  private send(message: ToPtyThread, transfer: ArrayBuffer[] = []): void {
    this.thread?.worker.postMessage(message, transfer);
  }

  /** The thread keeps the process alive while it holds a PTY, as node-pty's socket did. */
  private applyRef(): void {
    if (this.live.size > 0) this.thread?.worker.ref();
    else this.thread?.worker.unref();
  }
}

/** Waits for the PTY thread's answer to spawn `ptyId` (an answer to an earlier, timed-out spawn is dropped). */
function awaitSpawnReply(thread: Thread, ptyId: number): PtySpawnReply {
  const deadline = Date.now() + SPAWN_ANSWER_TIMEOUT_MS;
  for (;;) {
    const received: { message: PtySpawnReply } | undefined = receiveMessageOnPort(thread.spawnPort);
    if (received?.message.ptyId === ptyId) return received.message;
    if (received) {
      if ('pid' in received.message) killQuietly(received.message.pid);
      Atomics.store(thread.flags, SPAWN_ANSWERED, 0);
      continue;
    }
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`The PTY thread did not answer within ${SPAWN_ANSWER_TIMEOUT_MS / 1000} s`);
    waitForChange(thread.flags, SPAWN_ANSWERED, 0, left);
  }
}

/** Sleeps while `flags[slot]` is `value`, at most `timeoutMs`; where the host forbids blocking waits, returns (the caller polls). */
function waitForChange(flags: Int32Array, slot: number, value: number, timeoutMs: number): void {
  try {
    Atomics.wait(flags, slot, value, timeoutMs);
  } catch {
    // Atomics.wait is not allowed on this thread: the caller's loop polls instead.
  }
}

/** A PTY's program leads its own session and process group (node-pty's setsid). */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    killQuietly(pid, signal);
  }
}

function killQuietly(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

let sharedHost: PtyHost | undefined;

/** The process's one PTY thread, started at the first spawn. */
export function sharedPtyHost(): PtyHost {
  sharedHost ??= new PtyHost();
  return sharedHost;
}

/** Kills what the process's PTY thread still holds and waits for the exits: before a fatal exit. */
export function endSharedPtys(): void {
  sharedHost?.endAll('SIGKILL');
}
