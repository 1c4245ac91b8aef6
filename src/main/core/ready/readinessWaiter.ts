/**
 * `restart_process {wait_for_ready}` and `check_process_ready {wait}`: one wait on one entry's
 * readiness, resolved when the run is ready (or `running` without a readiness check), a one-shot
 * job finished, the start failed, or the time is up. Errors come in bursts, so a failure is
 * reported once the burst settled and its message names the cause.
 */
import { DisposableStore, toDisposable, type Clock, type Disposable, type Event } from '../base';
import { isSettledReady, type ReadinessInfo, type ReadinessProgress, type ReadinessResult } from '../../../shared/ready';
import { formatSeconds } from './formatSeconds';
import type { RunExpectation } from './readinessMachine';

/** Progress notifications during a wait (MCP clients show them; they also keep proxies alive). */
const PROGRESS_INTERVAL_MS = 1_000;
/**
 * Errors come in bursts (a headline, its cause, a stack): a wait reports an error once the output
 * has been quiet this long, so the message names the cause ("Port 5173 already in use") and not
 * only the headline ("Vite failed to start"); after a headline that announces its cause, until
 * the cause arrives. The phase itself changes at once. An exit ends the burst immediately.
 */
const ERROR_SETTLE_MS = 100;
/** …but a process that keeps printing after an error is not waited for longer than this. */
const MAX_ERROR_SETTLE_MS = 1_000;

/** What a wait reads from the tracker it waits on. */
export interface ReadinessWaitSource {
  readonly info: ReadinessInfo;
  readonly onDidChange: Event<ReadinessInfo>;
  readonly isDisposed: boolean;
  /** The run is alive (started, not exited). */
  readonly isRunLive: boolean;
  readonly runExpectation: RunExpectation;
  /** Epoch ms of the newest output. */
  readonly lastOutputAt: number;
  /** An error headline announced a cause that has not arrived yet. */
  readonly isAwaitingErrorDetail: boolean;
  logs(): string[];
  /** The tracker's clock: the wait's timeout, progress and settling run on it. */
  readonly clock: Clock;
  /** Judged once more when the source is disposed. */
  addWaiter(judge: () => void): Disposable;
}

export interface WaitForReadyOptions {
  /** Judge only a run with at least this id (call before `restart()` resolves without races). */
  runId?: number;
}

type Verdict = { kind: 'pending' } | { kind: 'done'; success: boolean; message: string } | { kind: 'failed-settling' };

/** Never rejects; an abort resolves a failure. */
export function waitForReadiness(
  source: ReadinessWaitSource,
  timeoutMs: number,
  signal?: AbortSignal,
  onProgress?: (progress: ReadinessProgress) => void,
  options: WaitForReadyOptions = {},
): Promise<ReadinessResult> {
  const waitStart = source.clock.now();
  return new Promise<ReadinessResult>((resolve) => {
    const store = new DisposableStore();
    let isDone = false;
    const finish = (result: ReadinessResult) => {
      if (isDone) return;
      isDone = true;
      store.dispose();
      resolve(result);
    };
    const settle = new ErrorSettle(source);
    store.add(settle);
    const judge = () => {
      if (isDone) return;
      const info = source.info;
      if (options.runId !== undefined && (info.runId ?? 0) < options.runId) return;
      if (source.isDisposed) return finish(resultOf(source, info, false, 'Process closed', waitStart));
      const verdict = verdictOf(source, info, options);
      if (verdict.kind === 'pending') return;
      if (verdict.kind === 'failed-settling') {
        if (settle.isStillArriving(judge)) return;
        const latest = source.info;
        return finish(resultOf(source, latest, false, latest.message, waitStart));
      }
      finish(resultOf(source, info, verdict.success, verdict.message, waitStart));
    };
    // Judge after the whole chunk was processed: a headline's detail line may follow in it.
    store.add(source.onDidChange(() => queueMicrotask(judge)));
    store.add(source.addWaiter(judge));
    store.add(source.clock.setTimer(() => finish(timeoutResult(source, timeoutMs, waitStart)), timeoutMs));
    if (onProgress) {
      const report = () => {
        const info = source.info;
        onProgress({ state: info.phase, message: info.message, elapsed_ms: source.clock.now() - waitStart });
      };
      store.add(repeating(source.clock, report, PROGRESS_INTERVAL_MS));
      store.add(source.onDidChange(report));
    }
    if (signal) {
      const onAbort = () => finish({ ...resultOf(source, source.info, false, 'Readiness wait cancelled', waitStart), logs: undefined });
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      store.add(toDisposable(() => signal.removeEventListener('abort', onAbort)));
    }
    judge();
  });
}

