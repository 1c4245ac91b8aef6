/**
 * The entries as the façade shows them: each entry's decorations (built in decorator order, found
 * by key), its start-order gate and attention flag, `describe` composing them into ProcessInfo,
 * and entry changes coalesced into one `processChanged` per entry and frame.
 */
import { DisposableStore, Emitter, toDisposable, type Disposable, type Event } from '../base';
import {
  SessionManager,
  type DecorationKey,
  type DecoratorContext,
  type EntryDecoration,
  type EntryDecorator,
  type ProcessEntry,
  type PtySpawner,
} from '../sessions';
import type { EntryAccess, ProjectTrust } from '../trust';
import type { ProcessInfo, ProcessKind } from '../../../shared/model';
import type { ControlEvent } from '../../../shared/api';
import type { McpScope } from '../../../shared/trust';
import { SwitchboardError } from '../../../shared/errors';
import { isBlockedDetail } from '../../../shared/status';
import type { Gate } from './startOrder';
import { configKey } from './configKey';

/** Coalesce bursts of entry changes (title spinners, state flips) into one event per frame. */
const CHANGE_COALESCE_MS = 16;

/** The entries' sessions; each run's env, arguments and argv come from the entry's decorations, in order. */
export function decoratedSessions(
  options: { killGraceMs?: number; ringBytes?: number; ptys?: PtySpawner },
  decorationsOf: (id: string) => EntryDecoration[],
): SessionManager {
  return new SessionManager({
    killGraceMs: options.killGraceMs,
    ringBytes: options.ringBytes,
    ptys: options.ptys,
    envForRun: (entry) => decorationsOf(entry.id).reduce<Record<string, string>>((env, d) => ({ ...env, ...d.envForRun?.() }), {}),
    argsForRun: (entry) => decorationsOf(entry.id).flatMap((d) => d.argsForRun?.() ?? []),
    argvForRun: (entry, argv) => decorationsOf(entry.id).reduce((run, d) => d.argvForRun?.(run) ?? run, [...argv]),
    wrapRun: (entry, run) => decorationsOf(entry.id).reduce((wrapped, d) => d.wrapRun?.(wrapped) ?? wrapped, run),
  });
}

type Decorations = Map<DecorationKey<EntryDecoration>, EntryDecoration>;

interface EntryRecord {
  entry: ProcessEntry;
  /** In decorator order: later decorations override fields of earlier ones in describe(). */
  decorations: Decorations;
  /** The decorations and their listeners: rebuilt when the entry is redefined. */
  decorationStore: DisposableStore;
  /** Waiting for its dependencies, or kept from starting by one that failed. */
  gate?: Gate;
  attention?: ProcessInfo['attention'];
  wasWaiting?: boolean;
  store: DisposableStore;
}

interface EntryRegistryOptions {
  projectDir: string;
  sessions: SessionManager;
  access: EntryAccess;
  trust: ProjectTrust;
  emit(event: ControlEvent): void;
}

export class EntryRegistry implements Disposable {
  private readonly records = new Map<string, EntryRecord>();
  private readonly decorators: Array<{ key: DecorationKey<EntryDecoration>; decorator: EntryDecorator }> = [];
  private readonly store = new DisposableStore();
  private readonly changed = this.store.add(new Emitter<string>());
  private pendingChanges = new Set<string>();
  private changeTimer: NodeJS.Timeout | undefined;
  private muted = false;
  private selected: string | undefined;
  /** An entry's described state may have changed (coalesced, after its processChanged). */
  readonly onDidChangeEntry: Event<string> = this.changed.event;

  constructor(private readonly options: EntryRegistryOptions) {
    this.store.add(options.sessions.onDidAddEntry((entry) => this.track(entry)));
    this.store.add(options.sessions.onDidChangeEntry((entry) => this.markChanged(entry.id)));
    this.store.add(options.trust.onDidChange(() => this.trustChanged()));
  }

