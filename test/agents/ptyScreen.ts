/**
 * Test driver for a real program in a real PTY (node-pty) whose output feeds an
 * `@xterm/headless` terminal, so tests can assert on what a user would see.
 *
 * Waits are driven by the terminal's `onWriteParsed` event (re-checked after every parsed
 * write), never by sleeps, and fail with the current screen in the message.
 *
 * @example
 * const screen = PtyScreen.spawn({ argv: h.argv, env: h.env, cwd: h.cwd });
 * await screen.waitForText('? for shortcuts');
 * await screen.submit('say hello');
 * await screen.kill();
 */
import { readFileSync, readdirSync } from 'node:fs';
import { Terminal } from '@xterm/headless';
import * as pty from 'node-pty';

const DEFAULT_COLS = 120;
const DEFAULT_ROWS = 40;
/** Default limit for screen waits: real CLIs on a shared 2-core machine can take a few seconds to draw. */
const DEFAULT_SCREEN_TIMEOUT_MS = 20_000;
/** {@link PtyScreen.pressUntil}: how long one key press gets to take effect before it is repeated. */
const DEFAULT_PRESS_ATTEMPT_MS = 1_000;
/** After SIGTERM, how long the process tree gets before SIGKILL. */
const KILL_GRACE_MS = 1_500;
/** After SIGKILL, how long `kill()` waits for the processes to be gone from /proc. */
const KILL_REAP_TIMEOUT_MS = 3_000;
/** Poll interval for that wait: a process that is not our child has no exit event in Node. */
const REAP_POLL_MS = 20;

interface PtyScreenOptions {
  /** `[file, ...args]`. */
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  cols?: number;
  rows?: number;
  /**
   * Send the terminal's own replies (cursor position, device attributes, colour queries)
   * back to the program, as a real terminal does. Default true: Codex queries the terminal
   * at start-up.
   */
  answerQueries?: boolean;
}

interface ScreenWaitOptions {
  timeoutMs?: number;
  /** What is being waited for, for the failure message. */
  label?: string;
}

interface PtyExit {
  exitCode: number;
  signal?: number;
}

export class PtyScreen {
  readonly pty: pty.IPty;
  readonly term: Terminal;
  /** Resolves when the process exits. */
  readonly exited: Promise<PtyExit>;
  /** Last OSC 0/2 window title. */
  title = '';
  /** Everything the program wrote, as received (for debugging and recordings). */
  output = '';
  private exitInfo: PtyExit | null = null;
  private readonly listeners = new Set<() => void>();

