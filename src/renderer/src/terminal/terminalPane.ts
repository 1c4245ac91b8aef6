/**
 * One pane's xterm instance, outside React: output events are written straight into the
 * terminal and acknowledged from its write callback (flow control); React only mounts it.
 */
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { WebLinksAddon } from '@xterm/addon-web-links';
import type { ISearchOptions } from '@xterm/addon-search';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import type { ControlClient } from '../../../shared/api';
import { ACK_CHUNK_BYTES } from '../../../shared/flowControl';
import { forwardedUrl } from '../../../shared/ports';
import { run, useUi } from '../app/store';
import { THEMES, type ThemeName } from './themes';
import { findFileLinks } from './fileLinks';
import { PLATFORM, terminalKeyOf } from '../app/shortcuts';
import { PacedWriter } from './pacedWriter';
import { ActiveMatch, AnchoredSearchAddon } from './activeMatch';
import { isWebglWanted } from './webglSupport';
import { StreamCursor } from './streamCursor';
/** Wait for layout to settle before telling the PTY its new size. */
const RESIZE_DEBOUNCE_MS = 50;

/** Lines of history each pane keeps; a detached pane keeps none (the core holds the screen). */
const SCROLLBACK_LINES = 5000;

interface TerminalPaneOptions {
  fontSize: number;
  theme: ThemeName;
  /** Put a selection on the clipboard as soon as it is made (read at selection time). */
  copyOnSelect: () => boolean;
  /** Show the screen at the program's own size and take no keys (the phone view): the PTY is never resized from here. */
  readOnly?: boolean;
}

/** What a search found: `index` is 0-based, -1 when the active match is unknown; `count` -1 past the highlight limit. */
export interface SearchResults {
  index: number;
  count: number;
}

interface OutputEvent {
  /** Raw PTY bytes: xterm decodes UTF-8 itself, across chunk boundaries. */
  data: Uint8Array;
  start: number;
  end: number;
}

export class TerminalPane {
  readonly term: Terminal;
  private readonly fit = new FitAddon();
  private readonly activeMatch: ActiveMatch;
  private readonly search = new AnchoredSearchAddon(() => this.activeMatch);
  private readonly stream = new StreamCursor<OutputEvent>();
  private unacked = 0;
  private readonly writer: PacedWriter;
  private resizeTimer: number | undefined;
  private observer: ResizeObserver | undefined;
  private visibility: IntersectionObserver | undefined;
  private webgl: { dispose(): void } | undefined;
  private disposed = false;
  /** On screen (the IntersectionObserver's last word); a pane off screen takes no output from the core. */
  private isOnScreen = true;
  private isStreaming = false;

  constructor(
    readonly id: string,
    private readonly client: ControlClient,
    private readonly options: TerminalPaneOptions,
  ) {
    this.term = new Terminal({
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      fontSize: options.fontSize,
      scrollback: SCROLLBACK_LINES,
      allowProposedApi: true,
      theme: THEMES[options.theme].terminal,
      screenReaderMode: useUi.getState().screenReaderMode,
      disableStdin: options.readOnly === true,
    });
    this.writer = new PacedWriter({ write: (data, parsed) => this.term.write(data, parsed) }, (bytes) => this.ack(bytes));
    this.term.loadAddon(this.fit);
    this.term.loadAddon(this.search);
    this.activeMatch = new ActiveMatch(this.term);
    // Every search the addon runs, ours or its own after output and resizes, ends with its match selected.
    this.search.onDidChangeResults(() => this.activeMatch.remember());
    // A remote entry's printed URL opens its forward on this machine, like its header link.
    this.term.loadAddon(new WebLinksAddon((_event, uri) => openLink(forwardedUrl(uri, useUi.getState().processes[this.id]?.forwards))));
    // Emoji and CJK in agent UIs take two cells, as the programs drawing them expect.
    this.term.loadAddon(new Unicode11Addon());
    this.term.unicode.activeVersion = '11';
    this.term.registerLinkProvider(this.fileLinkProvider());
    this.term.attachCustomKeyEventHandler((event) => this.onKey(event));
    this.term.onSelectionChange(() => {
      if (this.activeMatch.findIsSelecting) return; // find selected its match: the user selected nothing
      if (this.options.copyOnSelect() && this.term.hasSelection()) void copyText(this.term.getSelection());
    });
    // Keys typed into a stopped pane cannot be delivered: say so instead of dropping them silently.
    this.term.onData((data) => {
      this.writer.keyTyped();
      void client.call('writeInput', { id, data }).catch((err: unknown) => {
        const reason = err instanceof Error ? err.message : String(err);
        useUi.getState().setError(`Input not delivered: ${reason}`);
      });
    });
  }

