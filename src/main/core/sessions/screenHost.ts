/**
 * The worker side of the screen protocol: one `ScreenModel` per screen id, fed by the main
 * thread's writes. After parsing changed a screen, its state (visible rows, cursor, title, modes,
 * offsets) is posted at most every STATE_MIN_GAP_MS, and only the parts that changed; a query
 * first posts the pending state, so the main thread has it when the answer arrives.
 */
import { ScreenModel } from './screenModel';
import {
  isSameView,
  type FromWorker,
  type QueryResults,
  type ScreenOptions,
  type ScreenQuery,
  type ScreenState,
  type ToWorker,
  type WriteItem,
} from './screenProtocol';

interface HostedScreen {
  model: ScreenModel;
  sent: ScreenState | undefined;
  /** Set while a rebuilt screen parses its replay: no state is posted and queries wait meanwhile. */
  rebuilt: Promise<unknown> | undefined;
  postedAt: number;
}

/**
 * A screen's state goes to the main thread at most this often (a query posts it at once): a
 * server logging in small writes changes its screen every turn, and each state costs the main
 * thread a deserialization and its listeners a recompute. One frame at 60 Hz.
 */
const STATE_MIN_GAP_MS = 16;

export class ScreenHost {
  private readonly screens = new Map<number, HostedScreen>();
  private readonly dirty = new Set<number>();
  private postTimer: NodeJS.Timeout | undefined;
  private postDueAt = 0;

  constructor(private readonly post: (message: FromWorker) => void) {}

  handle(message: ToWorker): void {
    switch (message.type) {
      case 'open':
        return this.open(message.screenId, message.options, message.replay);
      case 'write':
        return this.write(message.items, message.buffer);
      case 'resize':
        this.screens.get(message.screenId)?.model.resize(message.cols, message.rows);
        return;
      case 'query':
        void this.answer(message.screenId, message.requestId, message.query);
        return;
      case 'close':
        this.screens.get(message.screenId)?.model.dispose();
        this.screens.delete(message.screenId);
        this.dirty.delete(message.screenId);
        return;
    }
  }

  private open(screenId: number, options: ScreenOptions, replay?: { buffer: ArrayBuffer; end: number }): void {
    this.screens.get(screenId)?.model.dispose();
    const model = new ScreenModel(options);
    const hosted: HostedScreen = { model, sent: undefined, rebuilt: undefined, postedAt: -Infinity };
    this.screens.set(screenId, hosted);
    model.onDidChange(() => this.markDirty(screenId));
    model.onDidChangeTitle(() => this.markDirty(screenId));
    model.onDidChangeAgentState(() => this.markDirty(screenId));
    model.onDidReply((data) => this.post({ type: 'reply', screenId, data }));
    if (!replay) return;
    model.write(new Uint8Array(replay.buffer), replay.end);
    // Parsed at once, not within the flood budget: the main thread keeps the old state until then.
    hosted.rebuilt = model.flush().then(() => {
      hosted.rebuilt = undefined;
      this.markDirty(screenId);
    });
  }

  private write(items: WriteItem[], buffer: ArrayBuffer): void {
    let at = 0;
    for (const item of items) {
      this.screens.get(item.screenId)?.model.write(new Uint8Array(buffer, at, item.length), item.end, item.skipped);
      at += item.length;
    }
  }

  private async answer(screenId: number, requestId: number, query: ScreenQuery): Promise<void> {
    const screen = this.screens.get(screenId);
    if (!screen) return; // closed: the main side dropped its requests with it
    await screen.rebuilt;
    const value = await this.run(screen.model, query);
    if (this.screens.get(screenId) !== screen) return;
    this.postState(screenId);
    this.post({ type: 'result', screenId, requestId, value });
  }

  private async run(model: ScreenModel, query: ScreenQuery): Promise<QueryResults[ScreenQuery['kind']]> {
    switch (query.kind) {
      case 'flush':
        return model.flush();
      case 'serialize': {
        // Nothing parses between the flush resolving and this continuation: screen and offset agree.
        const offset = await model.flush();
        return { screen: model.serialize(), offset };
      }
      case 'serializeForRestore':
        return model.serializeForRestore(query.maxLines);
      case 'allLines':
        return model.getAllLines();
    }
  }

  private markDirty(screenId: number): void {
    this.dirty.add(screenId);
    this.schedulePosts(0);
  }

  private schedulePosts(delayMs: number): void {
    if (this.postTimer && this.postDueAt <= performance.now() + delayMs) return;
    clearTimeout(this.postTimer);
    this.postDueAt = performance.now() + delayMs;
    this.postTimer = setTimeout(() => this.postDueStates(), delayMs);
  }

  /** States of dirty screens whose last post is STATE_MIN_GAP_MS old; the others wait for their turn. */
  private postDueStates(): void {
    this.postTimer = undefined;
    const now = performance.now();
    let nextDueAt = Infinity;
    for (const id of [...this.dirty]) {
      const dueAt = (this.screens.get(id)?.postedAt ?? -Infinity) + STATE_MIN_GAP_MS;
      if (dueAt <= now) this.postState(id);
      else nextDueAt = Math.min(nextDueAt, dueAt);
    }
    if (nextDueAt !== Infinity) this.schedulePosts(nextDueAt - now);
  }

  /** Posts what changed since the last posted state, if anything did. */
  private postState(screenId: number): void {
    const screen = this.screens.get(screenId);
    if (!screen || screen.rebuilt || !this.dirty.delete(screenId)) return;
    const state = stateOf(screen.model);
    const previous = screen.sent;
    if (previous && sameLines(previous.lines, state.lines) && sameScalars(previous, state)) return;
    screen.sent = state;
    screen.postedAt = performance.now();
    const linesChanged = !previous || !sameLines(previous.lines, state.lines);
    this.post({ type: 'state', screenId, state: linesChanged ? state : { ...state, lines: undefined } });
  }
}

function stateOf(model: ScreenModel): ScreenState {
  return {
    cols: model.cols,
    rows: model.rows,
    title: model.title,
    agentState: model.agentState,
    cursor: model.getCursor(),
    isBracketedPasteMode: model.isBracketedPasteMode,
    parsedUpTo: model.parsedUpTo,
    scrollbackLength: model.scrollbackLength,
    skippedBytes: model.skippedBytes,
    lines: model.getVisibleLines(),
  };
}

function sameLines(a: string[] | undefined, b: string[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameScalars(a: ScreenState, b: ScreenState): boolean {
  return (
    isSameView(a, b) &&
    a.title === b.title &&
    a.agentState === b.agentState &&
    a.parsedUpTo === b.parsedUpTo &&
    a.scrollbackLength === b.scrollbackLength &&
    a.skippedBytes === b.skippedBytes
  );
}
