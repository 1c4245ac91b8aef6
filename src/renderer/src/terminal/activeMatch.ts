/**
 * Where find stands in one terminal. xterm's search addon starts "next" and "previous" from the
 * terminal's selection, and xterm clears the selection whenever the terminal's rows change
 * (opening the find bar itself, a window resize, a zoom) and when the user types. The addon then
 * refreshes its matches after output or a resize by searching backwards from the bottom, and the
 * next "next" starts from the top: find lands on the last or the first match instead of moving on.
 * The active match is kept on a marker (it follows the buffer as output scrolls and trims it) and
 * selected again whenever the selection is gone, so the addon continues from there.
 */
import type { IDisposable, IMarker, Terminal } from '@xterm/xterm';
import { SearchAddon } from '@xterm/addon-search';

export class ActiveMatch implements IDisposable {
  private marker: IMarker | undefined;
  private column = 0;
  /** Cells the match spans, across wrapped rows. */
  private length = 0;
  private bufferType: 'normal' | 'alternate' = 'normal';
  /** Nesting depth of find's own selection changes (a restore inside a search). */
  private findSelecting = 0;
  private readonly listeners: IDisposable[];

  constructor(private readonly term: Terminal) {
    this.listeners = [
      // xterm clears the selection after its resize listeners ran: put the match back once it did.
      term.onResize(() => queueMicrotask(() => this.restore())),
      // Typing clears the selection just before the keys go out; the addon refreshes its matches
      // 200 ms after output or a resize, searching from the selection or else from the bottom.
      term.onData(() => this.restore()),
      term.onWriteParsed(() => this.restore()),
    ];
  }

  /**
   * True while find moves the selection: a search selecting its match (the addon's own refresh
   * after output included) or the active match put back. Neither is a selection to copy.
   */
  get findIsSelecting(): boolean {
    return this.findSelecting > 0;
  }

  /** Run `change` as find's own selection change. */
  asFind<T>(change: () => T): T {
    this.findSelecting++;
    try {
      return change();
    } finally {
      this.findSelecting--;
    }
  }

  /** Take the terminal's selection as the active match (the search addon selects each match it goes to). */
  remember(): void {
    this.forget();
    const position = this.term.getSelectionPosition();
    if (!position) return;
    const buffer = this.term.buffer.active;
    // Markers are placed relative to the cursor's line.
    this.marker = this.term.registerMarker(position.start.y - (buffer.baseY + buffer.cursorY));
    this.column = position.start.x;
    this.length = (position.end.y - position.start.y) * this.term.cols + position.end.x - position.start.x;
    this.bufferType = buffer.type;
  }

  /** Select the active match again when nothing is selected; a selection the user made is left alone. */
  restore(): void {
    const marker = this.marker;
    if (!marker || marker.isDisposed || marker.line < 0 || this.term.hasSelection()) return;
    if (this.term.buffer.active.type !== this.bufferType) return; // the marker belongs to the other screen
    this.asFind(() => this.term.select(this.column, marker.line, this.length));
  }

  forget(): void {
    this.marker?.dispose();
    this.marker = undefined;
  }

  dispose(): void {
    this.forget();
    for (const listener of this.listeners) listener.dispose();
  }
}

/**
 * The search addon whose every search starts from the active match, the refresh it runs by itself
 * 200 ms after output or a resize included: a click into the terminal in that time drops the
 * selection with no output, key or resize after it to put the match back, and the refresh then
 * searched back from the bottom and made the last match the active one.
 */
export class AnchoredSearchAddon extends SearchAddon {
  constructor(private readonly activeMatch: () => ActiveMatch | undefined) {
    super();
  }

  // At run time `args` also holds the internal options of the addon's own refresh (noScroll): passed on as they came.
  override findNext(...args: Parameters<SearchAddon['findNext']>): boolean {
    return this.fromActiveMatch(() => super.findNext(...args));
  }

  override findPrevious(...args: Parameters<SearchAddon['findPrevious']>): boolean {
    return this.fromActiveMatch(() => super.findPrevious(...args));
  }

  /** The search selects its match, also over a selection the user made while find was open: that is not copied. */
  private fromActiveMatch(search: () => boolean): boolean {
    const match = this.activeMatch();
    if (!match) return search();
    return match.asFind(() => {
      match.restore();
      return search();
    });
  }
}
