/**
 * The headless screens run on a few worker threads, not on the main thread (in the desktop app,
 * Electron's main process: a parse spike there is a frozen window). The PTYs stay here; each
 * entry's bytes are copied into one buffer per worker and event-loop turn and transferred, the
 * worker parses them (`screenHost.ts`) and posts back what the detectors read synchronously.
 *
 * A worker that dies is started again and each of its screens rebuilt from its entry's ring
 * (`RemoteScreen.reopen`); queries sent meanwhile are sent again, so they wait instead of failing.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { Emitter, type Event } from '../base';
import { RemoteScreen, type ReplaySource, type ScreenChannel } from './remoteScreen';
import type { FromWorker, ScreenOptions, ToWorker, WriteItem } from './screenProtocol';
import { startWorkerThread } from './workerThread';

/**
 * Upper bound of the pool. Each screen parses within its own CPU budget (screenModel.ts), so a
 * worker rarely needs a whole core; more workers would mostly add their fixed memory.
 */
export const SCREEN_WORKERS_MAX = 4;
/** A worker that dies sooner than this after its start is crash-looping: its restarts back off. */
const CRASH_LOOP_MS = 5_000;
const RESTART_BACKOFF_MAX_MS = 5_000;
/**
 * V8's young generation in a worker: its default let every idle terminal entry cost ~330 KB of RSS
 * (the worker touching fresh pages as screens open) against ~160 KB when the screens lived on the
 * main thread; 4 MB brings it to ~200 KB (`npm run bench -- sessions`), at the price of more
 * frequent, shorter scavenges.
 */
const SCREEN_WORKER_YOUNG_GENERATION_MB = 4;
/** Staged bytes past this go to the worker at once instead of at the end of the turn. */
const STAGING_MAX_BYTES = 1024 * 1024;

/** One core stays with the main thread (detectors, viewers) and the PTY thread (reads); the rest parse screens. */
export function defaultScreenWorkers(cores = availableParallelism()): number {
  return Math.min(SCREEN_WORKERS_MAX, Math.max(1, cores - 1));
}

/**
 * Bytes for the screens of one worker, gathered during one turn, sent as one transferred buffer of
 * exactly their size (a turn usually holds one write: its copy is sent as it is).
 */
class WriteStaging {
  private copies: Uint8Array[] = [];
  private used = 0;
  private items: WriteItem[] = [];

  get size(): number {
    return this.used;
  }

  add(screenId: number, data: Uint8Array, end: number, skipped: number): void {
    this.copies.push(new Uint8Array(data)); // the caller's buffer may be reused (PTY reads, batch slabs)
    this.used += data.length;
    const last = this.items[this.items.length - 1];
    if (last?.screenId === screenId && skipped === 0) {
      last.length += data.length;
      last.end = end;
    } else {
      this.items.push({ screenId, length: data.length, end, skipped });
    }
  }

  take(): { items: WriteItem[]; buffer: ArrayBuffer } | undefined {
    if (this.items.length === 0) return undefined;
    const taken = { items: this.items, buffer: this.joined().buffer as ArrayBuffer };
    this.clear();
    return taken;
  }

  clear(): void {
    this.copies = [];
    this.used = 0;
    this.items = [];
  }

  private joined(): Uint8Array {
    if (this.copies.length === 1) return this.copies[0];
    const joined = new Uint8Array(this.used);
    let at = 0;
    for (const copy of this.copies) {
      joined.set(copy, at);
      at += copy.length;
    }
    return joined;
  }
}

interface Slot {
  index: number;
  worker: Worker | undefined;
  readonly screens: Set<RemoteScreen>;
  readonly staging: WriteStaging;
  startedAt: number;
  restartDelayMs: number;
}

export class ScreenWorkerPool implements ScreenChannel {
  private readonly slots: Slot[] = [];
  private readonly slotOf = new Map<RemoteScreen, Slot>();
  private readonly screens = new Map<number, RemoteScreen>();
  private nextScreenId = 1;
  private heldQueries = 0;
  private isFlushScheduled = false;
  private isDisposed = false;

  private readonly restarted = new Emitter<number>();
  /** A worker died and was started again (its index); its screens are being rebuilt. */
  readonly onDidRestartWorker: Event<number> = this.restarted.event;

  constructor(readonly size = defaultScreenWorkers()) {}

  /** A screen on the least busy worker; `replay` gives the bytes to rebuild it from if that worker dies. */
  open(options: ScreenOptions, replay?: ReplaySource): RemoteScreen {
    const slot = this.pickSlot();
    const screen = new RemoteScreen(this.nextScreenId++, { ...options }, this, replay);
    slot.screens.add(screen);
    this.slotOf.set(screen, slot);
    this.screens.set(screen.id, screen);
    screen.reopen();
    return screen;
  }

