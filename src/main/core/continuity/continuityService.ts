/**
 * Continuity across app restarts and crashes: the project's entries, their run markers and agent
 * sessions are saved (atomically, shortly after every change) with each entry's scrollback (every
 * few seconds while output changes, and on quit). The next launch kills what a crashed run left
 * behind, brings the entries back with their ids (MCP identity, timers) and previous output, and
 * starts or resumes them per their `resume` policy.
 */
import { performance } from 'node:perf_hooks';
import { DisposableStore, toDisposable, type Event, type ServiceRegistry } from '../base';
import { isProcessAlive, killTree, RUN_MARKER_ENV, type DecorationKey, type EntryDecoration, type ProcessEntry } from '../sessions';
import { configKey, ENTRY_RESTORER, type EntryRestorer } from '../app';
import type { EntryAccess } from '../trust';
import { AGENT_SESSION } from '../agents';
import type { ProcessSpec, ResumePolicy } from '../../../shared/model';
import type { Settings } from '../../../shared/config';
import type { ControlEvent } from '../../../shared/api';

import { persistableSpec } from './persistedSpec';
import { serializeWithin } from './scrollbackBound';
import { STATE_VERSION, StateStore, type SavedEntry, type SavedState } from './stateStore';

/** Coalesces bursts of entry changes into one state write. */
const STATE_SAVE_DELAY_MS = 200;
/** While output changes, scrollback is saved this often (a crash loses at most this much of it). */
const SCROLLBACK_SAVE_INTERVAL_MS = 3_000;
/**
 * Periodic saves stay within ~5 % of one core: after a save that took N ms an entry is not saved
 * again for 20·N ms (a flooding entry with a big scrollback is saved less often, not the app slowed).
 */
const SAVE_COST_FACTOR = 20;
/** Default bound of an entry's saved scrollback (settings.savedScrollbackBytes). */
const DEFAULT_SAVED_SCROLLBACK_BYTES = 2 * 1024 * 1024;
/** Grace for leftovers of a crashed run before SIGKILL. */
const LEFTOVER_KILL_GRACE_MS = 1_000;
const DEFAULT_RESUME_POLICY: ResumePolicy = 'manual';

export interface RestoreReport {
  restored: number;
  leftoversKilled: number;
  problems: string[];
}

/** What continuity needs of the core (SwitchboardCore is one). */
export interface ContinuityHost {
  readonly projectDir: string;
  /** Where continuity provides itself as the core's restorer. */
  readonly services: Pick<ServiceRegistry, 'provide'>;
  /** Scopes a person granted and who spawned whom: saved and restored with each entry. */
  readonly access: Pick<EntryAccess, 'grant' | 'recordSpawn' | 'grantedTo' | 'spawnerOf'>;
  readonly settings: Readonly<Settings>;
  readonly onDidAddEntry: Event<ProcessEntry>;
  readonly onEvent: Event<ControlEvent>;
  entries(): ProcessEntry[];
  findEntry(id: string): ProcessEntry | undefined;
  decorationOf<D extends EntryDecoration>(id: string, key: DecorationKey<D>): D | undefined;
  /** An entry spawned at run time comes back with its id, started or resumed per its policy. */
  restoreEntry(spec: ProcessSpec, id: string): Promise<ProcessEntry>;
}

export class ContinuityService implements EntryRestorer {
  private readonly store = new DisposableStore();
  private readonly saved = new Map<string, SavedEntry>();
  private readonly idsByConfigKey = new Map<string, string>();
  private readonly awaitingLaunch = new Set<string>();
  private readonly restoredIds = new Set<string>();
  /**
   * Ring end each entry's saved screen was taken at, and whether the screen had parsed all of it
   * then (a final save re-takes a screen a periodic save took mid-parse).
   */
  private readonly savedEnds = new Map<string, { end: number; settled: boolean }>();
  private readonly scrollbackSavedAt = new Map<string, number>();
  private readonly nextSaveAt = new Map<string, number>();
  private previousSavedAt = 0;
  private saveTimer: NodeJS.Timeout | undefined;
  /** The pid each entry's state file entry was last written with: a new run is saved at once. */
  private readonly savedPids = new Map<string, number>();
  private isShutDown = false;
  /** Set once the previous run is fully back: a start that failed before must not overwrite its state. */
  private isSaving = false;
  private scrollbackSaving: Promise<void> | undefined;

  constructor(
    private readonly core: ContinuityHost,
    private readonly files: StateStore,
    private readonly onProblem: (message: string) => void = () => {},
  ) {}

