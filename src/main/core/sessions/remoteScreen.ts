/**
 * An entry's screen as the main thread sees it while a worker parses it (screenPool.ts).
 *
 * Synchronous reads (visible rows, cursor, title, modes, offsets) come from the last state the
 * worker posted, which it posts after parsing changed the screen; the heavy reads (serialization,
 * every line) are queries answered asynchronously. A query outlives its worker: if the worker
 * dies, the screen is rebuilt from the entry's ring on a new one and the query is sent again.
 */
import { Emitter, type Event } from '../base';
import { SCREEN_MAX_BACKLOG_BYTES } from './screenModel';
import { isSameView, type QueryResults, type ScreenOptions, type ScreenQuery, type ScreenState, type ToWorker } from './screenProtocol';
import type { ScreenCursor, ScreenView } from './types';

/** What a remote screen needs from its pool. */
export interface ScreenChannel {
  send(screen: RemoteScreen, message: ToWorker, transfer?: ArrayBuffer[]): void;
  /** Bytes for the screen ending at ring offset `end`; `skipped` bytes before them are left out. */
  stage(screen: RemoteScreen, data: Uint8Array, end: number, skipped: number): void;
  /** A query is outstanding (true) or answered (false): the pool keeps the process alive meanwhile. */
  holdAlive(isHeld: boolean): void;
  release(screen: RemoteScreen): void;
}

/** The bytes a rebuilt screen replays: ring offsets [since, end) that are still retained. */
export type ReplaySource = (since: number, end: number) => Uint8Array;

interface PendingQuery {
  query: ScreenQuery;
  resolve: (value: never) => void;
}

/**
 * Bytes sent to the worker and not parsed yet, at most. Past it, a screen with a ring to read from
 * is fed as it parses (`feed`): a flood then costs a copy and a post of what the screen will
 * parse, a few MB/s within its budget, instead of every byte, most of which it would drop.
 * Above what a screen parses between two of its state posts, so a flood never waits on this.
 */
export const SCREEN_IN_FLIGHT_MAX_BYTES = 512 * 1024;

export class RemoteScreen implements ScreenView {
  private state: ScreenState;
  private lines: string[];
  /** Ring offset of the newest byte written, and of the newest byte sent to the worker. */
  private writtenEnd = 0;
  private sentEnd = 0;
  private nextRequestId = 1;
  private readonly pending = new Map<number, PendingQuery>();
  private isDisposed = false;

  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;
  private readonly titleChanged = new Emitter<string>();
  readonly onDidChangeTitle: Event<string> = this.titleChanged.event;
  private readonly agentStateChanged = new Emitter<string>();
  readonly onDidChangeAgentState: Event<string> = this.agentStateChanged.event;
  private readonly replied = new Emitter<string>();
  /** What a terminal answers to the program's queries (device attributes, cursor position, colours). */
  readonly onDidReply: Event<string> = this.replied.event;

  constructor(
    readonly id: number,
    private readonly options: ScreenOptions,
    private readonly channel: ScreenChannel,
    private readonly replay: ReplaySource | undefined,
  ) {
    this.lines = Array.from({ length: options.rows }, () => '');
    this.state = {
      cols: options.cols,
      rows: options.rows,
      title: '',
      agentState: '',
      cursor: { x: 0, y: 0 },
      isBracketedPasteMode: false,
      parsedUpTo: 0,
      scrollbackLength: 0,
      skippedBytes: 0,
    };
  }

  get cols(): number {
    return this.state.cols;
  }
  get rows(): number {
    return this.state.rows;
  }
  get title(): string {
    return this.state.title;
  }
  /** The program's last own state report (OSC 7501), '' when none came or it was cleared. */
  get agentState(): string {
    return this.state.agentState;
  }
  /** The program asked for bracketed paste (ESC[?2004h): pasted text should be wrapped. */
  get isBracketedPasteMode(): boolean {
    return this.state.isBracketedPasteMode;
  }
  /** The ring offset the screen has parsed up to: output after it is still on its way. */
  get parsedUpTo(): number {
    return this.state.parsedUpTo;
  }
  /** Lines of scrollback in the normal buffer (above the visible rows). */
  get scrollbackLength(): number {
    return this.state.scrollbackLength;
  }
  /** Bytes skipped under floods since creation (for diagnostics and benchmarks). */
  get skippedBytes(): number {
    return this.state.skippedBytes;
  }

  getVisibleLines(): string[] {
    return [...this.lines];
  }

  getCursor(): ScreenCursor {
    return { ...this.state.cursor };
  }

  /** Queue bytes that end at ring offset `endOffset`. */
  write(data: Uint8Array | string, endOffset: number): void {
    if (this.isDisposed) return;
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    const isCaughtUp = this.sentEnd === this.writtenEnd;
    this.writtenEnd = endOffset;
    if (!this.replay || (isCaughtUp && this.inFlight + bytes.length <= SCREEN_IN_FLIGHT_MAX_BYTES)) {
      this.channel.stage(this, bytes, endOffset, 0);
      this.sentEnd = endOffset;
    } else {
      this.feed(SCREEN_IN_FLIGHT_MAX_BYTES);
    }
  }

  /** Resolves once everything queued so far is parsed; returns the ring offset parsed up to. */
  flush(): Promise<number> {
    if (this.state.parsedUpTo >= this.writtenEnd || this.isDisposed) return Promise.resolve(this.state.parsedUpTo);
    return this.ask({ kind: 'flush' });
  }

