/**
 * Flow control as VS Code's terminal does it (FlowControlConstants): every viewer acknowledges
 * what its terminal has parsed; the PTY pauses while any viewer is far behind. Viewers receive
 * raw bytes, so the unit is bytes (VS Code counts chars of strings; the magnitudes are the same).
 */
import { Emitter, type Event } from '../base';

import { HIGH_WATERMARK_BYTES, LOW_WATERMARK_BYTES } from '../../../shared/flowControl';

export { HIGH_WATERMARK_BYTES, LOW_WATERMARK_BYTES, ACK_CHUNK_BYTES } from '../../../shared/flowControl';

export class FlowController {
  private readonly backlog = new Map<string, number>();
  private paused = false;
  private readonly pausedChanged = new Emitter<boolean>();
  readonly onDidChangePaused: Event<boolean> = this.pausedChanged.event;

  get isPaused(): boolean {
    return this.paused;
  }

  /** Record bytes sent to a viewer. */
  sent(viewer: string, bytes: number): void {
    this.backlog.set(viewer, (this.backlog.get(viewer) ?? 0) + bytes);
    this.update();
  }

  /** A viewer's terminal parsed `bytes` more. */
  ack(viewer: string, bytes: number): void {
    const current = this.backlog.get(viewer);
    if (current === undefined) return;
    this.backlog.set(viewer, Math.max(0, current - bytes));
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
    for (const bytes of this.backlog.values()) max = Math.max(max, bytes);
    if (!this.paused && max > HIGH_WATERMARK_BYTES) this.setPaused(true);
    else if (this.paused && max < LOW_WATERMARK_BYTES) this.setPaused(false);
  }

  private setPaused(paused: boolean): void {
    this.paused = paused;
    this.pausedChanged.fire(paused);
  }

  dispose(): void {
    this.pausedChanged.dispose();
  }
}
