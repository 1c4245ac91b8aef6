/**
 * The rendered grid of one entry: an `@xterm/headless` terminal fed with the entry's bytes. An
 * entry's runs on a worker thread (screenHost.ts); offline replays use it directly.
 *
 * Parsing costs about as much as draining the PTY (docs/testing.md: ~80 MB/s each), so under a flood
 * the screen must not sit on the hot path. Bytes queue here and are handed to xterm in chunks,
 * within a CPU budget: at most SCREEN_BUSY_SHARE of each SCREEN_BUDGET_WINDOW_MS. Interactive
 * output (agents, prompts) costs far less than the budget and is parsed at once; a flood
 * exhausts it, the backlog grows, and past SCREEN_MAX_BACKLOG_BYTES its oldest bytes are dropped:
 * the screen then shows the newest output, which is what a person would see after a flood.
 */
import { Terminal } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import { Emitter, type Event } from '../base';
import type { ScreenCursor, ScreenView } from './types';

/** One xterm write: small enough to keep each parse slice around a millisecond. */
export const SCREEN_CHUNK_BYTES = 32 * 1024;
/** Backlog cap: older bytes are dropped. 1 MB re-creates any screen of line output. */
export const SCREEN_MAX_BACKLOG_BYTES = 1024 * 1024;
/**
 * Share of wall time the screen may parse. Interactive output needs a fraction of this; under a
 * flood every parsed byte competes with draining the PTY for a core (~80 MB/s each): the screen's
 * worker thread (screenPool.ts) shares the machine's cores with the main thread and the producer.
 */
export const SCREEN_BUSY_SHARE = 0.03;
/** Budget window: short enough that a budget pause never delays an agent's status by much. */
export const SCREEN_BUDGET_WINDOW_MS = 100;
/** While a backlog drains, observers still hear of changes at least this often. */
const CHANGE_EVENT_MAX_GAP_MS = 50;
/** Default scrollback lines kept by the headless screen. */
const DEFAULT_SCROLLBACK_LINES = 1_000;
/**
 * A program's report of its own state to the terminal: Codex CLI 0.169.0 writes
 * `ESC ] 7501 ; state=working:app=codex BEL` (`idle`, `working`, `blocked:…:kind=permission` or
 * `kind=question`, `done`) as its turn moves on, and `state=clear` when it exits.
 */
const AGENT_STATE_OSC = 7501;
const AGENT_STATE_CLEARED = 'state=clear';
/** DEC private mode 2026, synchronized output: the program brackets each frame with `?2026h` … `?2026l`. */
const SYNCHRONIZED_OUTPUT_MODE = 2026;
const FRAME_OPENS = '\x1b[?2026h';
const FRAME_CLOSES = '\x1b[?2026l';
/**
 * A frame still open after this long is shown as it is, as terminals do: a program that set the
 * mode and died (or never resets it) must not freeze the screen. Most frames close within a few ms; a
 * PTY read that splits one waits for the next read, which a loaded machine can delay by tens of ms.
 * The recorded CLIs keep a frame open across reads for 127 ms at most (docs/agent-status.md).
 */
export const SYNCHRONIZED_FRAME_MAX_MS = 250;

interface ScreenModelOptions {
  cols: number;
  rows: number;
  scrollback?: number;
}

interface Pending {
  data: Uint8Array | string;
  end: number;
}

export class ScreenModel implements ScreenView {
  private readonly term: Terminal;
  private readonly serializer = new SerializeAddon();
  private pending: Pending[] = [];
  private pendingBytes = 0;
  private isWriting = false;
  private writingEnd = 0;
  private lastChangeFiredAt = 0;
  private budgetWindowStart = 0;
  private budgetSpentMs = 0;
  private drainTimer: NodeJS.Timeout | undefined;
  private parsedOffset = 0;
  private droppedBytes = 0;
  private flushWaiters: Array<{ offset: number; resolve: (offset: number) => void }> = [];
  private disposed = false;
  private currentTitle = '';
  private currentAgentState = '';
  /** The last complete frame, kept while the program draws the next one inside synchronized output. */
  private frameBefore: { lines: string[]; cursor: ScreenCursor } | undefined;
  private frameTimer: NodeJS.Timeout | undefined;
  /** The chunk being parsed ends inside a frame: only then is the frame before worth keeping. */
  private chunkEndsMidFrame = false;

  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;
  private readonly titleChanged = new Emitter<string>();
  readonly onDidChangeTitle: Event<string> = this.titleChanged.event;
  private readonly agentStateChanged = new Emitter<string>();
  readonly onDidChangeAgentState: Event<string> = this.agentStateChanged.event;
  private readonly replied = new Emitter<string>();
  /** What a terminal answers to the program's queries (device attributes, cursor position, colours). */
  readonly onDidReply: Event<string> = this.replied.event;

