/**
 * The id → entry map (VS Code's PtyService): creates entries, re-fires their events tagged
 * with the id, and shuts every tree down on dispose.
 */
import { randomBytes } from 'node:crypto';
import { Emitter, type Event } from '../base';
import { UnknownProcessError } from '../../../shared/errors';
import { ProcessIdSchema, type ProcessSpec } from '../../../shared/model';
import { ProcessEntry, type ProcessEntryOptions } from './processEntry';
import type { OutputBatch } from './outputBatcher';

interface SessionManagerOptions {
  ringBytes?: number;
  scrollback?: number;
  killGraceMs?: number;
  envForRun?: ProcessEntryOptions['envForRun'];
  argsForRun?: ProcessEntryOptions['argsForRun'];
  argvForRun?: ProcessEntryOptions['argvForRun'];
  wrapRun?: ProcessEntryOptions['wrapRun'];
  /** Where the entries' PTYs run (default: the shared PTY thread); a fake host in unit tests. */
  ptys?: ProcessEntryOptions['ptys'];
}

export interface TaggedBatch extends OutputBatch {
  id: string;
}

export class SessionManager {
  private readonly entries = new Map<string, ProcessEntry>();
  private disposed = false;

  private readonly added = new Emitter<ProcessEntry>();
  readonly onDidAddEntry: Event<ProcessEntry> = this.added.event;
  private readonly removed = new Emitter<string>();
  readonly onDidRemoveEntry: Event<string> = this.removed.event;
  private readonly changed = new Emitter<ProcessEntry>();
  readonly onDidChangeEntry: Event<ProcessEntry> = this.changed.event;
  private readonly batch = new Emitter<TaggedBatch>();
  readonly onDidFlushOutput: Event<TaggedBatch> = this.batch.event;

  constructor(private options: SessionManagerOptions = {}) {}

  /** New limits (switchboard.json `settings`) apply to entries created from now on. */
  configure(limits: Pick<SessionManagerOptions, 'ringBytes' | 'scrollback' | 'killGraceMs'>): void {
    this.options = { ...this.options, ...definedOnly(limits) };
  }

  /** A new entry; `id` keeps the identity it had in a previous app run (ignored if taken or malformed). */
  create(spec: ProcessSpec, id?: string): ProcessEntry {
    const usable = id !== undefined && ProcessIdSchema.safeParse(id).success && !this.entries.has(id);
    const entry = new ProcessEntry({ ...this.options, id: usable ? id : this.newId(), spec });
    this.entries.set(entry.id, entry);
    entry.onDidChange(() => this.changed.fire(entry));
    entry.onDidFlushOutput((b) => this.batch.fire({ ...b, id: entry.id }));
    this.added.fire(entry);
    return entry;
  }

  get(id: string): ProcessEntry {
    const entry = this.entries.get(id);
    if (!entry) throw new UnknownProcessError(id);
    return entry;
  }

  find(id: string): ProcessEntry | undefined {
    return this.entries.get(id);
  }

  list(): ProcessEntry[] {
    return [...this.entries.values()];
  }

  async close(id: string): Promise<void> {
    const entry = this.get(id);
    this.entries.delete(id);
    await entry.close();
    this.removed.fire(id);
  }

  /** SIGKILL every tree synchronously (second signal during a slow stop, fatal errors). */
  killAllNow(): void {
    for (const entry of this.entries.values()) entry.killNow();
  }

  /** Stops every tree (in parallel) and releases everything. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await Promise.allSettled(this.list().map((entry) => entry.close()));
    this.entries.clear();
    for (const emitter of [this.added, this.removed, this.changed, this.batch]) emitter.dispose();
  }

  private newId(): string {
    for (;;) {
      const id = `p_${randomBytes(3).toString('hex')}`;
      if (!this.entries.has(id)) return id;
    }
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
