/**
 * Runs one probe (TCP connect, HTTP GET, listening-port scan) again and again until stopped,
 * never two at once. After `stop()` the in-flight attempt is aborted and whatever it still
 * returns is dropped (process-compose's rule: nothing arrives after Stop).
 */
import { DisposableBase, Emitter, toDisposable, type Event } from '../base';

interface ProbeLoopOptions<T> {
  /** Pause between the end of one attempt and the start of the next. */
  intervalMs: number;
  probe: (signal: AbortSignal) => Promise<T>;
}

export class ProbeLoop<T> extends DisposableBase {
  private intervalMs: number;
  private readonly probe: (signal: AbortSignal) => Promise<T>;
  /** Bumped by start/stop: an attempt from an older generation is stale. */
  private generation = 0;
  private isActive = false;
  private inFlight: AbortController | undefined;
  private timer: NodeJS.Timeout | undefined;
  private isProbeNowRequested = false;

  private readonly resultEmitter = this.register(new Emitter<T>());
  /** An attempt finished while the loop was running. */
  readonly onDidProbe: Event<T> = this.resultEmitter.event;
  private readonly failureEmitter = this.register(new Emitter<unknown>());
  /** The probe threw (a bug in the probe: probes report failure as a result). */
  readonly onDidFail: Event<unknown> = this.failureEmitter.event;

  constructor(options: ProbeLoopOptions<T>) {
    super();
    this.intervalMs = options.intervalMs;
    this.probe = options.probe;
    this.register(toDisposable(() => this.stop()));
  }

  get isRunning(): boolean {
    return this.isActive;
  }

  /** Starts probing at once; a no-op while running. */
  start(): void {
    if (this.isDisposed || this.isActive) return;
    this.isActive = true;
    this.generation += 1;
    this.runAttempt(this.generation);
  }

  stop(): void {
    this.isActive = false;
    this.generation += 1;
    this.isProbeNowRequested = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.inFlight?.abort();
    this.inFlight = undefined;
  }

  /** Probe as soon as possible: now if idle, right after the attempt in flight otherwise. */
  probeNow(): void {
    if (!this.isActive) return;
    if (this.inFlight) {
      this.isProbeNowRequested = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.runAttempt(this.generation);
  }

  setInterval(intervalMs: number): void {
    this.intervalMs = intervalMs;
  }

  private runAttempt(generation: number): void {
    const controller = new AbortController();
    this.inFlight = controller;
    this.isProbeNowRequested = false;
    this.probe(controller.signal).then(
      (result) => {
        if (generation !== this.generation) return; // stopped meanwhile: drop
        this.inFlight = undefined;
        this.resultEmitter.fire(result);
        this.scheduleNext(generation);
      },
      (err: unknown) => {
        if (generation !== this.generation) return;
        this.inFlight = undefined;
        this.failureEmitter.fire(err);
        this.scheduleNext(generation);
      },
    );
  }

  private scheduleNext(generation: number): void {
    // A listener may have stopped or restarted the loop while handling the result.
    if (!this.isActive || generation !== this.generation || this.inFlight || this.timer) return;
    const delay = this.isProbeNowRequested ? 0 : this.intervalMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.isActive && generation === this.generation) this.runAttempt(generation);
    }, delay);
  }
}
