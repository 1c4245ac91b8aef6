/**
 * Keeps floods from holding the event loop. Every PTY read is processed in full (ring, screen,
 * readiness and status listeners), so ten programs printing as fast as they can made each loop
 * turn last a quarter of a second, and a keystroke's echo in an idle pane waited that long to be
 * read. All entries of the process (every project shares one loop) draw from one budget: within
 * each window, output processing may take BUDGET_SHARE of the time; once it is spent, entries
 * that were busy this window stop reading their PTY until the window ends. Their programs block
 * on a full terminal, as under any terminal that cannot keep up; nothing is lost. An entry that
 * printed little this window (an echo, an agent redrawing a line) is never paused.
 */

/** Length of one accounting window. */
export const BUDGET_WINDOW_MS = 40;
/** Share of each window that output processing may use while others wait. */
export const BUDGET_SHARE = 0.5;
/** An entry whose output took longer than this within a window counts as a flood. */
const FLOOD_MS_PER_WINDOW = 2;

export interface BudgetClient {
  /** Stop (true) or resume (false) reading because of the budget. */
  setOverBudget(over: boolean): void;
}

export class OutputBudget {
  private windowStart = -Infinity;
  private spentMs = 0;
  private readonly spentBy = new Map<BudgetClient, number>();
  private readonly paused = new Set<BudgetClient>();
  private resumeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly windowMs = BUDGET_WINDOW_MS,
    private readonly share = BUDGET_SHARE,
  ) {}

  /** `client` spent `ms` processing output just now. */
  spend(client: BudgetClient, ms: number): void {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) this.startWindow(now);
    this.spentMs += ms;
    this.spentBy.set(client, (this.spentBy.get(client) ?? 0) + ms);
    if (this.spentMs <= this.windowMs * this.share) return;
    for (const [busy, spent] of this.spentBy) if (spent > FLOOD_MS_PER_WINDOW) this.pause(busy);
  }

  /** The client is gone (disposed, or its run ended): never resume it later. */
  forget(client: BudgetClient): void {
    this.spentBy.delete(client);
    this.paused.delete(client);
  }

  private pause(client: BudgetClient): void {
    if (this.paused.has(client)) return;
    this.paused.add(client);
    client.setOverBudget(true);
    if (this.resumeTimer) return;
    const remaining = Math.max(0, this.windowStart + this.windowMs - this.now());
    this.resumeTimer = setTimeout(() => this.resumeAll(), remaining);
    this.resumeTimer.unref?.();
  }

  private resumeAll(): void {
    this.resumeTimer = undefined;
    const paused = [...this.paused];
    this.paused.clear();
    this.startWindow(this.now());
    for (const client of paused) client.setOverBudget(false);
  }

  private startWindow(now: number): void {
    this.windowStart = now;
    this.spentMs = 0;
    this.spentBy.clear();
  }
}

/** The process's one event loop, shared by every entry of every open project. */
export const sharedOutputBudget = new OutputBudget();
