/**
 * Command entries get a ReadinessTracker as their decoration: it owns the entry's visible state
 * (starting → ready → running | error) and its port sightings.
 */
import { DisposableStore, Emitter, serviceKey } from '../base';
import { ReadinessTracker } from './readinessTracker';
import type { ProcessEntry } from '../sessions';
import type { ProcessInfo } from '../../../shared/model';
import type { DecorationKey, DecoratorContext, EntryDecoration, EntryDecorator } from '../sessions';

export class ReadinessDecoration implements EntryDecoration {
  private readonly store = new DisposableStore();
  private readonly changed = this.store.add(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  readonly tracker: ReadinessTracker;

  constructor(
    private readonly entry: ProcessEntry,
    context: DecoratorContext,
  ) {
    this.tracker = this.store.add(
      new ReadinessTracker(entry, entry.definition.ready, context.projectDir, {
        isStopRequested: () => entry.wasStopRequested,
      }),
    );
    this.store.add(this.tracker.onDidChange(() => this.changed.fire()));
    this.store.add(this.tracker.onDidChangePorts(() => this.changed.fire()));
    // Rebuilt on redefinition: the listener on the entry must go with this decoration.
    this.store.add(entry.onDidChange(() => this.changed.fire()));
  }

  describe(): Partial<ProcessInfo> {
    const readiness = this.tracker.info;
    // A spawn failure (command not found, bad cwd) never starts a run, so the tracker cannot see
    // it; the entry's own error is the truth then.
    if (!this.entry.isRunning && this.entry.state === 'error' && readiness.phase !== 'error') {
      return { readiness: { ...readiness, phase: 'error', message: this.entry.message }, ports: this.tracker.ports };
    }
    return { readiness, ports: this.tracker.ports, state: readiness.phase, message: readiness.message };
  }

  dispose(): void {
    this.store.dispose();
  }
}

/** Where the core and other decorations find an entry's readiness. */
export const READINESS: DecorationKey<ReadinessDecoration> = serviceKey('readiness');

export const readinessDecorator: EntryDecorator<ReadinessDecoration> = (entry, context) =>
  entry.kind === 'command' ? new ReadinessDecoration(entry, context) : undefined;
