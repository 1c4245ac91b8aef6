/**
 * The PTY thread's side of the PTY protocol: spawns the PTYs, reads them on this thread's event
 * loop and sends their output to the main thread in data messages, one at a time per PTY. While
 * the main thread has a PTY's message, further reads are held here and go out together when it
 * hands the buffer back; past HELD_MAX_BYTES the PTY is not read until then (the kernel makes the
 * program wait), so a main thread that falls behind slows the program instead of filling memory.
 * Input priority is applied here, where the reads are: a hold stops the very next read.
 */
import * as pty from 'node-pty';
import { closeSync, constants as fsConstants, openSync } from 'node:fs';
import { InputPriority, type PriorityClient } from './inputPriority';
import type { FromPtyThread, PtySpawnReply, PtySpawnRequest, ToPtyThread } from './ptyProtocol';

/**
 * Held bytes past which a PTY is not read until the main thread takes its message. Also bounds
 * what flow control lets through after it asked for a pause (the held bytes and one message).
 */
const HELD_MAX_BYTES = 128 * 1024;
/**
 * During a flood (FLOOD_BYTES read within MERGE_MS: more than two full reads of the kernel's tty
 * buffer) reads are merged for up to MERGE_MS or MERGE_BYTES instead of a message each, which
 * cost this thread and the main thread as much as the read. Anything less (an echo, a prompt, a
 * log line, an agent's redraw) goes at once.
 */
const MERGE_MS = 2;
const MERGE_BYTES = 32 * 1024;
const FLOOD_BYTES = 8 * 1024;
/** A PTY's first data buffer; it grows (powers of two) to what a flood holds, then is reused. */
const MIN_BUFFER_BYTES = 4 * 1024;

interface ThreadPty {
  readonly id: number;
  readonly proc: pty.IPty;
  readonly held: Buffer[];
  heldBytes: number;
  /** A data message is with the main thread. */
  isOut: boolean;
  /** The buffer the main thread handed back, filled by the next message. */
  spare: ArrayBuffer | undefined;
  /** Bytes read since `windowAt`, a window of MERGE_MS. */
  windowBytes: number;
  windowAt: number;
  /** The window before this one, just before it, was a flood: a flood goes on across windows. */
  wasFlood: boolean;
  mergeTimer: NodeJS.Timeout | undefined;
  isWanted: boolean;
  isHeldForInput: boolean;
  isRead: boolean;
  readonly priorityClient: PriorityClient;
}

export class PtyThread {
  private readonly ptys = new Map<number, ThreadPty>();

  constructor(
    private readonly post: (message: FromPtyThread, transfer?: ArrayBuffer[]) => void,
    private readonly reply: (reply: PtySpawnReply) => void,
    /** How many PTYs this thread holds, after each spawn and exit. */
    private readonly countLive: (live: number) => void = () => undefined,
    /** Every PTY of the process is on this thread, so one instance sees all the typing and all the reads. */
    private readonly inputPriority = new InputPriority(),
  ) {}

  handle(message: ToPtyThread): void {
    switch (message.type) {
      case 'spawn':
        return this.reply(this.spawn(message));
      case 'write':
        return this.withPty(message.ptyId, (hosted) => {
          if (message.isTyped) this.inputPriority.typed(hosted.priorityClient);
          hosted.proc.write(message.data);
        });
      case 'resize':
        return this.withPty(message.ptyId, (hosted) => hosted.proc.resize(message.cols, message.rows));
      case 'reading':
        return this.withPty(message.ptyId, (hosted) => {
          hosted.isWanted = message.isWanted;
          this.applyReading(hosted);
        });
      case 'taken':
        return this.withPty(message.ptyId, (hosted) => {
          hosted.isOut = false;
          hosted.spare = message.buffer;
          this.sendOrMerge(hosted);
          this.applyReading(hosted);
        });
    }
  }

  private spawn(request: PtySpawnRequest): PtySpawnReply {
    let proc: pty.IPty;
    try {
      proc = pty.spawn(request.file, request.args, { ...request.options, encoding: null });
    } catch (err) {
      return { ptyId: request.ptyId, error: err instanceof Error ? err.message : String(err) };
    }
    const slaveFd = holdSlaveOpen(proc);
    const hosted: ThreadPty = {
      id: request.ptyId,
      proc,
      held: [],
      heldBytes: 0,
      isOut: false,
      spare: undefined,
      windowBytes: 0,
      windowAt: -Infinity,
      wasFlood: false,
      mergeTimer: undefined,
      isWanted: true,
      isHeldForInput: false,
      isRead: true,
      priorityClient: {
        setHeld: (isHeld) => {
          hosted.isHeldForInput = isHeld;
          this.applyReading(hosted);
        },
      },
    };
    this.ptys.set(hosted.id, hosted);
    this.countLive(this.ptys.size);
    const dataSub = proc.onData((data) => this.read(hosted, data as unknown as Buffer));
    const exitSub = proc.onExit(({ exitCode, signal }) => {
      dataSub.dispose();
      exitSub.dispose();
      if (slaveFd !== undefined) closeSync(slaveFd);
      this.ptys.delete(hosted.id);
      this.inputPriority.forget(hosted.priorityClient);
      clearTimeout(hosted.mergeTimer);
      if (hosted.heldBytes > 0) this.sendHeld(hosted); // messages keep their order: the data comes first
      this.post({ type: 'exit', ptyId: hosted.id, exitCode, signal: signal ?? 0 });
      this.countLive(this.ptys.size);
    });
    return { ptyId: hosted.id, pid: proc.pid };
  }

