/**
 * Feeds one terminal its output without letting a flood take the page's main thread. Writing
 * every arriving batch straight into xterm queued up to the flow-control window (100 kB) per pane
 * in xterm's own write buffer, which parses it in 12 ms bursts per terminal: ten flooding panes
 * made every frame, and every keystroke's echo in another pane, wait behind a second of parsing.
 *
 * Here a pane has at most one slice in xterm at a time and writes its next slice only on the next
 * animation frame once xterm's write callback said the previous one was parsed (VS Code paces its
 * terminals the same way). A pane with nothing pending writes at once, so an echo in a quiet pane
 * is parsed in the same task it arrived in. Bytes leave in the order they came, never merged or
 * dropped; the callback reports parsed bytes for flow-control acknowledgements.
 *
 * Only the pane the person types into is paced per frame. Every other pane with a backlog writes
 * its next slice no sooner than BACKGROUND_SLICE_INTERVAL_MS later, and then only when the shared
 * frame budget gives it a turn (BACKGROUND_WRITES_PER_FRAME panes a frame): each write of a
 * scrolling terminal redraws all its rows, and ten panes redrawn every frame left the main thread
 * no time for the echo of a keystroke (its frame queued behind them in the page's task queue).
 */
import { animationFrame, FrameBudget } from './frameBudget';

/** Most bytes a pane hands xterm per write: ten flooding panes then parse well inside a 16 ms frame. */
export const FRAME_SLICE_BYTES = 16 * 1024;

/** How often a pane nobody types into takes its next slice while it has a backlog (10 redraws a second). */
const BACKGROUND_SLICE_INTERVAL_MS = 100;

/** Background panes that may write in one frame, whatever the number flooding. */
const BACKGROUND_WRITES_PER_FRAME = 2;

/** `interactive`: the pane has the keyboard, its output is drawn every frame; `background`: at most every BACKGROUND_SLICE_INTERVAL_MS. */
export type Pace = 'interactive' | 'background';

interface PacedTarget {
  write(data: Uint8Array, parsed: () => void): void;
}

/** Where a keystroke's echo is awaited: the frames the background panes share (frameBudget.ts). */
interface EchoHold {
  holdForEcho(): void;
  echoWritten(): void;
}

/** Runs `callback` at the pane's next turn (the next frame, or later for a background pane); returns a cancel. */
type TurnScheduler = (callback: () => void, pace: Pace) => () => void;

const nextTurn: TurnScheduler = (callback, pace) => {
  if (pace === 'interactive') return animationFrame(callback);
  let withdraw: (() => void) | undefined;
  const timer = window.setTimeout(() => (withdraw = backgroundFrames.enqueue(callback)), BACKGROUND_SLICE_INTERVAL_MS);
  return () => {
    window.clearTimeout(timer);
    withdraw?.();
  };
};

const backgroundFrames = new FrameBudget(BACKGROUND_WRITES_PER_FRAME);

export class PacedWriter {
  private readonly queue: Uint8Array[] = [];
  private isWriting = false;
  private cancelFrame: (() => void) | undefined;
  private generation = 0;
  private currentPace: Pace = 'background';
  private isEchoAwaited = false;

  constructor(
    private readonly target: PacedTarget,
    private readonly onParsed: (bytes: number) => void,
    private readonly scheduleTurn: TurnScheduler = nextTurn,
    private readonly echoHold: EchoHold = backgroundFrames,
  ) {}

  /** A key typed into this pane: while it has the keyboard, background panes wait until its echo is drawn. */
  keyTyped(): void {
    if (this.currentPace !== 'interactive') return;
    this.isEchoAwaited = true;
    this.echoHold.holdForEcho();
  }

  get pace(): Pace {
    return this.currentPace;
  }

  /** A pane that takes the keyboard catches up from the next frame on, not at its background turn. */
  set pace(pace: Pace) {
    if (pace === this.currentPace) return;
    this.currentPace = pace;
    if (!this.cancelFrame) return;
    this.cancelFrame();
    this.cancelFrame = undefined;
    this.scheduleNextSlice();
  }

  /** Bytes still waiting for their turn (not yet handed to xterm). */
  get pendingBytes(): number {
    let total = 0;
    for (const chunk of this.queue) total += chunk.byteLength;
    return total;
  }

  write(data: Uint8Array): void {
    if (data.byteLength === 0) return;
    this.queue.push(data);
    if (!this.isWriting && !this.cancelFrame) this.writeSlice();
  }

  /** Forget what has not been written yet (the terminal is reset to a snapshot that already holds it). */
  clear(): void {
    this.queue.length = 0;
    this.cancelFrame?.();
    this.cancelFrame = undefined;
    this.isWriting = false;
    this.generation += 1; // a callback of a slice written before the reset must not start the next one
  }

  dispose(): void {
    this.clear();
  }

  private writeSlice(): void {
    const slice = this.takeSlice();
    if (!slice) return;
    this.isWriting = true;
    const generation = this.generation;
    this.target.write(slice, () => {
      this.onParsed(slice.byteLength);
      if (this.isEchoAwaited) {
        this.isEchoAwaited = false;
        this.echoHold.echoWritten();
      }
      if (generation !== this.generation) return;
      this.isWriting = false;
      if (this.queue.length > 0) this.scheduleNextSlice();
    });
  }

  private scheduleNextSlice(): void {
    if (this.cancelFrame) return;
    this.cancelFrame = this.scheduleTurn(() => {
      this.cancelFrame = undefined;
      if (!this.isWriting) this.writeSlice();
    }, this.currentPace);
  }

  /** Up to FRAME_SLICE_BYTES from the front of the queue, as one array. */
  private takeSlice(): Uint8Array | undefined {
    const first = this.queue[0];
    if (!first) return undefined;
    if (first.byteLength >= FRAME_SLICE_BYTES) {
      if (first.byteLength === FRAME_SLICE_BYTES) return this.queue.shift();
      this.queue[0] = first.subarray(FRAME_SLICE_BYTES);
      return first.subarray(0, FRAME_SLICE_BYTES);
    }
    let size = 0;
    let count = 0;
    while (count < this.queue.length && size + this.queue[count].byteLength <= FRAME_SLICE_BYTES) size += this.queue[count++].byteLength;
    if (count === 1) return this.queue.shift();
    const slice = new Uint8Array(size);
    let at = 0;
    for (const chunk of this.queue.splice(0, count)) {
      slice.set(chunk, at);
      at += chunk.byteLength;
    }
    return slice;
  }
}