  /** Put the terminal into the DOM, pick a renderer, attach to the entry's stream. */
  async mount(container: HTMLElement): Promise<void> {
    this.term.open(container);
    this.term.element?.setAttribute('data-renderer', 'dom');
    // The pane with the keyboard draws its output every frame; the others at the background pace (pacedWriter.ts).
    this.term.textarea?.addEventListener('focus', () => (this.writer.pace = 'interactive'));
    this.term.textarea?.addEventListener('blur', () => (this.writer.pace = 'background'));
    this.observer = new ResizeObserver(() => this.scheduleFit());
    this.observer.observe(container);
    // Browsers cap live WebGL contexts (~16): only panes on screen hold one.
    // The last entry is the current state: several arrive at once when the pane moved in and out between callbacks.
    this.visibility = new IntersectionObserver((entries) => void this.setVisible(entries.at(-1)?.isIntersecting ?? false));
    this.visibility.observe(container);
    this.fitNow();
    await this.attach();
  }

  /**
   * Show the core's current screen and take output from there on. Also after a reconnect: the
   * screen replaces what the terminal showed, so nothing printed twice and nothing missed.
   */
  async attach(): Promise<void> {
    this.forgetStream();
    const token = this.stream.begin();
    this.isStreaming = true;
    const snapshot = await this.client.call('attach', { id: this.id });
    if (this.disposed) return;
    if (!this.isOnScreen) return this.stopStream(); // scrolled away while the snapshot was on its way
    const pending = this.stream.snapshotArrived(token, snapshot.offset);
    if (!pending) return; // a newer attach owns the terminal now
    this.term.reset();
    if (this.options.readOnly) this.term.resize(snapshot.cols, snapshot.rows);
    this.term.write(snapshot.screen);
    for (const event of pending) this.writer.write(event.data);
  }

  deliver(event: OutputEvent): void {
    if (this.disposed || !this.isStreaming) return;
    if (this.stream.accept(event)) this.writer.write(event.data);
  }

  focus(): void {
    this.term.focus();
  }

  setTheme(theme: ThemeName): void {
    if (!this.disposed) this.term.options.theme = THEMES[theme].terminal;
  }

  /**
   * Highlight every match and move to the next (or previous) one; false when nothing matches (the
   * addon then reports no new count). An invalid regex throws.
   */
  find(text: string, options: { caseSensitive: boolean; regex: boolean }, direction: 'next' | 'previous'): boolean {
    if (!text) {
      this.clearFind();
      return false;
    }
    const searchOptions: ISearchOptions = { ...options, decorations: FIND_DECORATIONS[currentThemeOf(this.term)] };
    if (options.regex) new RegExp(text); // a clear error instead of xterm's silent no-match
    return direction === 'next' ? this.search.findNext(text, searchOptions) : this.search.findPrevious(text, searchOptions);
  }

  onFindResults(listener: (results: SearchResults) => void): { dispose(): void } {
    return this.search.onDidChangeResults(({ resultIndex, resultCount }) => listener({ index: resultIndex, count: resultCount }));
  }

  clearFind(): void {
    this.activeMatch.forget();
    this.search.clearDecorations();
    this.term.clearSelection();
  }

  setFontSize(size: number): void {
    if (this.disposed || this.term.options.fontSize === size) return;
    this.term.options.fontSize = size;
    this.fitNow();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.observer?.disconnect();
    this.visibility?.disconnect();
    this.releaseWebgl();
    this.activeMatch.dispose();
    this.writer.dispose();
    window.clearTimeout(this.resizeTimer);
    // The pane is going away; a failed detach only means the entry is already gone.
    void this.client.call('detach', { id: this.id }).catch(() => undefined);
    this.term.dispose();
  }