  private read(hosted: ThreadPty, data: Buffer): void {
    hosted.held.push(data);
    hosted.heldBytes += data.length;
    const now = performance.now();
    if (now - hosted.windowAt >= MERGE_MS) {
      hosted.wasFlood = now - hosted.windowAt < 2 * MERGE_MS && hosted.windowBytes >= FLOOD_BYTES;
      hosted.windowAt = now;
      hosted.windowBytes = 0;
    }
    hosted.windowBytes += data.length;
    this.inputPriority.read(hosted.priorityClient, data.length);
    if (!hosted.isOut) this.sendOrMerge(hosted);
    else if (hosted.heldBytes >= HELD_MAX_BYTES) this.applyReading(hosted);
  }

  /** Sends what is held now, or during a flood once MERGE_BYTES are held or MERGE_MS passed. */
  private sendOrMerge(hosted: ThreadPty): void {
    if (hosted.heldBytes === 0 || hosted.isOut) return;
    const isFlood = performance.now() - hosted.windowAt < MERGE_MS && (hosted.wasFlood || hosted.windowBytes >= FLOOD_BYTES);
    if (!isFlood || hosted.heldBytes >= MERGE_BYTES) this.sendHeld(hosted);
    else hosted.mergeTimer ??= setTimeout(() => this.sendMerged(hosted), MERGE_MS);
  }

  private sendMerged(hosted: ThreadPty): void {
    hosted.mergeTimer = undefined;
    if (hosted.heldBytes > 0 && !hosted.isOut) this.sendHeld(hosted);
  }

  /** Everything held, in one message (into the buffer the main thread handed back when it fits). */
  private sendHeld(hosted: ThreadPty): void {
    const length = hosted.heldBytes;
    let buffer = hosted.spare;
    if (!buffer || buffer.byteLength < length) buffer = new ArrayBuffer(bufferSizeFor(length));
    hosted.spare = undefined;
    const bytes = new Uint8Array(buffer);
    let at = 0;
    for (const chunk of hosted.held) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    hosted.held.length = 0;
    hosted.heldBytes = 0;
    hosted.isOut = true;
    this.post({ type: 'data', ptyId: hosted.id, buffer, length }, [buffer]);
  }

  private applyReading(hosted: ThreadPty): void {
    const shouldRead = hosted.isWanted && !hosted.isHeldForInput && hosted.heldBytes < HELD_MAX_BYTES;
    if (shouldRead === hosted.isRead) return;
    hosted.isRead = shouldRead;
    if (shouldRead) hosted.proc.resume();
    else hosted.proc.pause();
  }

  /** Messages for a PTY that exited meanwhile are dropped; a write to a closing PTY is lost as it would be in-process. */
  private withPty(ptyId: number, act: (hosted: ThreadPty) => void): void {
    const hosted = this.ptys.get(ptyId);
    if (!hosted) return;
    try {
      act(hosted);
    } catch {
      // node-pty throws on a write or resize racing the exit: the exit message follows.
    }
  }
}

/**
 * Linux drops output still in flight when the last slave fd closes, so a program that prints and
 * exits at once loses its tail (node-pty #85, #726) — exactly the crash lines a user needs.
 * Holding a slave fd keeps the tty alive; node-pty then drains the master until its socket is
 * destroyed 200 ms after the child's exit (DESTROY_SOCKET_TIMEOUT_MS), and the fd is closed at
 * the exit.
 */
function holdSlaveOpen(proc: pty.IPty): number | undefined {
  const ptsName = (proc as unknown as { ptsName?: string }).ptsName;
  if (process.platform === 'win32' || !ptsName) return undefined;
  try {
    return openSync(ptsName, fsConstants.O_RDWR | fsConstants.O_NOCTTY);
  } catch {
    return undefined; // not fatal: we only lose the guarantee for the last bytes
  }
}

function bufferSizeFor(length: number): number {
  let size = MIN_BUFFER_BYTES;
  while (size < length) size *= 2;
  return size;
}