  /** The worker threads started so far (tests and diagnostics). */
  get workers(): readonly (Worker | undefined)[] {
    return this.slots.map((slot) => slot.worker);
  }

  send(screen: RemoteScreen, message: ToWorker, transfer: ArrayBuffer[] = []): void {
    const slot = this.slotOf.get(screen);
    if (!slot) return;
    this.flushSlot(slot); // bytes staged before this message must reach the screen before it
    // No worker (a crash-looping one waits to restart): the screen is rebuilt and its queries re-sent then.
    slot.worker?.postMessage(message, transfer);
  }

  stage(screen: RemoteScreen, data: Uint8Array, end: number, skipped: number): void {
    const slot = this.slotOf.get(screen);
    if (!slot) return;
    slot.staging.add(screen.id, data, end, skipped);
    if (slot.staging.size >= STAGING_MAX_BYTES) this.flushSlot(slot);
    else this.scheduleFlush();
  }

  holdAlive(isHeld: boolean): void {
    const wasHeld = this.heldQueries > 0;
    this.heldQueries += isHeld ? 1 : -1;
    if (wasHeld !== this.heldQueries > 0) for (const slot of this.slots) this.applyRef(slot);
  }

  release(screen: RemoteScreen): void {
    const slot = this.slotOf.get(screen);
    slot?.screens.delete(screen);
    this.slotOf.delete(screen);
    this.screens.delete(screen.id);
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    for (const screen of [...this.screens.values()]) screen.dispose();
    for (const slot of this.slots) void slot.worker?.terminate();
    this.restarted.dispose();
  }

  private pickSlot(): Slot {
    const idle = this.slots.find((slot) => slot.screens.size === 0);
    if (idle) return idle;
    if (this.slots.length < this.size) return this.startSlot();
    return this.slots.reduce((least, slot) => (slot.screens.size < least.screens.size ? slot : least));
  }

  private startSlot(): Slot {
    const slot: Slot = {
      index: this.slots.length,
      worker: undefined,
      screens: new Set(),
      staging: new WriteStaging(),
      startedAt: 0,
      restartDelayMs: 0,
    };
    this.slots.push(slot);
    this.startWorker(slot);
    return slot;
  }

  private startWorker(slot: Slot): void {
    const worker = startWorkerThread('screenWorker', {
      resourceLimits: { maxYoungGenerationSizeMb: SCREEN_WORKER_YOUNG_GENERATION_MB },
    });
    slot.worker = worker;
    slot.startedAt = performance.now();
    this.applyRef(slot);
    worker.on('message', (message: FromWorker) => this.route(message));
    worker.on('error', (err) => console.error(`Screen worker ${slot.index} failed: ${err.message}`));
    worker.on('exit', () => this.handleExit(slot, worker));
  }

  private handleExit(slot: Slot, worker: Worker): void {
    if (this.isDisposed || slot.worker !== worker) return;
    slot.worker = undefined;
    const livedMs = performance.now() - slot.startedAt;
    slot.restartDelayMs = livedMs < CRASH_LOOP_MS ? Math.min(RESTART_BACKOFF_MAX_MS, Math.max(100, slot.restartDelayMs * 2)) : 0;
    if (slot.restartDelayMs === 0) this.restart(slot);
    else setTimeout(() => this.restart(slot), slot.restartDelayMs).unref();
  }

  private restart(slot: Slot): void {
    if (this.isDisposed) return;
    // What was staged for the dead worker is in the rings: each screen replays up to its last write.
    slot.staging.clear();
    this.startWorker(slot);
    for (const screen of slot.screens) screen.reopen();
    this.restarted.fire(slot.index);
  }

  /** Workers do not keep the process alive, except while a query waits for their answer. */
  private applyRef(slot: Slot): void {
    if (this.heldQueries > 0) slot.worker?.ref();
    else slot.worker?.unref();
  }

  private route(message: FromWorker): void {
    const screen = this.screens.get(message.screenId);
    if (!screen) return;
    if (message.type === 'state') screen.applyState(message.state);
    else if (message.type === 'reply') screen.applyReply(message.data);
    else screen.applyResult(message.requestId, message.value);
  }

  private scheduleFlush(): void {
    if (this.isFlushScheduled) return;
    this.isFlushScheduled = true;
    setImmediate(() => {
      this.isFlushScheduled = false;
      for (const slot of this.slots) this.flushSlot(slot);
    });
  }

  private flushSlot(slot: Slot): void {
    if (!slot.worker) return; // kept until the restart, which replaces it with the rings' bytes
    const taken = slot.staging.take();
    if (taken) slot.worker.postMessage({ type: 'write', ...taken } satisfies ToWorker, [taken.buffer]);
  }
}

let sharedPool: ScreenWorkerPool | undefined;

/** The process's one pool, started at the first screen. */
export function sharedScreenPool(): ScreenWorkerPool {
  sharedPool ??= new ScreenWorkerPool();
  return sharedPool;
}