  /** The terminal's own keys (find, copy, paste, select all: the keymap); everything else goes to the program. */
  private onKey(event: KeyboardEvent): boolean {
    if (event.type !== 'keydown') return true;
    const action = terminalKeyOf(event, PLATFORM);
    if (action === 'selectAll') {
      this.term.selectAll();
      event.preventDefault();
      return false;
    }
    if (action === 'find') {
      useUi.setState({ findPaneId: this.id });
      event.preventDefault();
      return false;
    }
    if (action === 'copy' && this.term.hasSelection()) {
      void copyText(this.term.getSelection());
      return false;
    }
    if (action === 'paste') {
      // paste() wraps the text in bracketed-paste markers when the program asked for them.
      void navigator.clipboard.readText().then(
        (text) => this.term.paste(text),
        () => useUi.getState().setError('Paste needs clipboard access: allow it for this page, or use the browser menu'),
      );
      event.preventDefault();
      return false;
    }
    return true;
  }

  /** `src/app.ts:42` in the output opens the file at that line in the editor the core runs. */
  private fileLinkProvider() {
    return {
      provideLinks: (bufferLine: number, callback: (links: import('@xterm/xterm').ILink[] | undefined) => void) => {
        const text = this.term.buffer.active.getLine(bufferLine - 1)?.translateToString(true) ?? '';
        const links = findFileLinks(text).map((link) => ({
          text: text.slice(link.start, link.end),
          range: { start: { x: link.start + 1, y: bufferLine }, end: { x: link.end, y: bufferLine } },
          activate: () => void run((c) => c.call('openInEditor', { path: link.path, line: link.line, column: link.column, id: this.id })),
        }));
        callback(links.length > 0 ? links : undefined);
      },
    };
  }

  private ack(bytes: number): void {
    this.unacked += bytes;
    if (this.unacked < ACK_CHUNK_BYTES) return;
    const chunk = this.unacked;
    this.unacked = 0;
    // An ack for an entry that closed has nothing left to unpause.
    void this.client.call('ackOutput', { id: this.id, bytes: chunk }).catch(() => undefined);
  }

  private scheduleFit(): void {
    window.clearTimeout(this.resizeTimer);
    this.resizeTimer = window.setTimeout(() => this.fitNow(), RESIZE_DEBOUNCE_MS);
  }

  private fitNow(): void {
    if (this.disposed || this.options.readOnly) return;
    const size = this.fit.proposeDimensions();
    if (!size || !Number.isFinite(size.cols) || size.cols < 2 || size.rows < 1) return;
    if (size.cols !== this.term.cols || size.rows !== this.term.rows) this.term.resize(size.cols, size.rows);
    // A stopped entry has no PTY to resize; the next run starts at the pane's size.
    void this.client.call('resizeProcess', { id: this.id, cols: size.cols, rows: size.rows }).catch(() => undefined);
  }

  /**
   * A pane mounted near the screen but not on it takes no output: xterm would parse every byte of
   * a flood nobody sees. Back on screen it shows the core's snapshot and streams from there.
   */
  private async setVisible(isVisible: boolean): Promise<void> {
    if (this.disposed) return;
    const wasOnScreen = this.isOnScreen;
    this.isOnScreen = isVisible;
    if (!isVisible) {
      if (wasOnScreen && this.isStreaming) this.stopStream();
      return this.releaseWebgl();
    }
    if (!this.isStreaming) await this.attach().catch(() => undefined);
    await this.useWebgl();
  }

  private stopStream(): void {
    this.isStreaming = false;
    this.forgetStream();
    // Detaching drops this viewer's flow-control backlog in the core; a failure means the entry is gone.
    void this.client.call('detach', { id: this.id }).catch(() => undefined);
  }

  /** Drops what the previous stream left: its offset, early events, unacknowledged and unwritten bytes. */
  private forgetStream(): void {
    this.stream.forget();
    this.unacked = 0;
    this.writer.clear();
  }

