/**
 * wait_for_task: event-driven (the supervisor's change and end events), never a polling loop, so
 * waiting costs nothing while the task works. Progress goes out on every phase or message change
 * and as a heartbeat that keeps a client's request timer alive during a long silent tool.
 */
import type { TaskProgress, TaskView, TaskWaitResult } from '../../../shared/task';
import type { TaskSupervisor } from './taskSupervisor';

/** Heartbeat while nothing changes (MCP clients reset their request timeout on progress). */
const TASK_PROGRESS_INTERVAL_MS = 1_000;

interface TaskWaitOptions {
  supervisor: TaskSupervisor;
  /** The task as returned to the caller (undefined once its entry is closed). */
  view(): TaskView | undefined;
  onClosed(listener: () => void): { dispose(): void };
  timeoutMs: number;
  abort?: AbortSignal;
  onProgress?: (progress: TaskProgress) => void;
}

export function waitForTaskEnd(options: TaskWaitOptions): Promise<TaskWaitResult> {
  const startedAt = Date.now();
  const elapsed = () => Date.now() - startedAt;
  const { supervisor } = options;
  return new Promise<TaskWaitResult>((resolve) => {
    const disposables: Array<{ dispose(): void }> = [];
    let done = false;
    const finish = (reason: TaskWaitResult['reason'], message: string) => {
      if (done) return;
      done = true;
      for (const d of disposables) d.dispose();
      const task = options.view();
      resolve({
        isEnded: reason === 'ended' || (task?.isEnded ?? false),
        reason,
        message,
        elapsedMs: elapsed(),
        ...(task ? { task } : {}),
      });
    };
    const ended = () => {
      const info = supervisor.info;
      finish('ended', `Task ${info.phase}: ${info.message}`);
    };
    if (supervisor.isEnded) return ended();
    if (options.abort?.aborted) return finish('cancelled', 'The wait was cancelled by the client; the task goes on');

    disposables.push(supervisor.onDidEnd(() => ended()));
    disposables.push(options.onClosed(() => finish('closed', "The task's entry was closed")));
    if (options.abort) {
      const signal = options.abort;
      const onAbort = () => finish('cancelled', 'The wait was cancelled by the client; the task goes on');
      signal.addEventListener('abort', onAbort, { once: true });
      disposables.push({ dispose: () => signal.removeEventListener('abort', onAbort) });
    }
    const timer = setTimeout(() => {
      const info = supervisor.info;
      finish('timeout', `Still ${info.phase} after ${Math.round(options.timeoutMs / 100) / 10} s: ${info.message}`);
    }, options.timeoutMs);
    disposables.push({ dispose: () => clearTimeout(timer) });

    if (options.onProgress) {
      const progress = options.onProgress;
      let last = '';
      const report = (isHeartbeat: boolean) => {
        const info = supervisor.info;
        const key = `${info.phase}|${info.message}|${info.stallWarning ?? ''}`;
        if (!isHeartbeat && key === last) return;
        last = key;
        progress({
          elapsedMs: elapsed(),
          phase: info.phase,
          message: info.stallWarning ? `${info.message} — ${info.stallWarning}` : info.message,
        });
      };
      report(true);
      disposables.push(supervisor.onDidChange(() => report(false)));
      const ticker = setInterval(() => report(true), TASK_PROGRESS_INTERVAL_MS);
      disposables.push({ dispose: () => clearInterval(ticker) });
    }
  });
}
