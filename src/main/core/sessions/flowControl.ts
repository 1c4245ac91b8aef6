/**
 * Flow control as VS Code's terminal does it (FlowControlConstants): every viewer acknowledges
 * the characters its terminal has parsed; the PTY pauses while any viewer is far behind.
 */
import { Emitter, type Event } from '../base/lifecycle';

/** Pause the PTY once a viewer has this many unacknowledged chars (VS Code: 100k). */
export const HIGH_WATERMARK_CHARS = 100_000;
/** Resume once every viewer is below this (VS Code: 5k). */
export const LOW_WATERMARK_CHARS = 5_000;
/**
 * Viewers acknowledge in chunks of this size. Must stay ≤ LOW_WATERMARK_CHARS: otherwise a
 * viewer could hold < ACK_CHUNK_CHARS unacknowledged forever above the low watermark and the
 * PTY would never resume.
 */
export const ACK_CHUNK_CHARS = 5_000;

export class FlowController {
  private readonly backlog = new Map<string, number>();
  private paused = false;
  private readonly pausedChanged = new Emitter<boolean>();
  readonly onDidChangePaused: Event<boolean> = this.pausedChanged.event;

  get isPaused(): boolean {
    return this.paused;
  }

  /** Record chars sent to a viewer. */
  sent(viewer: string, chars: number): void {
    this.backlog.set(viewer, (this.backlog.get(viewer) ?? 0) + chars);
    this.update();
  }

  /** A viewer's terminal parsed `chars` more. */
  ack(viewer: string, chars: number): void {
    const current = this.backlog.get(viewer);
    if (current === undefined) return;
    this.backlog.set(viewer, Math.max(0, current - chars));
    this.update();
  }

  /** A viewer went away (closed pane, dropped connection): it must not hold the PTY. */
  removeViewer(viewer: string): void {
    if (this.backlog.delete(viewer)) this.update();
  }

  /** Forget all backlogs (new run: the old run's data is no longer pending anywhere that matters). */
  reset(): void {
    for (const viewer of this.backlog.keys()) this.backlog.set(viewer, 0);
    this.update();
  }

  private update(): void {
    let max = 0;
    for (const chars of this.backlog.values()) max = Math.max(max, chars);
    if (!this.paused && max > HIGH_WATERMARK_CHARS) this.setPaused(true);
    else if (this.paused && max < LOW_WATERMARK_CHARS) this.setPaused(false);
  }

  private setPaused(paused: boolean): void {
    this.paused = paused;
    this.pausedChanged.fire(paused);
  }

  dispose(): void {
    this.pausedChanged.dispose();
  }
}
