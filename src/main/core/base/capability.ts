/**
 * How a capability joins the core: once, at the end of the core's constructor (before init, so no
 * entry exists yet), it registers what it adds — entry decorators, services under their keys,
 * listeners — and returns what undoes it, with the lifecycle steps it takes part in. `Host` is the
 * narrow part of the core the capability uses. The composition root lists them; the list's order
 * is the order of every step (docs/architecture.md).
 */
import type { Disposable } from './lifecycle';

export interface Capability<Host> {
  /** What it adds, for errors and docs (e.g. `readiness`). */
  readonly name: string;
  attach(host: Host): AttachedCapability;
}

/**
 * An attached capability. `init` runs every `beforeInit` in list order, creates the project's
 * entries, then every `afterInit` in list order; `dispose` runs every `beforeShutdown` in REVERSE
 * list order (the last attached stops first) while the entries still run, then stops the process
 * trees and disposes the capabilities.
 */
export interface AttachedCapability extends Disposable {
  /** Asynchronous set-up the project's entries need as they are created (an endpoint listening, the previous run read). */
  beforeInit?(): Promise<void>;
  /** Once the project's entries exist. */
  afterInit?(): Promise<void>;
  /** At shutdown, before any process tree goes down: stop taking work, save what must outlive the run. */
  beforeShutdown?(): Promise<void>;
}
