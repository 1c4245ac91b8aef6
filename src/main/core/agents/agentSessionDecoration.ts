/**
 * The conversation identity of an agent entry: the session id of its current or last run, and
 * whether a stopped entry can continue it (Resume). Fresh runs of CLIs whose id Switchboard assigns
 * get a new UUID; ids the CLI picks itself are discovered from its session files.
 */
import { randomUUID } from 'node:crypto';
import { DisposableStore, Emitter, serviceKey } from '../base';
import type { ResumeSupport } from './agentPreset';
import { resolvePreset } from './resolvePreset';
import type { DecorationKey, EntryDecoration, ProcessEntry } from '../sessions';
import type { AgentSessionInfo, ProcessInfo } from '../../../shared/model';
import { InvalidArgumentError } from '../../../shared/errors';
import { argvForRun, type RunIntent } from './sessionArgs';
import { discoverSessionId, hasStoredConversation } from './sessionDiscovery';

/** While a discovered id is still unknown, look for it at most this often (on screen changes). */
const DISCOVERY_INTERVAL_MS = 1_000;

export class AgentSessionDecoration implements EntryDecoration {
  private readonly store = new DisposableStore();
  private readonly changed = this.store.add(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  private sessionId: string | undefined;
  /** Whether the CLI stored a conversation under the id, as of the last exit or restore. */
  private hasConversation = false;
  private resumeNext = false;
  private lastDiscoveryAt = 0;
  private runStartedAt = 0;

  constructor(
    private readonly entry: ProcessEntry,
    readonly support: ResumeSupport,
  ) {
    this.store.add(entry.onDidStartRun((run) => (this.runStartedAt = run.at)));
    this.store.add(
      entry.onDidExitRun(() => {
        this.discover(true);
        this.checkConversation();
        this.changed.fire();
      }),
    );
    this.store.add(entry.screen.onDidChange(() => this.discover(false)));
  }

  get id(): string | undefined {
    return this.sessionId;
  }

  describe(): Partial<ProcessInfo> {
    return { session: this.info() };
  }

  info(): AgentSessionInfo {
    const id = this.sessionId;
    if (!this.support.supported) return { resumable: false, reason: `${this.support.reason}` };
    if (!id) return { resumable: false, reason: this.entry.isRunning ? 'the session id is not known yet' : 'no conversation to resume' };
    if (this.entry.isRunning) return { id, resumable: false, reason: 'running' };
    if (!this.hasConversation) return { id, resumable: false, reason: 'no conversation was stored (the agent never took a turn)' };
    return { id, resumable: true };
  }

  /** The session of a previous app run (from the saved state). */
  restore(sessionId: string | undefined): void {
    if (!sessionId || this.entry.isRunning) return;
    this.sessionId = sessionId;
    this.checkConversation();
    this.changed.fire();
  }

  /** The next start continues the last conversation; throws if it cannot. */
  prepareResume(): void {
    const info = this.info();
    if (!info.resumable) throw new InvalidArgumentError(`Process ${this.entry.id} "${this.entry.name}" cannot be resumed: ${info.reason}`);
    this.resumeNext = true;
  }

  cancelResume(): void {
    this.resumeNext = false;
  }

  /** Asked at every start: this run's argv with session or resume arguments. */
  argvForRun(argv: readonly string[]): string[] {
    const intent = this.intentForNextRun();
    this.resumeNext = false;
    this.lastDiscoveryAt = 0;
    this.changed.fire();
    return argvForRun(this.support, argv, intent);
  }

  /** Look for a discovered id now (before saving state). */
  refresh(): void {
    this.discover(true);
  }

  dispose(): void {
    this.store.dispose();
  }

  private intentForNextRun(): RunIntent {
    if (this.resumeNext && this.sessionId) return { kind: 'resume', sessionId: this.sessionId };
    this.sessionId = this.support.supported && this.support.sessionId === 'assigned' ? randomUUID() : undefined;
    return { kind: 'fresh', sessionId: this.sessionId };
  }

  /** CLIs whose ids Switchboard assigns store a conversation only once one took place; discovered ids come from a stored one. */
  private checkConversation(): void {
    const id = this.sessionId;
    if (!this.support.supported || !id) return void (this.hasConversation = false);
    const transcript = this.support.transcript;
    this.hasConversation = !transcript || hasStoredConversation(transcript, id, this.entry.definition.env ?? {});
  }

  private discover(force: boolean): void {
    if (!this.support.supported || !this.support.sessionFile || this.sessionId || this.runStartedAt === 0) return;
    const now = Date.now();
    if (!force && now - this.lastDiscoveryAt < DISCOVERY_INTERVAL_MS) return;
    this.lastDiscoveryAt = now;
    const id = discoverSessionId(this.support.sessionFile, {
      pid: this.entry.pid,
      marker: this.entry.currentRunMarker || undefined,
      cwd: this.entry.cwd,
      startedAt: this.runStartedAt,
      env: this.entry.definition.env ?? {},
    });
    if (id) {
      this.sessionId = id;
      this.checkConversation();
      this.changed.fire();
    }
  }
}

/** Where the core and continuity find an agent entry's conversation identity. */
export const AGENT_SESSION: DecorationKey<AgentSessionDecoration> = serviceKey('agent session');

export function agentSessionDecorator(entry: ProcessEntry): AgentSessionDecoration | undefined {
  if (entry.kind !== 'agent') return undefined;
  return new AgentSessionDecoration(entry, resolvePreset(entry.definition.preset ?? entry.argv[0]).resume);
}