function verdictOf(source: ReadinessWaitSource, info: ReadinessInfo, options: WaitForReadyOptions): Verdict {
  switch (info.phase) {
    case 'ready':
      // Within the settle window an error line still overturns the ready line ("✓ Ready", then a config error).
      if (!isSettledReady(info)) return { kind: 'pending' };
      return { kind: 'done', success: true, message: info.message };
    case 'completed':
      return { kind: 'done', success: true, message: info.message };
    case 'running':
      // Up without a readiness check: as ready as it gets. A one-shot job is waited for to its end.
      if (info.expectsReadiness === false && source.runExpectation === 'nothing')
        return { kind: 'done', success: true, message: info.message };
      if (source.runExpectation === 'completion') return { kind: 'pending' };
      return { kind: 'failed-settling' }; // a server up, but reporting an error: not ready
    case 'error':
      return { kind: 'failed-settling' };
    case 'stopped':
      if (options.runId === undefined || (info.runId ?? 0) >= options.runId) {
        return { kind: 'done', success: false, message: info.runId ? info.message : 'Not running' };
      }
      return { kind: 'pending' };
    case 'starting':
    case 'unhealthy': // was ready and may answer again
      return { kind: 'pending' };
  }
}

function timeoutResult(source: ReadinessWaitSource, timeoutMs: number, waitStart: number): ReadinessResult {
  const info = source.info;
  const message =
    info.phase === 'unhealthy'
      ? info.message
      : source.runExpectation === 'completion'
        ? `Still running after ${formatSeconds(timeoutMs)}`
        : `No ready signal after ${formatSeconds(timeoutMs)}`;
  return { ...resultOf(source, info, false, message, waitStart), logs: source.logs() };
}

function resultOf(source: ReadinessWaitSource, info: ReadinessInfo, success: boolean, message: string, waitStart: number): ReadinessResult {
  const end =
    info.phase === 'ready' && info.readyAt !== undefined
      ? info.readyAt
      : info.phase === 'completed' && info.endedAt !== undefined
        ? info.endedAt
        : source.clock.now();
  const isJobEnd = info.phase === 'completed' || (info.phase === 'error' && info.exitCode !== undefined && info.expectsReadiness === false);
  return {
    success,
    state: info.phase,
    message,
    duration_ms: Math.max(0, end - (info.since ?? waitStart)),
    url: info.url,
    port: info.port,
    // A finished job reports its last lines either way (what the migration printed).
    logs: success && !isJobEnd ? undefined : (info.logs ?? source.logs()),
    ...(isJobEnd && info.exitCode !== undefined ? { exit_code: info.exitCode } : {}),
  };
}

/** Holds a failure verdict while its error burst is still being printed (then judges again). */
class ErrorSettle implements Disposable {
  private errorSeenAt: number | undefined;
  private timer: Disposable | undefined;

  constructor(private readonly source: ReadinessWaitSource) {}

  isStillArriving(judge: () => void): boolean {
    if (!this.source.isRunLive) return false;
    const now = this.source.clock.now();
    this.errorSeenAt ??= now;
    if (now - this.errorSeenAt >= MAX_ERROR_SETTLE_MS) return false;
    // A headline announced its cause (Next.js prints it ~200 ms later, in a separate write).
    if (this.source.isAwaitingErrorDetail) {
      this.rearm(judge, MAX_ERROR_SETTLE_MS - (now - this.errorSeenAt));
      return true;
    }
    const quietFor = now - this.source.lastOutputAt;
    if (quietFor >= ERROR_SETTLE_MS) return false;
    this.rearm(judge, ERROR_SETTLE_MS - quietFor);
    return true;
  }

  dispose(): void {
    this.timer?.dispose();
  }

  private rearm(judge: () => void, delayMs: number): void {
    this.timer?.dispose();
    this.timer = this.source.clock.setTimer(judge, delayMs);
  }
}

/** Calls `fn` every `periodMs` on the clock until disposed. */
function repeating(clock: Clock, fn: () => void, periodMs: number): Disposable {
  let timer: Disposable | undefined;
  const arm = () => {
    timer = clock.setTimer(() => {
      fn();
      arm();
    }, periodMs);
  };
  arm();
  return toDisposable(() => timer?.dispose());
}
