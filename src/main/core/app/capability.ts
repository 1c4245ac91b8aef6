/**
 * How a capability joins the core: once, at the end of the core's constructor (before init, so no
 * entry exists yet), it registers what it adds — entry decorators, a service the façade forwards
 * to, listeners — and returns one disposable that undoes it. The composition root lists them.
 */
import type { Disposable } from '../base';
import type { EntryDecorator } from '../sessions';
import type { SwitchboardCore } from './switchboardCore';

export interface Capability {
  /** What it adds, for errors and docs (e.g. `readiness`). */
  readonly name: string;
  attach(core: SwitchboardCore): Disposable;
}

/** A capability that only decorates entries. */
export function entryDecoratorCapability(name: string, decorator: EntryDecorator): Capability {
  return { name, attach: (core) => core.addEntryDecorator(decorator) };
}