  /** WebGL for visible panes; the DOM renderer when hidden, or when a context is unavailable or lost. */
  private async useWebgl(): Promise<void> {
    if (this.disposed || !this.isOnScreen || this.webgl || !isWebglWanted()) return;
    try {
      const { WebglAddon } = await import('@xterm/addon-webgl');
      if (this.disposed || this.webgl) return;
      const webgl = new WebglAddon();
      webgl.onContextLoss(() => this.releaseWebgl());
      this.term.loadAddon(webgl);
      this.webgl = webgl;
      this.term.element?.setAttribute('data-renderer', 'webgl');
    } catch {
      this.term.element?.setAttribute('data-renderer', 'dom');
    }
  }

  private releaseWebgl(): void {
    this.webgl?.dispose();
    this.webgl = undefined;
    this.term.element?.setAttribute('data-renderer', 'dom');
  }
}

const FIND_DECORATIONS = {
  dark: {
    matchBackground: '#5c4a00',
    activeMatchBackground: '#b38600',
    matchOverviewRuler: '#b38600',
    activeMatchColorOverviewRuler: '#ffd33d',
  },
  light: {
    matchBackground: '#fff1a8',
    activeMatchBackground: '#ffc700',
    matchOverviewRuler: '#d4a72c',
    activeMatchColorOverviewRuler: '#9a6700',
  },
};

function currentThemeOf(term: Terminal): ThemeName {
  return term.options.theme?.background === THEMES.light.terminal.background ? 'light' : 'dark';
}

/** Clipboard writes fail without focus or permission: say so rather than lose the copy silently. */
async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    useUi.getState().setError('Copy needs clipboard access: allow it for this page');
  }
}

/** Only web links leave the app; Electron routes window.open to the system browser. */
export function openLink(uri: string): void {
  if (!/^https?:\/\//i.test(uri)) return;
  window.open(uri, '_blank', 'noopener,noreferrer');
}

/** id → pane, so output events reach terminals without React. */
export const panes = new Map<string, TerminalPane>();

/**
 * Read-only view of what each pane's terminal shows. The WebGL renderer draws on a canvas, so
 * end-to-end tests (and curious users in devtools) read the buffer through this.
 */
(window as unknown as { switchboardDebug: unknown }).switchboardDebug = {
  screenText(id: string): string {
    const term = panes.get(id)?.term;
    if (!term) return '';
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return lines.join('\n');
  },
  mountedPanes(): number {
    return panes.size;
  },
  rows(id: string): number | undefined {
    return panes.get(id)?.term.rows;
  },
  fontSize(id: string): number | undefined {
    return panes.get(id)?.term.options.fontSize;
  },
  terminalBackground(id: string): string | undefined {
    return panes.get(id)?.term.options.theme?.background;
  },
  /** Page coordinates of the middle of `text`'s first character on the pane's visible screen. */
  pointOf(id: string, text: string): { x: number; y: number } | undefined {
    const term = panes.get(id)?.term;
    const screen = term?.element?.querySelector('.xterm-screen')?.getBoundingClientRect();
    if (!term || !screen) return undefined;
    const buffer = term.buffer.active;
    for (let row = 0; row < term.rows; row++) {
      const col =
        buffer
          .getLine(buffer.viewportY + row)
          ?.translateToString(true)
          .indexOf(text) ?? -1;
      if (col < 0) continue;
      const cellWidth = screen.width / term.cols;
      const cellHeight = screen.height / term.rows;
      return { x: screen.left + (col + 0.5) * cellWidth, y: screen.top + (row + 0.5) * cellHeight };
    }
    return undefined;
  },
  renderer(id: string): string | null {
    return panes.get(id)?.term.element?.getAttribute('data-renderer') ?? null;
  },
  /** The next results the pane's find reports, the search addon's own refresh after output included. */
  nextFindResults(id: string): Promise<SearchResults> | undefined {
    const pane = panes.get(id);
    if (!pane) return undefined;
    return new Promise((resolve) => {
      const subscription = pane.onFindResults((results) => {
        subscription.dispose();
        resolve(results);
      });
    });
  },
};
