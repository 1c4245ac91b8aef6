/**
 * One agent entry's usage: the files its runs' sessions wrote (a fresh run starts a new one, a
 * resumed run goes on in its old one), each read from where the last read stopped, summed. Read
 * again when the current file changes (watched), when the agent's status changes (a turn started
 * or ended, or the file is not found yet) and whenever asked.
 */
import { watch, type FSWatcher } from 'node:fs';
import { DisposableStore, Emitter, serviceKey } from '../base';
import { AGENT_SESSION, AGENT_STATUS, presetOf, type AgentPreset } from '../agents';
import type { DecorationKey, EntryDecoration, EntryDecorator, ProcessEntry } from '../sessions';
import type { ProcessInfo } from '../../../shared/model';
import type { UsageRecord, UsageWindow } from '../../../shared/usage';
import { JsonlTail } from './jsonlTail';
import { toUsageRecord } from './pricing';
import { addModelTokens, addTokens, emptyReadUsage, type ReadUsage, type UsageAccumulator } from './usageAccumulator';
import { USAGE_SOURCES, type UsageSource } from './usageSources';
import type { FileObservation } from './usageHistory';
import { DiscoveredSession } from './discoveredSession';
import { HookTranscript } from './hookTranscript';
import { PostedRecords } from './postedRecords';

/** Told what each session file adds up to after a read that moved (the history counts the gains). */
type UsageObserver = (observations: FileObservation[], record: UsageRecord, entry: ProcessEntry) => void;

interface SessionFile {
  tail: Pick<JsonlTail, 'read'>;
  accumulator: UsageAccumulator;
}

/**
 * Whose spending a day budget counts, the same after an app restart and a rename: a
 * switchboard.json agent by its name there and its worktree, any other by its entry id.
 */
export function spendKeyOf(entry: Pick<ProcessEntry, 'id' | 'definition'>): string {
  const { configName, worktree } = entry.definition;
  return configName ? `${worktree ?? 'main'}/${configName}` : entry.id;
}