  /** Before core.init: read the saved state, end leftovers of a crashed run, hook into entry creation. */
  async prepare(): Promise<RestoreReport> {
    const report: RestoreReport = { restored: 0, leftoversKilled: 0, problems: [] };
    const { state, problem } = this.files.load();
    if (problem) this.problem(report, problem);
    if (state) {
      this.previousSavedAt = state.savedAt;
      for (const saved of state.entries) {
        this.saved.set(saved.id, saved);
        if (saved.configKey) this.idsByConfigKey.set(saved.configKey, saved.id);
      }
      report.leftoversKilled = await this.killLeftovers(state, report);
    }
    this.files.removeOrphans(new Set(this.saved.keys()));
    this.store.add(this.core.services.provide(ENTRY_RESTORER, this));
    this.store.add(this.core.onDidAddEntry((entry) => this.restoreInto(entry)));
    return report;
  }

  /** After core.init: entries spawned at run time come back; then saving starts. */
  async restoreRuntimeEntries(report: RestoreReport): Promise<void> {
    const launches: Promise<unknown>[] = [];
    for (const saved of this.saved.values()) {
      if (saved.configKey || !saved.spec) continue;
      launches.push(this.core.restoreEntry(saved.spec, saved.id));
    }
    await Promise.all(launches);
    report.restored = [...this.restoredIds].filter((id) => this.core.findEntry(id)).length;
    this.startSaving();
  }

  idFor(key: string): string | undefined {
    return this.idsByConfigKey.get(key);
  }

  launchIntent(entry: ProcessEntry, autoStart: boolean): 'resume' | 'start' | 'none' | undefined {
    if (!this.awaitingLaunch.delete(entry.id)) return undefined;
    const saved = this.saved.get(entry.id)!;
    const policy = entry.definition.resume ?? this.core.settings.resume ?? DEFAULT_RESUME_POLICY;
    const relaunch = autoStart || (policy === 'auto' && saved.wasRunning);
    if (!relaunch) return 'none';
    return this.core.decorationOf(entry.id, AGENT_SESSION)?.info().resumable ? 'resume' : 'start';
  }

  /** The previous app run's output of an entry, as saved (escape sequences), or undefined. */
  previousOutput(id: string): string | undefined {
    return this.files.readPrevious(id);
  }

  /** Write everything now: state and every changed scrollback. */
  async saveNow(): Promise<void> {
    await this.saveScrollback(true);
    this.saveState();
  }

  /** Final save before the core stops its entries (their exits must not be saved as "not running"). */
  async shutdown(): Promise<void> {
    if (this.isShutDown) return;
    try {
      if (this.isSaving) await this.saveNow();
    } finally {
      this.isShutDown = true;
      if (this.saveTimer) clearTimeout(this.saveTimer);
      this.store.dispose();
    }
  }

  private restoreInto(entry: ProcessEntry): void {
    const saved = this.saved.get(entry.id);
    if (!saved || this.restoredIds.has(entry.id)) return;
    this.restoredIds.add(entry.id);
    this.awaitingLaunch.add(entry.id);
    this.core.decorationOf(entry.id, AGENT_SESSION)?.restore(saved.sessionId);
    if (saved.grantedScopes?.length) this.core.access.grant(entry.id, saved.grantedScopes);
    if (saved.spawnedBy) this.core.access.recordSpawn(entry.id, saved.spawnedBy);
    this.files.keepAsPrevious(entry.id);
    const previous = this.files.readPrevious(entry.id);
    entry.restoreOutput(previous ?? '', saved.scrollbackSavedAt ?? this.previousSavedAt);
  }

  private async killLeftovers(state: SavedState, report: RestoreReport): Promise<number> {
    if (state.pid !== process.pid && isProcessAlive(state.pid)) {
      this.problem(report, `The previous instance (pid ${state.pid}) still runs: its processes were left alone`);
      return 0;
    }
    const results = await Promise.all(
      state.entries
        .filter((e) => e.wasRunning && e.runMarker)
        .map((e) => killTree({ marker: { key: RUN_MARKER_ENV, value: e.runMarker! } }, 'SIGTERM', LEFTOVER_KILL_GRACE_MS)),
    );
    return results.reduce((sum, r) => sum + r.signalled, 0);
  }

  private startSaving(): void {
    this.isSaving = true;
    this.store.add(
      this.core.onEvent((event) => {
        if (event.type === 'processRemoved') {
          this.savedEnds.delete(event.id);
          this.savedPids.delete(event.id);
          this.files.removeEntryFiles(event.id);
        }
        if (event.type === 'processAdded' || event.type === 'processChanged') {
          // A new run (its run marker) is written at once: a crash right after a start must still
          // find the tree to kill. Other changes are coalesced.
          const pid = event.process.pid;
          if (pid !== undefined && this.savedPids.get(event.process.id) !== pid) {
            this.savedPids.set(event.process.id, pid);
            return this.saveStateNow();
          }
        }
        if (event.type === 'processAdded' || event.type === 'processChanged' || event.type === 'processRemoved') this.scheduleStateSave();
      }),
    );
    const interval = setInterval(
      () => void this.saveScrollback().catch((err) => this.onProblem(describe(err))),
      SCROLLBACK_SAVE_INTERVAL_MS,
    );
    interval.unref();
    this.store.add(toDisposable(() => clearInterval(interval)));
    this.saveState();
  }

