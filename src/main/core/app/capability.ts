/** A capability that only decorates entries (readiness, restart policy, agent status and session). */
import type { Capability, Disposable } from '../base';
import type { DecorationKey, EntryDecoration, EntryDecorator } from '../sessions';

interface DecoratorHost {
  addEntryDecorator<D extends EntryDecoration>(key: DecorationKey<D>, decorator: EntryDecorator<D>): Disposable;
}

export function entryDecoratorCapability<D extends EntryDecoration>(
  name: string,
  key: DecorationKey<D>,
  decorator: EntryDecorator<D>,
): Capability<DecoratorHost> {
  return { name, attach: (core) => core.addEntryDecorator(key, decorator) };
}
