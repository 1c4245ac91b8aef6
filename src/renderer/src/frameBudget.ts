/**
 * Shares the page's frames among panes that are not being typed into: each animation frame lets
 * at most `perFrame` of them write, oldest turn first. With ten (or thirty) panes flooding, the
 * redraw work per frame stays that of `perFrame` panes, so the main thread keeps time for the
 * echo of a keystroke; the more panes flood, or the slower the frames, the rarer each one's turn.
 */

type RequestFrame = (callback: () => void) => () => void;

/** The next animation frame; returns a cancel. */
export const animationFrame: RequestFrame = (callback) => {
  const handle = requestAnimationFrame(() => callback());
  return () => cancelAnimationFrame(handle);
};

export class FrameBudget {
  private readonly waiting: Array<() => void> = [];
  private cancelFrame: (() => void) | undefined;

  constructor(
    private readonly perFrame: number,
    private readonly requestFrame: RequestFrame = animationFrame,
  ) {}

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
      for (const turn of this.waiting.splice(0, this.perFrame)) turn();
      if (this.waiting.length > 0) this.scheduleFrame();
    });
  }
}