  /** After a flush: the screen and its modes as an escape sequence stream, and the ring offset it reflects. */
  serialize(): Promise<QueryResults['serialize']> {
    return this.ask({ kind: 'serialize' });
  }

  /** For a later app run: the normal buffer with its newest `maxLines` of scrollback, no terminal modes. */
  serializeForRestore(maxLines?: number): Promise<string> {
    return this.ask({ kind: 'serializeForRestore', ...(maxLines !== undefined ? { maxLines } : {}) });
  }

  /** All retained lines (scrollback + screen) as plain text. */
  getAllLines(): Promise<string[]> {
    return this.ask({ kind: 'allLines' });
  }

  resize(cols: number, rows: number): void {
    if (this.isDisposed || (cols === this.options.cols && rows === this.options.rows)) return;
    this.options.cols = cols;
    this.options.rows = rows;
    this.state = { ...this.state, cols, rows };
    this.channel.send(this, { type: 'resize', screenId: this.id, cols, rows });
  }

  /** The worker posted what parsing changed. */
  applyState(state: ScreenState): void {
    if (this.isDisposed) return;
    const previous = this.state;
    this.state = state;
    this.feed(SCREEN_IN_FLIGHT_MAX_BYTES);
    if (state.lines) this.lines = state.lines;
    if (state.title !== previous.title) this.titleChanged.fire(state.title);
    if (state.agentState !== previous.agentState) this.agentStateChanged.fire(state.agentState);
    if (state.lines || !isSameView(previous, state)) this.changed.fire();
  }

  applyReply(data: string): void {
    if (!this.isDisposed) this.replied.fire(data);
  }

  applyResult(requestId: number, value: unknown): void {
    const query = this.pending.get(requestId);
    if (!query) return;
    this.pending.delete(requestId);
    this.channel.holdAlive(false);
    query.resolve(value as never);
  }

  /** Rebuilds the screen on a (new) worker: the retained output it had, then every unanswered query. */
  reopen(): void {
    if (this.isDisposed) return;
    // As much as a flood's backlog may hold: the newest output re-creates the screen.
    const since = Math.max(0, this.writtenEnd - SCREEN_MAX_BACKLOG_BYTES);
    // Even with no bytes to replay, the new screen starts at the offset written so far.
    const bytes = this.writtenEnd > 0 ? (this.replay?.(since, this.writtenEnd) ?? new Uint8Array(0)) : undefined;
    const replay = bytes ? { buffer: copyToOwnBuffer(bytes), end: this.writtenEnd } : undefined;
    this.sentEnd = this.writtenEnd;
    this.channel.send(
      this,
      { type: 'open', screenId: this.id, options: { ...this.options }, ...(replay ? { replay } : {}) },
      replay ? [replay.buffer] : [],
    );
    for (const [requestId, { query }] of this.pending) this.sendQuery(requestId, query);
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.channel.send(this, { type: 'close', screenId: this.id });
    this.channel.release(this);
    // Its entry is gone: queries still waiting get what the screen last had (empty where it is not kept).
    for (const [requestId, { query }] of [...this.pending]) this.applyResult(requestId, emptyResult(query, this.state.parsedUpTo));
    this.changed.dispose();
    this.titleChanged.dispose();
    this.agentStateChanged.dispose();
    this.replied.dispose();
  }

  /** Sent to the worker and not parsed yet (a skip counts until the worker parses past it: feeding waits a little longer). */
  private get inFlight(): number {
    return Math.max(0, this.sentEnd - this.state.parsedUpTo);
  }

  /**
   * Sends the ring's bytes the worker does not have yet, oldest first, as far as `maxInFlight`
   * allows. Of the bytes not sent, only the newest SCREEN_MAX_BACKLOG_BYTES are kept, as the
   * worker's own queue keeps them: older ones are skipped unsent, so the screen ends on the newest
   * output (a query sends all that is kept).
   */
  private feed(maxInFlight: number): void {
    if (!this.replay || this.sentEnd >= this.writtenEnd) return;
    const room = maxInFlight - this.inFlight;
    if (room <= 0) return;
    const from = Math.max(this.sentEnd, this.writtenEnd - SCREEN_MAX_BACKLOG_BYTES);
    const to = Math.min(this.writtenEnd, from + room);
    const bytes = this.replay(from, to); // fewer than asked if the ring no longer has the oldest
    this.channel.stage(this, bytes, to, to - bytes.length - this.sentEnd);
    this.sentEnd = to;
  }

  private ask<K extends ScreenQuery['kind']>(query: Extract<ScreenQuery, { kind: K }>): Promise<QueryResults[K]> {
    if (this.isDisposed) return Promise.resolve(emptyResult(query, this.state.parsedUpTo) as QueryResults[K]);
    this.feed(Infinity); // a query answers for everything written so far
    const requestId = this.nextRequestId++;
    return new Promise<QueryResults[K]>((resolve) => {
      this.pending.set(requestId, { query, resolve });
      this.channel.holdAlive(true);
      this.sendQuery(requestId, query);
    });
  }

  private sendQuery(requestId: number, query: ScreenQuery): void {
    this.channel.send(this, { type: 'query', screenId: this.id, requestId, query });
  }
}

function copyToOwnBuffer(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy.buffer;
}

function emptyResult(query: ScreenQuery, parsedUpTo: number): QueryResults[ScreenQuery['kind']] {
  switch (query.kind) {
    case 'flush':
      return parsedUpTo;
    case 'serialize':
      return { screen: '', offset: parsedUpTo };
    case 'serializeForRestore':
      return '';
    case 'allLines':
      return [];
  }
}