export class AgentUsage implements EntryDecoration {
  private readonly store = new DisposableStore();
  private readonly changed = this.store.add(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  /** By path, in the order the runs used them (the last is the current one). */
  private readonly files = new Map<string, SessionFile>();
  /** A posted source's runs, by the key they have in `files`. */
  private readonly postedRuns = new Map<string, PostedRecords>();
  private last: UsageRecord;
  private watcher: FSWatcher | undefined;
  /** Windows the CLI reported beside its files (Claude Code's status line); they replace the files' own. */
  private reported: UsageWindow[] | undefined;

  constructor(
    private readonly entry: ProcessEntry,
    private readonly preset: AgentPreset,
    private readonly source: UsageSource,
    private readonly sessionId: () => string | undefined,
    private readonly observer: UsageObserver = () => undefined,
  ) {
    this.last = toUsageRecord(emptyReadUsage(), null);
  }

  /** Follows the agent's status: each change is a moment the CLI may have written a record. */
  followStatus(onStatus: (listener: () => void) => { dispose(): void }): void {
    this.store.add(onStatus(() => this.refresh()));
    this.store.add(this.entry.onDidExitRun(() => this.refresh()));
  }

  describe(): Partial<ProcessInfo> {
    return { usage: this.last };
  }

  /** Reads what the CLI appended and returns the record (firing a change when it moved). */
  refresh(): UsageRecord {
    this.findCurrentFile();
    let moved = false;
    for (const file of this.files.values()) {
      const { records, restarted } = file.tail.read();
      if (restarted) file.accumulator = this.source.accumulator();
      for (const record of records) file.accumulator.push(record);
      moved ||= records.length > 0 || restarted;
    }
    if (moved) this.publish(toUsageRecord(this.sum(), this.files.size ? this.source.label : null));
    return this.last;
  }

  /**
   * Windows the CLI reported outside its files. The CLI reports often (every status-line update):
   * the same windows again change nothing, so only a moved window reaches the record and warnings.
   */
  reportWindows(windows: UsageWindow[]): void {
    if (JSON.stringify(windows) === JSON.stringify(this.reported)) return;
    this.reported = windows;
    this.publish(this.last);
  }

  /**
   * A record the agent's own plugin posted (a source that is `posted`). A run's records add up
   * under a key of their own (the run's start), so history counts a new run from zero.
   */
  post(record: unknown): void {
    if (!this.source.posted) return;
    const key = `${this.source.label} of ${this.entry.id} started ${this.entry.startedAt ?? 0}`;
    let run = this.postedRuns.get(key);
    if (!run) {
      run = new PostedRecords();
      this.postedRuns.set(key, run);
      this.files.set(key, { tail: run, accumulator: this.source.accumulator() });
    }
    run.push(record);
    this.refresh();
  }

  /** Disposed with this. */
  own(disposable: { dispose(): void }): void {
    this.store.add(disposable);
  }

  get record(): UsageRecord {
    return this.last;
  }

  get presetId(): string {
    return this.preset.id;
  }

  dispose(): void {
    this.watcher?.close();
    this.store.dispose();
  }

  private publish(record: UsageRecord): void {
    this.last = this.reported ? { ...record, windows: this.reported } : record;
    this.observer(this.observations(), this.last, this.entry);
    this.changed.fire();
  }

  private observations(): FileObservation[] {
    return [...this.files].map(([path, file]) => {
      const read = file.accumulator.current();
      const cost_usd = toUsageRecord(read, null).cost_usd;
      return { path, ...read.tokens, cost_usd, worktree: this.entry.definition.worktree, agent: spendKeyOf(this.entry) };
    });
  }

  private findCurrentFile(): void {
    const id = this.sessionId();
    if (!id) return;
    const known = [...this.files.keys()].some((path) => path.includes(id));
    if (known) return;
    const path = this.source.locate?.(this.preset, id, this.entry.definition.env ?? {});
    if (!path) return;
    this.files.set(path, { tail: new JsonlTail(path), accumulator: this.source.accumulator() });
    this.watch(path);
  }

  /** Only the current file is watched: the CLI writes to one at a time. */
  private watch(path: string): void {
    this.watcher?.close();
    try {
      this.watcher = watch(path, () => this.refresh());
      this.watcher.on('error', () => undefined); // a lost watch leaves the status changes and asks
    } catch {
      this.watcher = undefined;
    }
  }

  /** Tokens and cost add up over the files; the model, context and windows are the current file's. */
  private sum(): ReadUsage {
    const reads = [...this.files.values()].map((f) => f.accumulator.current());
    const total = emptyReadUsage();
    let cliCost: number | undefined = 0;
    for (const read of reads) {
      addTokens(total.tokens, read.tokens);
      for (const [model, tokens] of read.byModel) addModelTokens(total.byModel, model, tokens);
      cliCost = cliCost === undefined || read.cliCostUsd === undefined ? undefined : cliCost + read.cliCostUsd;
    }
    const current = reads.at(-1);
    if (!current) return total;
    return {
      ...total,
      ...(cliCost !== undefined ? { cliCostUsd: cliCost } : {}),
      ...(current.model ? { model: current.model } : {}),
      ...(current.contextUsed !== undefined ? { contextUsed: current.contextUsed } : {}),
      ...(current.contextWindow !== undefined ? { contextWindow: current.contextWindow } : {}),
      windows: current.windows,
    };
  }
}

export const AGENT_USAGE: DecorationKey<AgentUsage> = serviceKey('agent usage');

/** Agent entries whose preset has a usage source; follows the agent status decorated before it. */
export const agentUsageDecorator =
  (observer: UsageObserver): EntryDecorator<AgentUsage> =>
  (entry, context) => {
    if (entry.kind !== 'agent') return undefined;
    const preset = presetOf(entry);
    const source = USAGE_SOURCES[preset.id];
    if (!source || preset.isGeneric) return undefined;
    const session = context.earlier(AGENT_SESSION);
    const tracker = context.earlier(AGENT_STATUS)?.tracker;
    const discovered = source.discover ? new DiscoveredSession(entry, source.discover) : undefined;
    const hooked =
      source.hookTranscript && tracker
        ? new HookTranscript(entry.onDidStartRun, tracker.onDidReceiveHook, source.hookTranscript)
        : undefined;
    const usage = new AgentUsage(entry, preset, source, () => session?.id ?? discovered?.id ?? hooked?.id, observer);
    if (discovered) usage.own(discovered);
    if (hooked) usage.own(hooked);
    usage.followStatus((listener) => (tracker ? tracker.onDidChangeStatus(listener) : entry.onDidStartRun(listener)));
    return usage;
  };
