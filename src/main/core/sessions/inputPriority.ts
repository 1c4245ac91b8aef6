/**
 * Gives a keystroke's echo the machine. Programs that print as fast as they can are CPU-bound:
 * on a small machine, two floods in panes nobody looks at (no viewer, so flow control never
 * pauses them) took a core, and the echo of a key typed into another pane waited for the CPU in
 * the page and in the shell (the core itself answered within milliseconds). While someone types
 * into an entry (a write within TYPING_WINDOW_MS), every other entry of the process may read at
 * most BACKGROUND_BYTES_PER_SECOND from its PTY: past that it stops reading for a while, and its
 * program blocks on its full terminal and leaves the CPU. Nothing is lost, and an entry that
 * prints less (a server's log, an agent's redraw) is never held; nobody typing, nothing is held.
 * All entries of the process (every project) share one instance, the PTY thread's (ptyThread.ts),
 * which holds an entry before its next read: they share the cores.
 */

/** A write this recent means someone is typing: covers the gap between keystrokes of a typist. */
export const TYPING_WINDOW_MS = 500;
/** What an entry nobody types into may read while someone types: ≈ 400 lines of 80 characters a second. */
export const BACKGROUND_BYTES_PER_SECOND = 32 * 1024;
/** Read at once before the rate applies, so a few log lines never wait: a quarter second's worth. */
export const BACKGROUND_BURST_BYTES = BACKGROUND_BYTES_PER_SECOND / 4;
/** Longest single hold: a big read holds its entry again at its next read, not for seconds now. */
export const MAX_HOLD_MS = 200;

export interface PriorityClient {
  /** Stop (true) or resume (false) reading to leave the machine to someone's typing. */
  setHeld(held: boolean): void;
}

/** Bytes an entry may still read at once (negative: read ahead of its rate), as of `at`. */
interface Allowance {
  bytes: number;
  at: number;
}

export class InputPriority {
  private readonly typedAt = new Map<PriorityClient, number>();
  private readonly allowances = new Map<PriorityClient, Allowance>();
  private readonly holds = new Map<PriorityClient, NodeJS.Timeout>();
  /** The newest write to any client: nobody typed within the window means nothing to check per read. */
  private lastTypedAt = -Infinity;

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly bytesPerSecond = BACKGROUND_BYTES_PER_SECOND,
  ) {}

  /** Someone wrote input to `client` just now (a keystroke from a pane, an MCP send). */
  typed(client: PriorityClient): void {
    this.lastTypedAt = this.now();
    this.typedAt.set(client, this.lastTypedAt);
    this.release(client);
  }

  /** `client` read `bytes` from its PTY just now. */
  read(client: PriorityClient, bytes: number): void {
    const now = this.now();
    if (now - this.lastTypedAt >= TYPING_WINDOW_MS) {
      if (this.allowances.size > 0) this.allowances.delete(client);
      return;
    }
    if (!this.isSomeoneTyping(now) || this.isTypedInto(client, now)) {
      this.allowances.delete(client);
      return;
    }
    const allowance = this.refill(client, now);
    allowance.bytes -= bytes;
    if (allowance.bytes < 0 && !this.holds.has(client)) this.hold(client, (-allowance.bytes / this.bytesPerSecond) * 1000);
  }

  /** The client is gone (disposed, or its run ended): never resume it later. */
  forget(client: PriorityClient): void {
    clearTimeout(this.holds.get(client));
    this.holds.delete(client);
    this.allowances.delete(client);
    this.typedAt.delete(client);
  }

  private isSomeoneTyping(now: number): boolean {
    for (const [client, at] of this.typedAt) {
      if (now - at < TYPING_WINDOW_MS) return true;
      this.typedAt.delete(client);
    }
    return false;
  }

  private isTypedInto(client: PriorityClient, now: number): boolean {
    const at = this.typedAt.get(client);
    return at !== undefined && now - at < TYPING_WINDOW_MS;
  }

  private refill(client: PriorityClient, now: number): Allowance {
    const allowance = this.allowances.get(client) ?? { bytes: BACKGROUND_BURST_BYTES, at: now };
    allowance.bytes = Math.min(BACKGROUND_BURST_BYTES, allowance.bytes + ((now - allowance.at) * this.bytesPerSecond) / 1000);
    allowance.at = now;
    this.allowances.set(client, allowance);
    return allowance;
  }

  private hold(client: PriorityClient, ms: number): void {
    const timer = setTimeout(() => this.release(client), Math.min(MAX_HOLD_MS, ms));
    timer.unref?.();
    this.holds.set(client, timer);
    client.setHeld(true);
  }

  private release(client: PriorityClient): void {
    const timer = this.holds.get(client);
    if (!timer) return;
    clearTimeout(timer);
    this.holds.delete(client);
    client.setHeld(false);
  }
}