  private saveStateNow(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.saveState();
  }

  private scheduleStateSave(): void {
    if (this.isShutDown) return;
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = undefined;
      this.saveState();
    }, STATE_SAVE_DELAY_MS);
  }

  private saveState(): void {
    if (this.isShutDown) return;
    const entries: SavedEntry[] = this.persistedEntries().map((entry) => {
      const session = this.core.decorationOf(entry.id, AGENT_SESSION);
      session?.refresh();
      // A worktree's instance is not recreated by the config: it comes back from its spec, like a spawned entry.
      const isConfig = entry.definition.configName !== undefined && entry.definition.worktree === undefined;
      return {
        id: entry.id,
        ...(isConfig ? { configKey: configKey(entry) } : { spec: persistableSpec(entry.definition) }),
        wasRunning: entry.isRunning,
        ...(entry.currentRunMarker ? { runMarker: entry.currentRunMarker } : {}),
        ...(session?.id ? { sessionId: session.id } : {}),
        ...(this.scrollbackSavedAt.has(entry.id) ? { scrollbackSavedAt: this.scrollbackSavedAt.get(entry.id) } : {}),
        ...accessOf(this.core, entry.id),
      };
    });
    try {
      this.files.save({ version: STATE_VERSION, savedAt: Date.now(), pid: process.pid, entries });
    } catch (err) {
      this.onProblem(`Could not save the entries' state: ${describe(err)}`);
    }
  }

  /** One save at a time: two in flight could rename an older screen over a newer one. */
  private saveScrollback(settled = false): Promise<void> {
    if (this.scrollbackSaving) {
      // The interval skips a turn; a final save waits for the one in flight, then writes what changed since.
      return settled ? this.scrollbackSaving.catch(() => undefined).then(() => this.saveScrollback(true)) : this.scrollbackSaving;
    }
    const saving = this.writeChangedScrollback(settled).finally(() => (this.scrollbackSaving = undefined));
    this.scrollbackSaving = saving;
    return saving;
  }

  private async writeChangedScrollback(settled: boolean): Promise<void> {
    if (this.isShutDown) return;
    const bound = this.core.settings.savedScrollbackBytes ?? DEFAULT_SAVED_SCROLLBACK_BYTES;
    let changed = false;
    for (const entry of this.persistedEntries()) {
      const end = entry.ring.end;
      const saved = this.savedEnds.get(entry.id);
      if ((saved?.end === end && (saved.settled || !settled)) || entry.isDisposed) continue;
      if (!settled && performance.now() < (this.nextSaveAt.get(entry.id) ?? 0)) continue;
      const startedAt = performance.now();
      // A periodic copy shows what the screen had parsed (it may lag the ring): bytes still on
      // their way to it are saved next time, not marked saved with this copy.
      const reflected = settled ? end : Math.min(end, entry.screen.parsedUpTo);
      const serialized = await serializeWithin(
        (lines) => entry.serializeScreen(lines, settled),
        entry.screen.scrollbackLength,
        entry.screen.cols,
        bound,
      );
      await this.files.saveScrollback(entry.id, serialized);
      // Closed while its file was being written: the close already removed its files.
      if (entry.isDisposed) this.files.removeEntryFiles(entry.id);
      const finishedAt = performance.now();
      this.nextSaveAt.set(entry.id, finishedAt + (finishedAt - startedAt) * SAVE_COST_FACTOR);
      this.savedEnds.set(entry.id, { end: reflected, settled });
      this.scrollbackSavedAt.set(entry.id, Date.now());
      changed = true;
      if (!settled) await yieldToEvents(); // PTY reads and tool calls go between entries
    }
    if (changed) this.scheduleStateSave();
  }

  /** Task entries are one-shot headless runs with their own result: they are not brought back. */
  private persistedEntries(): ProcessEntry[] {
    return this.core.entries().filter((entry) => entry.kind !== 'task');
  }

  private problem(report: RestoreReport, message: string): void {
    report.problems.push(message);
    this.onProblem(message);
  }
}

/** What a person granted the entry's token, and who spawned it: both last as long as the entry. */
function accessOf(core: ContinuityHost, id: string): Pick<SavedEntry, 'grantedScopes' | 'spawnedBy'> {
  const grantedScopes = core.access.grantedTo(id);
  const spawnedBy = core.access.spawnerOf(id);
  return { ...(grantedScopes.length > 0 ? { grantedScopes } : {}), ...(spawnedBy ? { spawnedBy } : {}) };
}

function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
