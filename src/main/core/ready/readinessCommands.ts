/**
 * The readiness commands (docs/readiness.md): restart and wait for the new run to be ready, wait
 * for the current run, check now. A start-order gate (waiting for a dependency, kept from
 * starting by one that failed) answers for the entry while it holds.
 */
import type { DecorationKey, ProcessEntry } from '../sessions';
import type { ReadinessCheck, ReadinessProgress, ReadinessResult } from '../../../shared/ready';
import { DEFAULT_READY_TIMEOUT_MS } from '../../../shared/readyConfig';
import { InvalidArgumentError } from '../../../shared/errors';
import { READINESS, type ReadinessDecoration } from './readinessDecoration';
import type { ReadinessTracker } from './readinessTracker';

/** The entries as the readiness commands read them (the core's entry registry is one). */
interface ReadinessEntries {
  decorationOf(id: string, key: DecorationKey<ReadinessDecoration>): ReadinessDecoration | undefined;
  /** What the start order shows instead of the entry's own state, if anything. */
  gateOf(id: string): { state: 'waiting' | 'error'; message: string } | undefined;
}

/** How the readiness commands start entries (the core's entry launcher is one). */
interface ReadinessStarts {
  /** The entry, if it may run (project trust). */
  runnable(id: string): ProcessEntry;
  /** Stop, then start again, awaiting the entry's dependencies. */
  restartWithDependencies(id: string, signal: NodeJS.Signals | undefined): Promise<void>;
  /** While the entry waits for its dependencies: resolves true once it started, false when it will not. */
  pendingStart(id: string): Promise<boolean> | undefined;
}

export interface RestartAndWaitOptions {
  signal?: NodeJS.Signals;
  readyTimeoutMs?: number;
  abort?: AbortSignal;
  onProgress?: (p: ReadinessProgress) => void;
}

export class ReadinessCommands {
  constructor(
    private readonly entries: ReadinessEntries,
    private readonly starts: ReadinessStarts,
  ) {}

  trackerOf(id: string): ReadinessTracker {
    const decoration = this.entries.decorationOf(id, READINESS);
    if (!decoration) throw new InvalidArgumentError(`Process ${id} is not a command entry (readiness applies to commands)`);
    return decoration.tracker;
  }

  /** Restart and wait until the new run is ready. Never throws for a failed start: the result says why, with the last lines. */
  async restartAndWait(id: string, options: RestartAndWaitOptions = {}): Promise<ReadinessResult> {
    const entry = this.starts.runnable(id);
    const tracker = this.trackerOf(id);
    const startedAt = Date.now();
    const abortWait = new AbortController();
    const stop = () => abortWait.abort();
    options.abort?.addEventListener('abort', stop, { once: true });
    const waiting = tracker.waitForReady(options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS, abortWait.signal, options.onProgress, {
      runId: entry.runId + 1,
    });
    try {
      await this.starts.restartWithDependencies(id, options.signal);
      const blocked = this.blockedResult(id, startedAt);
      if (blocked) {
        abortWait.abort();
        return blocked;
      }
    } catch (err) {
      // No new run to judge (command not found, bad cwd): answer now instead of timing out.
      abortWait.abort();
      const message = err instanceof Error ? err.message : String(err);
      return { success: false, state: 'error', message, duration_ms: Date.now() - startedAt };
    } finally {
      options.abort?.removeEventListener('abort', stop);
    }
    return waiting;
  }

  /**
   * Wait for a command entry's run to be ready (check_process_ready with waiting). An entry waiting
   * for its dependencies is judged on the run the start order begins next, never on its last one;
   * a start the order gives up (a dependency failed, the wait was cancelled) answers with why.
   */
  async waitForReady(
    id: string,
    timeoutMs = DEFAULT_READY_TIMEOUT_MS,
    abort?: AbortSignal,
    onProgress?: (p: ReadinessProgress) => void,
  ): Promise<ReadinessResult> {
    const tracker = this.trackerOf(id);
    const waitedAt = Date.now();
    const pending = this.starts.pendingStart(id);
    if (!pending) return this.blockedResult(id, waitedAt) ?? tracker.waitForReady(timeoutMs, abort, onProgress);
    const nextRun = this.starts.runnable(id).runId + 1;
    const giveUp = new AbortController();
    const stop = () => giveUp.abort();
    abort?.addEventListener('abort', stop, { once: true });
    let isNotStarted = false;
    void pending.then((started) => {
      isNotStarted = !started;
      if (isNotStarted) giveUp.abort();
    });
    try {
      const result = await tracker.waitForReady(timeoutMs, giveUp.signal, onProgress, { runId: nextRun });
      if (!isNotStarted) return result;
      return (
        this.blockedResult(id, waitedAt) ?? {
          success: false,
          state: 'stopped',
          message: 'Not started: its start was cancelled',
          duration_ms: Date.now() - waitedAt,
        }
      );
    } finally {
      abort?.removeEventListener('abort', stop);
    }
  }

  /** Kept from starting by a dependency that failed: the start order's reason. */
  private blockedResult(id: string, since: number): ReadinessResult | undefined {
    const gate = this.entries.gateOf(id);
    if (gate?.state !== 'error') return undefined;
    return { success: false, state: 'error', message: gate.message, duration_ms: Date.now() - since };
  }

  checkReady(id: string): ReadinessCheck {
    const check = this.trackerOf(id).check();
    const gate = this.entries.gateOf(id);
    return gate ? { ready: false, state: gate.state, message: gate.message } : check;
  }
}
