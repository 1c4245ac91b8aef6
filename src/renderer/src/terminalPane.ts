/**
 * One pane's xterm instance, outside React: output events are written straight into the
 * terminal and acknowledged from its write callback (flow control); React only mounts it.
 */
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { WebLinksAddon } from '@xterm/addon-web-links';
import type { ControlClient } from '../../shared/api';

import { ACK_CHUNK_BYTES } from '../../shared/flowControl';
import { useUi } from './store';
/** Wait for layout to settle before telling the PTY its new size. */
const RESIZE_DEBOUNCE_MS = 50;

interface OutputEvent {
  /** Raw PTY bytes: xterm decodes UTF-8 itself, across chunk boundaries. */
  data: Uint8Array;
  start: number;
  end: number;
}

export class TerminalPane {
  readonly term: Terminal;
  private readonly fit = new FitAddon();
  private attachedOffset = -1;
  private early: OutputEvent[] = [];
  private unacked = 0;
  private resizeTimer: number | undefined;
  private observer: ResizeObserver | undefined;
  private visibility: IntersectionObserver | undefined;
  private webgl: { dispose(): void } | undefined;
  private disposed = false;

  constructor(
    readonly id: string,
    private readonly client: ControlClient,
  ) {
    this.term = new Terminal({
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      fontSize: useUi.getState().terminalFontSize,
      scrollback: 5000,
      allowProposedApi: true,
      theme: { background: '#0f1115' },
      screenReaderMode: useUi.getState().screenReaderMode,
    });
    this.term.loadAddon(this.fit);
    this.term.loadAddon(new WebLinksAddon((_event, uri) => openLink(uri)));
    // Keys typed into a stopped pane cannot be delivered: say so instead of dropping them silently.
    this.term.onData(
      (data) =>
        void client.call('writeInput', { id, data }).catch((err: unknown) => {
          const reason = err instanceof Error ? err.message : String(err);
          useUi.getState().setError(`Input not delivered: ${reason}`);
        }),
    );
  }

  /** Put the terminal into the DOM, pick a renderer, attach to the entry's stream. */
  async mount(container: HTMLElement): Promise<void> {
    this.term.open(container);
    this.term.element?.setAttribute('data-renderer', 'dom');
    this.observer = new ResizeObserver(() => this.scheduleFit());
    this.observer.observe(container);
    // Browsers cap live WebGL contexts (~16): only panes on screen hold one.
    this.visibility = new IntersectionObserver(([entry]) => void this.setVisible(entry?.isIntersecting ?? false));
    this.visibility.observe(container);
    this.fitNow();
    const snapshot = await this.client.call('attach', { id: this.id });
    if (this.disposed) return;
    this.term.reset();
    this.term.write(snapshot.screen);
    this.attachedOffset = snapshot.offset;
    for (const event of this.early) this.deliver(event);
    this.early = [];
  }

  deliver(event: OutputEvent): void {
    if (this.disposed) return;
    if (this.attachedOffset < 0) {
      this.early.push(event);
      return;
    }
    if (event.end <= this.attachedOffset) return; // already part of the snapshot
    this.term.write(event.data, () => this.ack(event.data.byteLength));
  }

  focus(): void {
    this.term.focus();
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
    window.clearTimeout(this.resizeTimer);
    // The pane is going away; a failed detach only means the entry is already gone.
    void this.client.call('detach', { id: this.id }).catch(() => undefined);
    this.term.dispose();
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
    if (this.disposed) return;
    const size = this.fit.proposeDimensions();
    if (!size || !Number.isFinite(size.cols) || size.cols < 2 || size.rows < 1) return;
    if (size.cols !== this.term.cols || size.rows !== this.term.rows) this.term.resize(size.cols, size.rows);
    // A stopped entry has no PTY to resize; the next run starts at the pane's size.
    void this.client.call('resizeProcess', { id: this.id, cols: size.cols, rows: size.rows }).catch(() => undefined);
  }

  /** WebGL for visible panes; the DOM renderer when hidden, or when a context is unavailable or lost. */
  private async setVisible(isVisible: boolean): Promise<void> {
    if (this.disposed) return;
    if (!isVisible) return this.releaseWebgl();
    if (this.webgl) return;
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
  renderer(id: string): string | null {
    return panes.get(id)?.term.element?.getAttribute('data-renderer') ?? null;
  },
};
