/**
 * A decoration that shows one entry's slice of a service's state: it describes anew whenever the
 * service says that entry's state changed (the event carries the entry id).
 */
import { Emitter, type Disposable, type Event } from '../base';
import type { ProcessInfo } from '../../../shared/model';
import type { EntryDecoration } from './entryDecoration';

export class KeyedStateDecoration implements EntryDecoration {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: Disposable;

  constructor(
    entryId: string,
    onDidChangeEntry: Event<string>,
    readonly describe: () => Partial<ProcessInfo>,
  ) {
    this.subscription = onDidChangeEntry((id) => {
      if (id === entryId) this.changed.fire();
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
