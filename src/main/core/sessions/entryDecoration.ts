/**
 * Capabilities (readiness, agent status, timers) decorate entries: each contributes fields to the
 * entry's ProcessInfo and says when they change. The core composes them; no capability knows the
 * transports.
 */
import type { Disposable, Event } from '../base';
import type { ProcessInfo } from '../../../shared/model';
import type { ProcessEntry } from './processEntry';

export interface EntryDecoration extends Disposable {
  describe(): Partial<ProcessInfo>;
  readonly onDidChange: Event<void>;
}

export interface DecoratorContext {
  projectDir: string;
  /** The entry's decorations built before this one (a restart policy reads the readiness state). */
  earlier: readonly EntryDecoration[];
}

/** Returns a decoration for entries it applies to, undefined for the others. */
export type EntryDecorator = (entry: ProcessEntry, context: DecoratorContext) => EntryDecoration | undefined;
