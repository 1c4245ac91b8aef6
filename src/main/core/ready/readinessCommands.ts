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
      const gate = this.entries.gateOf(id);
      if (gate?.state === 'error') {
        abortWait.abort();
        return { success: false, state: 'error', message: gate.message, duration_ms: Date.now() - startedAt };
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

  /** Wait for the current run of a command entry to be ready (check_process_ready with waiting). */
  waitForReady(
    id: string,
    timeoutMs = DEFAULT_READY_TIMEOUT_MS,
    abort?: AbortSignal,
    onProgress?: (p: ReadinessProgress) => void,
  ): Promise<ReadinessResult> {
    return this.trackerOf(id).waitForReady(timeoutMs, abort, onProgress);
  }

  checkReady(id: string): ReadinessCheck {
    const check = this.trackerOf(id).check();
    const gate = this.entries.gateOf(id);
    return gate ? { ready: false, state: gate.state, message: gate.message } : check;
  }
}
