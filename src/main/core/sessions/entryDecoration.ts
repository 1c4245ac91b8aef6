/**
 * Capabilities (readiness, agent status, timers) decorate entries: each contributes fields to the
 * entry's ProcessInfo, says when they change, and may add to each run (env, arguments, argv). The
 * core composes them and finds one by its key; no capability knows the transports.
 */
import type { Disposable, Event, ServiceKey } from '../base';
import type { ProcessInfo } from '../../../shared/model';
import type { ProcessEntry } from './processEntry';
import type { RunCommand } from './types';

export interface EntryDecoration extends Disposable {
  describe(): Partial<ProcessInfo>;
  readonly onDidChange: Event<void>;
  /** Extra environment of every run (later decorations override earlier ones). */
  envForRun?(): Record<string, string>;
  /** Arguments appended to every run's argv. */
  argsForRun?(): string[];
  /** This run's argv from the one before it in the chain (session or resume arguments). */
  argvForRun?(argv: readonly string[]): string[];
  /** The run as it will be spawned, wrapped (a sandbox): its program resolved, every argument and the env in; throws to refuse the start. */
  wrapRun?(run: RunCommand): RunCommand;
}

/** The key a decoration is registered and found under: one decoration per key and entry. */
export type DecorationKey<D extends EntryDecoration> = ServiceKey<D>;

export interface DecoratorContext {
  projectDir: string;
  /** The entry's decoration under `key` if it was built before this one (a restart policy reads the readiness state). */
  earlier<D extends EntryDecoration>(key: DecorationKey<D>): D | undefined;
}

/** Returns a decoration for entries it applies to, undefined for the others. */
export type EntryDecorator<D extends EntryDecoration = EntryDecoration> = (entry: ProcessEntry, context: DecoratorContext) => D | undefined;