  get selectedId(): string | undefined {
    return this.selected;
  }

  addEntryDecorator<D extends EntryDecoration>(key: DecorationKey<D>, decorator: EntryDecorator<D>): Disposable {
    const registration = { key, decorator };
    this.decorators.push(registration);
    return toDisposable(() => this.decorators.splice(this.decorators.indexOf(registration), 1));
  }

  /** The entry's decoration under `key`, or undefined if that capability does not decorate it. */
  decorationOf<D extends EntryDecoration>(id: string, key: DecorationKey<D>): D | undefined {
    this.options.sessions.get(id);
    return this.records.get(id)?.decorations.get(key) as D | undefined;
  }

  /** The entry's decorations in order (each run's env, args and argv come from them). */
  decorationsOf(id: string): EntryDecoration[] {
    return [...(this.records.get(id)?.decorations.values() ?? [])];
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  describe(id: string): ProcessInfo {
    const record = this.records.get(id);
    const entry = this.options.sessions.get(id);
    let info = entry.info();
    // `info()` is a fresh object: decorations add to it in place instead of copying it once each.
    for (const decoration of record?.decorations.values() ?? []) Object.assign(info, decoration.describe());
    if (record?.attention) info.attention = record.attention;
    if (record?.gate) info = { ...info, state: record.gate.state, message: record.gate.message };
    const { access, trust } = this.options;
    const scopes = access.scopesOf(id, entry.definition.mcp?.scopes);
    const spawnedBy = access.spawnerOf(id);
    if (scopes.length > 0 || spawnedBy) info.access = { scopes, ...(spawnedBy ? { spawnedBy } : {}) };
    const held = entry.definition.configName ? trust.heldEntry(configKey(entry)) : undefined;
    if (held) info.trust = trust.changeOf(held);
    return info;
  }

  list(kind?: ProcessKind): ProcessInfo[] {
    return this.options.sessions
      .list()
      .filter((e) => !kind || e.kind === kind)
      .map((e) => this.describe(e.id));
  }

  gateOf(id: string): Gate | undefined {
    return this.records.get(id)?.gate;
  }

  setGate(id: string, gate: Gate | undefined): void {
    const record = this.records.get(id);
    if (!record || (record.gate === undefined && gate === undefined)) return;
    record.gate = gate;
    this.markChanged(id);
  }

  select(id: string): void {
    this.options.sessions.get(id);
    this.selected = id;
    this.options.emit({ type: 'processSelected', id });
  }

  requestAttention(id: string, reason: string, requestedBy: string): ProcessInfo {
    const record = this.records.get(id);
    this.options.sessions.get(id);
    if (!record) throw new SwitchboardError('unknown_process', `Unknown process id "${id}"`);
    record.attention = { reason, at: Date.now(), requestedBy };
    this.markChanged(id);
    this.options.emit({ type: 'attentionRequested', id, reason, title: record.entry.name });
    return this.describe(id);
  }

  acknowledgeAttention(id: string): void {
    const record = this.records.get(id);
    this.options.sessions.get(id);
    if (record?.attention) {
      record.attention = undefined;
      this.markChanged(id);
    }
  }

  /** Entries that need a person (dock badge): attention flags and agents waiting for an answer. */
  needsAttentionCount(): number {
    return this.list().filter((p) => p.attention || p.agent?.primary === 'waiting').length;
  }

  /** A person grants scopes to an entry's token (the UI); they last as long as the entry. */
  grantScopes(id: string, scopes: readonly McpScope[]): { id: string; scopes: McpScope[] } {
    this.options.sessions.get(id);
    this.options.access.grant(id, scopes);
    this.markChanged(id);
    return { id, scopes: this.scopesOf(id) };
  }

  scopesOf(id: string): McpScope[] {
    return this.options.access.scopesOf(id, this.options.sessions.get(id).definition.mcp?.scopes);
  }

  /** A redefined entry's rules apply from now on: its decorations are built again from the new definition. */
  rebuildDecorations(id: string): void {
    const record = this.records.get(id);
    if (!record) return;
    record.store.delete(record.decorationStore);
    record.decorationStore = record.store.add(new DisposableStore());
    record.decorations = this.decorate(record.entry, record.decorationStore);
    this.markChanged(id);
  }

  markChanged(id: string): void {
    if (this.muted) return;
    this.pendingChanges.add(id);
    this.changeTimer ??= setTimeout(() => this.flushChanges(), CHANGE_COALESCE_MS);
  }

  /** Shutdown begins: no more change events (the decorations live until dispose). */
  mute(): void {
    this.muted = true;
    if (this.changeTimer) clearTimeout(this.changeTimer);
  }

  dispose(): void {
    this.mute();
    for (const record of this.records.values()) record.store.dispose();
    this.records.clear();
    this.store.dispose();
  }

  /** Trust changed: every config entry may be held or released. */
  private trustChanged(): void {
    if (this.muted) return;
    this.options.emit({ type: 'trustChanged', trust: this.options.trust.state() });
    for (const entry of this.options.sessions.list()) if (entry.definition.configName) this.markChanged(entry.id);
  }

  private decorate(entry: ProcessEntry, store: DisposableStore): Decorations {
    const decorations: Decorations = new Map();
    const context: DecoratorContext = {
      projectDir: this.options.projectDir,
      earlier: <D extends EntryDecoration>(key: DecorationKey<D>) => decorations.get(key) as D | undefined,
    };
    for (const { key, decorator } of this.decorators) {
      const decoration = decorator(entry, context);
      if (!decoration) continue;
      decorations.set(key, store.add(decoration));
      store.add(decoration.onDidChange(() => this.markChanged(entry.id)));
    }
    return decorations;
  }

  private track(entry: ProcessEntry): void {
    const store = new DisposableStore();
    const decorationStore = store.add(new DisposableStore());
    const decorations = this.decorate(entry, decorationStore);
    this.records.set(entry.id, { entry, decorations, decorationStore, store });
    // A run that starts (by hand, a restart policy) is no longer gated.
    store.add(entry.onDidStartRun(() => this.setGate(entry.id, undefined)));
    this.options.emit({ type: 'processAdded', process: this.describe(entry.id) });
    const removal = this.options.sessions.onDidRemoveEntry((id) => {
      if (id !== entry.id) return;
      removal.dispose();
      store.dispose();
      this.records.delete(id);
      this.options.access.forget(id);
      this.pendingChanges.delete(id);
      if (this.selected === id) this.selected = undefined;
      this.options.emit({ type: 'processRemoved', id });
    });
    store.add(removal);
  }

  private flushChanges(): void {
    this.changeTimer = undefined;
    const ids = [...this.pendingChanges];
    this.pendingChanges.clear();
    for (const id of ids) {
      // sessions.close() drops the entry before processRemoved fires: a change queued in between must not throw from a timer.
      const record = this.records.get(id);
      if (!record || !this.options.sessions.find(id)) continue;
      const info = this.describe(id);
      this.options.emit({ type: 'processChanged', process: info });
      this.changed.fire(id);
      this.announceWaiting(record, info);
    }
  }

  /**
   * An agent that starts waiting for a person calls one (notification, badge), once per wait. A
   * blocked agent is announced by core/blocked, once per blocked episode, with its reason.
   */
  private announceWaiting(record: EntryRecord, info: ProcessInfo): void {
    const isWaiting = info.agent?.primary === 'waiting' && !isBlockedDetail(info.agent.detail);
    if (isWaiting && !record.wasWaiting) {
      const reason = info.agent?.detail === 'permission' ? 'Waiting for your permission' : 'Waiting for an answer';
      this.options.emit({ type: 'attentionRequested', id: info.id, reason, title: info.name });
    }
    record.wasWaiting = isWaiting;
  }
}
