/**
 * Process-level safety net shared by both entry points (`serve` and the Electron main process).
 * A rejected promise nobody awaited is logged and the app keeps running: it leaves no state half
 * changed. An uncaught exception is fatal (Node cannot promise a sane state after one): every
 * process tree gets SIGKILL before the exit, so nothing outlives the app. The first SIGINT/SIGTERM/
 * SIGHUP stops gracefully; a second one during a slow stop kills every tree at once.
 */
import { constants } from 'node:os';

export interface GuardedProcess {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
  on(event: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  exit(code: number): void;
}

interface ProcessGuardOptions {
  /** Prefix of every log line (`switchboard serve`). */
  name: string;
  log(line: string): void;
  /** The graceful stop: every tree ends within its grace period, files are cleaned up. */
  stop(): Promise<void>;
  /** Synchronous last resort: SIGKILL every tree, drop discovery and lock files. */
  killNow(): void;
  /** How to end the process (Electron: app.exit); default `proc.exit`. */
  exit?(code: number): void;
  /** Signals that stop the app (default SIGINT, SIGTERM, SIGHUP). */
  signals?: NodeJS.Signals[];
}

interface ProcessGuard {
  /** Graceful stop then exit, as for a first signal (idempotent). */
  shutdown(code?: number): Promise<void>;
  /** Kill every tree and exit now: a fatal error. */
  fail(error: unknown): void;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/** Conventional exit status for a process ended by `signal` (130 for SIGINT). */
function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

export function installProcessGuard(proc: GuardedProcess, options: ProcessGuardOptions): ProcessGuard {
  let stopping = false;
  let exited = false;
  const exit = (code: number) => {
    if (exited) return;
    exited = true;
    if (options.exit) options.exit(code);
    else proc.exit(code);
  };
  const killNow = () => {
    try {
      options.killNow();
    } catch (err) {
      options.log(`${options.name}: killing the process trees failed: ${describeError(err)}`);
    }
  };
  const fail = (error: unknown) => {
    options.log(`${options.name}: fatal error, killing every process tree before exiting: ${describeError(error)}`);
    killNow();
    exit(1);
  };
  const shutdown = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    try {
      await options.stop();
    } catch (err) {
      options.log(`${options.name}: clean stop failed: ${describeError(err)}`);
      killNow();
      return exit(1);
    }
    exit(code);
  };

  proc.on('unhandledRejection', (reason) =>
    options.log(`${options.name}: unhandled promise rejection (still running): ${describeError(reason)}`),
  );
  proc.on('uncaughtException', fail);
  for (const signal of options.signals ?? ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    proc.on(signal, () => {
      if (!stopping) return void shutdown(0);
      options.log(`${options.name}: ${signal} again while stopping: killing every process tree now`);
      killNow();
      exit(signalExitCode(signal));
    });
  }
  return { shutdown, fail };
}