  constructor(options: ScreenModelOptions) {
    this.term = new Terminal({
      cols: options.cols,
      rows: options.rows,
      scrollback: options.scrollback ?? DEFAULT_SCROLLBACK_LINES,
      allowProposedApi: true,
    });
    this.term.loadAddon(this.serializer);
    this.term.onData((reply) => this.replied.fire(reply));
    this.term.onTitleChange((title) => {
      this.currentTitle = title;
      this.titleChanged.fire(title);
    });
    this.term.parser.registerOscHandler(AGENT_STATE_OSC, (data) => {
      this.currentAgentState = data === AGENT_STATE_CLEARED ? '' : data;
      this.agentStateChanged.fire(this.currentAgentState);
      return true;
    });
    this.term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => {
      const opens = params.includes(SYNCHRONIZED_OUTPUT_MODE) && !this.term.modes.synchronizedOutputMode;
      if (opens && this.chunkEndsMidFrame) this.openFrame();
      return false; // xterm still sets the mode
    });
  }

  get cols(): number {
    return this.term.cols;
  }
  get rows(): number {
    return this.term.rows;
  }
  get title(): string {
    return this.currentTitle;
  }
  /** The program's last own state report (OSC 7501), '' when none came or it was cleared. */
  get agentState(): string {
    return this.currentAgentState;
  }
  /** The program asked for bracketed paste (ESC[?2004h): pasted text should be wrapped. */
  get isBracketedPasteMode(): boolean {
    return this.term.modes.bracketedPasteMode;
  }
  /** The ring offset the screen has parsed up to: output after it is still on its way. */
  get parsedUpTo(): number {
    return this.parsedOffset;
  }

  /** Bytes skipped under floods since creation (for diagnostics and benchmarks). */
  get skippedBytes(): number {
    return this.droppedBytes;
  }

  /** Queue bytes that end at ring offset `endOffset`; `skippedBefore` bytes before them were never sent (a flood). */
  write(data: Uint8Array | string, endOffset: number, skippedBefore = 0): void {
    if (this.disposed) return;
    this.droppedBytes += skippedBefore;
    this.pending.push({ data, end: endOffset });
    this.pendingBytes += data.length;
    if (this.pendingBytes > SCREEN_MAX_BACKLOG_BYTES) this.dropOldest();
    this.scheduleDrain(false);
  }

  /** Resolves once everything queued so far is parsed; returns the ring offset parsed up to. */
  flush(): Promise<number> {
    if (!this.isWriting && this.pending.length === 0) return Promise.resolve(this.parsedOffset);
    const target = this.pending.length > 0 ? this.pending[this.pending.length - 1].end : this.writingEnd;
    return new Promise((resolve) => {
      this.flushWaiters.push({ offset: target, resolve });
      this.scheduleDrain(true);
    });
  }

  resize(cols: number, rows: number): void {
    if (cols === this.term.cols && rows === this.term.rows) return;
    this.term.resize(cols, rows);
    this.frameBefore = undefined; // the frame before was drawn for the old size
    this.changed.fire();
  }

  /**
   * The program is drawing a frame inside synchronized output: readers see the frame before it (what
   * a terminal shows), and no change is announced until the frame closes or SYNCHRONIZED_FRAME_MAX_MS passes.
   */
  get isMidFrame(): boolean {
    return this.frameBefore !== undefined && this.term.modes.synchronizedOutputMode;
  }

  getVisibleLines(): string[] {
    if (this.isMidFrame) return [...this.frameBefore!.lines];
    return this.liveLines();
  }

  private liveLines(): string[] {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.term.rows; y++) {
      lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    }
    return lines;
  }

  /** All retained lines (scrollback + screen) as plain text. */
  getAllLines(): string[] {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return lines;
  }

  getCursor(): ScreenCursor {
    if (this.isMidFrame) return { ...this.frameBefore!.cursor };
    const buffer = this.term.buffer.active;
    return { x: buffer.cursorX, y: buffer.cursorY };
  }

  /** Lines of scrollback in the normal buffer (above the visible rows). */
  get scrollbackLength(): number {
    const buffer = this.term.buffer.normal;
    return Math.max(0, buffer.length - this.term.rows);
  }

  /** For a later app run: the normal buffer with its newest `maxLines` of scrollback, no terminal modes. */
  serializeForRestore(maxLines?: number): string {
    return this.serializer.serialize({
      excludeAltBuffer: true,
      excludeModes: true,
      ...(maxLines !== undefined ? { scrollback: maxLines } : {}),
    });
  }

  /** Screen contents and modes as an escape sequence stream a fresh xterm can replay. */
  serialize(): string {
    return this.serializer.serialize();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.drainTimer) clearTimeout(this.drainTimer);
    clearTimeout(this.frameTimer);
    for (const waiter of this.flushWaiters) waiter.resolve(this.parsedOffset);
    this.flushWaiters = [];
    this.changed.dispose();
    this.titleChanged.dispose();
    this.agentStateChanged.dispose();
    this.replied.dispose();
    this.term.dispose();
  }

  private dropOldest(): void {
    // One splice for the whole excess: the queue can hold thousands of small chunks under a flood.
    let count = 0;
    let excess = this.pendingBytes - SCREEN_MAX_BACKLOG_BYTES;
    while (excess > 0 && count < this.pending.length - 1) {
      excess -= this.pending[count].data.length;
      this.droppedBytes += this.pending[count].data.length;
      this.pendingBytes -= this.pending[count].data.length;
      count++;
    }
    if (count > 0) this.pending.splice(0, count);
  }

  private scheduleDrain(urgent: boolean): void {
    if (this.isWriting) return;
    if (urgent && this.drainTimer) {
      clearTimeout(this.drainTimer);
      this.drainTimer = undefined;
    }
    if (this.drainTimer) return;
    this.writeNextChunk();
  }

  private writeNextChunk(): void {
    this.drainTimer = undefined;
    if (this.disposed || this.pending.length === 0) return;
    const { chunk, end } = this.takeChunk();
    this.isWriting = true;
    this.writingEnd = end;
    this.chunkEndsMidFrame = endsMidFrame(chunk);
    const startedAt = performance.now();
    this.term.write(chunk, () => this.onChunkParsed(end, performance.now() - startedAt));
  }

  private takeChunk(): { chunk: Uint8Array | string; end: number } {
    const first = this.pending[0];
    if (first.data.length <= SCREEN_CHUNK_BYTES) {
      this.pending.shift();
      this.pendingBytes -= first.data.length;
      return { chunk: first.data, end: first.end };
    }
    // Split a large chunk; its interior offset is approximate, only the last slice carries `end`.
    const head = first.data.slice(0, SCREEN_CHUNK_BYTES);
    first.data = first.data.slice(SCREEN_CHUNK_BYTES);
    this.pendingBytes -= head.length;
    return { chunk: head, end: first.end - first.data.length };
  }

  private openFrame(): void {
    const buffer = this.term.buffer.active;
    this.frameBefore = { lines: this.liveLines(), cursor: { x: buffer.cursorX, y: buffer.cursorY } };
    clearTimeout(this.frameTimer);
    this.frameTimer = setTimeout(() => this.closeOverdueFrame(), SYNCHRONIZED_FRAME_MAX_MS);
  }

  /** The frame stayed open too long: show it as drawn so far. */
  private closeOverdueFrame(): void {
    this.frameTimer = undefined;
    if (this.disposed || this.frameBefore === undefined) return;
    this.frameBefore = undefined;
    this.fireChanged(performance.now());
  }

  /** After a parse: a frame the program closed is over; one still open holds the change back. */
  private settleFrame(): void {
    if (this.frameBefore === undefined || this.term.modes.synchronizedOutputMode) return;
    this.frameBefore = undefined;
    clearTimeout(this.frameTimer);
    this.frameTimer = undefined;
  }

  private fireChanged(now: number): void {
    this.lastChangeFiredAt = now;
    this.changed.fire();
  }

  private onChunkParsed(end: number, elapsedMs: number): void {
    this.isWriting = false;
    if (this.disposed) return;
    this.parsedOffset = end;
    this.settleFrame();
    this.resolveFlushWaiters();
    const now = performance.now();
    const isChangeDue = this.pending.length === 0 || now - this.lastChangeFiredAt > CHANGE_EVENT_MAX_GAP_MS;
    if (isChangeDue && !this.isMidFrame) this.fireChanged(now);
    if (this.pending.length === 0) return;
    const waitMs = this.spendBudget(now, elapsedMs);
    if (waitMs > 0 && this.flushWaiters.length === 0) {
      // Over budget under a flood: leave the thread to the PTY until the window ends.
      this.drainTimer = setTimeout(() => this.writeNextChunk(), waitMs);
      return;
    }
    this.writeNextChunk();
  }

  /** Records parse time; returns how long to wait before parsing more (0 = go on). */
  private spendBudget(now: number, elapsedMs: number): number {
    if (now - this.budgetWindowStart >= SCREEN_BUDGET_WINDOW_MS) {
      this.budgetWindowStart = now;
      this.budgetSpentMs = 0;
    }
    this.budgetSpentMs += elapsedMs;
    if (this.budgetSpentMs < SCREEN_BUSY_SHARE * SCREEN_BUDGET_WINDOW_MS) return 0;
    return Math.max(1, this.budgetWindowStart + SCREEN_BUDGET_WINDOW_MS - now);
  }

  private resolveFlushWaiters(): void {
    if (this.flushWaiters.length === 0) return;
    const ready = this.flushWaiters.filter((w) => w.offset <= this.parsedOffset);
    if (ready.length === 0) return;
    this.flushWaiters = this.flushWaiters.filter((w) => w.offset > this.parsedOffset);
    for (const waiter of ready) waiter.resolve(this.parsedOffset);
  }
}

/**
 * Whether a frame opened in `chunk` is still open at its end. Most frames open and close within one
 * PTY read; keeping the frame before (a copy of every row) only for those that do not keeps the
 * parse of an agent's output as cheap as without it.
 */
function endsMidFrame(chunk: Uint8Array | string): boolean {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const opened = text.lastIndexOf(FRAME_OPENS);
  return opened >= 0 && opened > text.lastIndexOf(FRAME_CLOSES);
}
