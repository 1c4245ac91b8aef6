/**
 * One connected viewer (an Electron window or a browser tab): forwards state events, forwards
 * output of the panes it attached, and accounts for its acknowledgements in flow control.
 * IPC and the WebSocket bridge both wrap this class; the renderer cannot tell them apart.
 */
import { randomBytes } from 'node:crypto';
import { DisposableStore } from '../base';
import type { CommandName, ControlEvent } from '../../../shared/api';
import { InvalidArgumentError } from '../../../shared/errors';
import type { SwitchboardCore } from '../app';
import { dispatchSharedCommand, isCommandName, parseCommandArgs, type CommandCore } from './commandDispatch';

/** What one client's session needs of the core: the commands, and the entries' events and flow control. */
type ClientCore = CommandCore & Pick<SwitchboardCore, 'entry' | 'findEntry' | 'onDidFlushOutput' | 'onEvent'>;

export class ControlClientSession {
  readonly viewerId = `viewer-${randomBytes(4).toString('hex')}`;
  private readonly attached = new Set<string>();
  private readonly store = new DisposableStore();

  constructor(
    private readonly core: ClientCore,
    private readonly emit: (event: ControlEvent) => void,
  ) {
    this.store.add(
      core.onEvent((event) => {
        if (event.type === 'processRemoved') this.attached.delete(event.id);
        this.emit(event);
      }),
    );
    this.store.add(
      core.onDidFlushOutput((batch) => {
        if (!this.attached.has(batch.id)) return;
        this.core.findEntry(batch.id)?.flow.sent(this.viewerId, batch.data.byteLength);
        this.emit({ type: 'output', id: batch.id, data: batch.data, start: batch.start, end: batch.end });
      }),
    );
  }

  /** Validate and run one command from this client. */
  async call(cmd: unknown, rawArgs: unknown): Promise<unknown> {
    if (!isCommandName(cmd)) throw new InvalidArgumentError(`Unknown command ${JSON.stringify(cmd)}`);
    const args = parseCommandArgs(cmd, rawArgs);
    return this.perClient(cmd, args) ?? dispatchSharedCommand(this.core, cmd, args);
  }

  dispose(): void {
    for (const id of this.attached) this.core.findEntry(id)?.removeViewer(this.viewerId);
    this.attached.clear();
    this.store.dispose();
  }

  private perClient(cmd: CommandName, args: unknown): Promise<unknown> | undefined {
    const { id } = args as { id: string };
    switch (cmd) {
      case 'attach':
        return this.attach(id);
      case 'detach':
        this.attached.delete(id);
        this.core.findEntry(id)?.removeViewer(this.viewerId);
        return Promise.resolve(null);
      case 'ackOutput':
        this.core.entry(id).flow.ack(this.viewerId, (args as { bytes: number }).bytes);
        return Promise.resolve(null);
      default:
        return undefined;
    }
  }

  private async attach(id: string) {
    const entry = this.core.entry(id);
    // Subscribe before the snapshot: batches flushed by attach() carry offsets ≤ snapshot.offset
    // and the client drops them; everything later is new to it.
    this.attached.add(id);
    entry.removeViewer(this.viewerId); // a re-attach starts with a clean flow-control backlog
    entry.addViewer(this.viewerId);
    return entry.attach();
  }
}