  private constructor(options: PtyScreenOptions) {
    const cols = options.cols ?? DEFAULT_COLS;
    const rows = options.rows ?? DEFAULT_ROWS;
    this.term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 1000 });
    this.term.onWriteParsed(() => this.notify());
    this.term.onTitleChange((title) => (this.title = title));
    const [file, ...args] = options.argv;
    this.pty = pty.spawn(file, args, { name: 'xterm-256color', cols, rows, cwd: options.cwd, env: options.env });
    if (options.answerQueries ?? true) this.term.onData((reply) => this.pty.write(reply));
    this.pty.onData((data) => {
      this.output += data;
      this.term.write(data);
    });
    this.exited = new Promise((resolve) =>
      this.pty.onExit((e) => {
        this.exitInfo = { exitCode: e.exitCode, signal: e.signal };
        this.notify();
        resolve(this.exitInfo);
      }),
    );
  }

  /** Spawns `options.argv` in a new PTY (its own session and process group). */
  static spawn(options: PtyScreenOptions): PtyScreen {
    return new PtyScreen(options);
  }

  get pid(): number {
    return this.pty.pid;
  }

  /** Exit info once the process has exited, else null. */
  get exit(): PtyExit | null {
    return this.exitInfo;
  }

  /** The visible screen, one line per row, trailing spaces trimmed. */
  lines(): string[] {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let row = 0; row < this.term.rows; row++) {
      out.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    }
    return out;
  }

  /** The visible screen as text (rows joined with newlines). */
  text(): string {
    return this.lines().join('\n');
  }

  /** Writes raw bytes to the program, as keystrokes. */
  write(data: string): void {
    this.pty.write(data);
  }

  /**
   * Types `text`, waits until it is echoed on screen, then presses Enter as a separate
   * write (a single "text\r" write would look like a paste to TUIs).
   */
  async submit(text: string, opts: ScreenWaitOptions = {}): Promise<void> {
    this.write(text);
    await this.waitForText(text, { label: `typed text "${text}" to be echoed`, ...opts });
    this.write('\r');
  }

  /**
   * Writes `keys`, then waits (event-driven) for `check()`; if it is still false after
   * `attemptMs`, writes `keys` again, until `timeoutMs`. Only for keys that are harmless to
   * repeat, on screens that drop input for a moment after they appear with no output to say
   * when they are ready (Codex's trust dialog does). Prefer {@link waitUntil} everywhere else.
   */
  async pressUntil(keys: string, check: () => boolean, opts: ScreenWaitOptions & { attemptMs?: number } = {}): Promise<void> {
    const attemptMs = opts.attemptMs ?? DEFAULT_PRESS_ATTEMPT_MS;
    const deadline = Date.now() + (opts.timeoutMs ?? DEFAULT_SCREEN_TIMEOUT_MS);
    for (;;) {
      this.write(keys);
      const remaining = deadline - Date.now();
      try {
        return await this.waitUntil(check, { ...opts, timeoutMs: Math.min(attemptMs, Math.max(remaining, 1)) });
      } catch (error) {
        if (Date.now() >= deadline) throw error;
      }
    }
  }

  /** Waits until the screen contains `pattern` (substring or RegExp). */
  waitForText(pattern: string | RegExp, opts: ScreenWaitOptions = {}): Promise<void> {
    const label = opts.label ?? `screen to show ${String(pattern)}`;
    return this.waitUntil(() => matches(this.text(), pattern), { ...opts, label });
  }

  /** Waits until the screen no longer contains `pattern`. */
  waitForNoText(pattern: string | RegExp, opts: ScreenWaitOptions = {}): Promise<void> {
    const label = opts.label ?? `screen to stop showing ${String(pattern)}`;
    return this.waitUntil(() => !matches(this.text(), pattern), { ...opts, label });
  }

  /**
   * Waits until `check()` is true; re-evaluated after every parsed terminal write and on exit.
   * Rejects after the timeout with the current screen (and title) in the message.
   */
  waitUntil(check: () => boolean, opts: ScreenWaitOptions = {}): Promise<void> {
    if (check()) return Promise.resolve();
    const timeoutMs = opts.timeoutMs ?? DEFAULT_SCREEN_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      const listener = (): void => {
        if (!check()) return;
        this.listeners.delete(listener);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${opts.label ?? 'a screen condition'}.\n${this.describe()}`));
      }, timeoutMs);
      this.listeners.add(listener);
    });
  }

  /** Screen, title and exit state, for failure messages. */
  describe(): string {
    const exit = this.exitInfo ? `exited ${JSON.stringify(this.exitInfo)}` : 'running';
    const rule = '-'.repeat(this.term.cols);
    return `Process ${this.pid} ${exit}; title ${JSON.stringify(this.title)}. Screen:\n${rule}\n${this.text()}\n${rule}`;
  }

  /**
   * Ends the program and everything it started: SIGTERM to its process group and every
   * descendant (tools may sit in other groups), then SIGKILL to whatever is left after a
   * grace period. Processes are identified by pid AND start time, so a pid reused by an
   * unrelated process is never signalled. Disposes the terminal. Safe to call twice.
   */
  async kill(): Promise<void> {
    if (!this.exitInfo) {
      const tree = processTree(this.pid);
      if (tree.length === 0) this.pty.kill(); // no /proc (not Linux): node-pty's SIGHUP
      signalTree(tree, 'SIGTERM');
      const exitedInTime = await Promise.race([
        this.exited.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), KILL_GRACE_MS)),
      ]);
      // Late children of a still-running program, plus leftovers that outlived their parent.
      const all = exitedInTime ? tree : [...tree, ...processTree(this.pid)];
      signalTree(all, 'SIGKILL');
      await this.exited;
      // Signals are asynchronous: wait until nothing is left, so callers can delete temp dirs safely.
      await waitUntilGone(all, KILL_REAP_TIMEOUT_MS);
    }
    this.listeners.clear();
    this.term.dispose();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

function matches(text: string, pattern: string | RegExp): boolean {
  return typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
}

/** A process as identified by /proc: pid plus start time (clock ticks since boot). */
interface ProcessId {
  pid: number;
  startTime: string;
}

/** `root` (first) and all its descendants, read from /proc (Linux; empty elsewhere or if `root` is gone). */
export function processTree(root: number): ProcessId[] {
  const stats = readAllStats();
  const rootStat = stats.get(root);
  if (!rootStat) return [];
  const out: ProcessId[] = [{ pid: root, startTime: rootStat.startTime }];
  for (let i = 0; i < out.length; i++) {
    for (const [pid, stat] of stats) if (stat.ppid === out[i].pid) out.push({ pid, startTime: stat.startTime });
  }
  return out;
}

/**
 * Signals the process group led by the tree's root (node-pty makes the child a session and
 * group leader) and each process in the tree, skipping any whose identity changed.
 */
function signalTree(tree: ProcessId[], signal: NodeJS.Signals): void {
  const attempt = (target: number): void => {
    try {
      process.kill(target, signal);
    } catch {
      // Already exited.
    }
  };
  const [root] = tree;
  if (root && isSame(root)) attempt(-root.pid);
  for (const proc of tree) if (isSame(proc)) attempt(proc.pid);
}

function isSame(proc: ProcessId): boolean {
  return readStat(proc.pid)?.startTime === proc.startTime;
}

/** True while the process exists and has not died (a zombie only waits to be reaped). */
function isAlive(proc: ProcessId): boolean {
  const stat = readStat(proc.pid);
  return stat !== null && stat.startTime === proc.startTime && stat.state !== 'Z' && stat.state !== 'X';
}

/** Resolves once no process of `tree` is alive, or after `timeoutMs` (best effort). */
export async function waitUntilGone(tree: ProcessId[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (tree.some(isAlive)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, REAP_POLL_MS));
  }
  return true;
}

interface Stat {
  state: string;
  ppid: number;
  startTime: string;
}

function readAllStats(): Map<number, Stat> {
  const stats = new Map<number, Stat>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    // Not Linux: no tree.
  }
  for (const name of entries) {
    const stat = readStat(Number(name));
    if (stat) stats.set(Number(name), stat);
  }
  return stats;
}

function readStat(pid: number): Stat | null {
  try {
    // Fields after the command name (which may contain spaces and parentheses): state is
    // field 3, ppid field 4, starttime field 22.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], ppid: Number(fields[1]), startTime: fields[19] };
  } catch {
    return null;
  }
}
