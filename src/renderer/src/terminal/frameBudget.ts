/**
 * Shares the page's frames among panes that are not being typed into: each animation frame lets
 * at most `perFrame` of them write, oldest turn first. With ten (or thirty) panes flooding, the
 * redraw work per frame stays that of `perFrame` panes, so the main thread keeps time for the
 * echo of a keystroke; the more panes flood, or the slower the frames, the rarer each one's turn.
 *
 * A keystroke holds every turn until the frame after its echo was written, so the frame that
 * draws the echo draws the focused pane alone; an echo that does not come within ECHO_HOLD_MS
 * (a program that does not echo) holds them no longer.
 */

type RequestFrame = (callback: () => void) => () => void;

/** Longest a keystroke holds the background turns while its echo is awaited (an echo takes a few frames). */
export const ECHO_HOLD_MS = 100;

/** The next animation frame; returns a cancel. */
export const animationFrame: RequestFrame = (callback) => {
  const handle = requestAnimationFrame(() => callback());
  return () => cancelAnimationFrame(handle);
};

export class FrameBudget {
  private readonly waiting: Array<() => void> = [];
  private cancelFrame: (() => void) | undefined;
  private heldUntil = -Infinity;
  private isEchoWritten = false;

  constructor(
    private readonly perFrame: number,
    private readonly requestFrame: RequestFrame = animationFrame,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A key was typed into the focused pane: no turns until its echo was drawn (or ECHO_HOLD_MS passed). */
  holdForEcho(): void {
    this.heldUntil = this.now() + ECHO_HOLD_MS;
    this.isEchoWritten = false;
  }

  /** The focused pane's terminal took the echo: xterm draws it next frame, turns run again the frame after. */
  echoWritten(): void {
    if (this.now() < this.heldUntil) this.isEchoWritten = true;
  }

  /** Run `turn` in one of the next frames; the returned function withdraws it. */
  enqueue(turn: () => void): () => void {
    this.waiting.push(turn);
    this.scheduleFrame();
    return () => {
      const at = this.waiting.indexOf(turn);
      if (at >= 0) this.waiting.splice(at, 1);
    };
  }

  private scheduleFrame(): void {
    if (this.cancelFrame) return;
    this.cancelFrame = this.requestFrame(() => {
      this.cancelFrame = undefined;
      if (!this.isHeld()) for (const turn of this.waiting.splice(0, this.perFrame)) turn();
      if (this.waiting.length > 0) this.scheduleFrame();
    });
  }

  /** This frame belongs to the echo: true while it is awaited, and once more in the frame that draws it. */
  private isHeld(): boolean {
    if (this.now() >= this.heldUntil) return false;
    if (this.isEchoWritten) this.heldUntil = -Infinity;
    return true;
  }
}
