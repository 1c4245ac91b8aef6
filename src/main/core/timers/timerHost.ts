/**
 * What the timer manager needs from the rest of the core, as a narrow interface: entries with
 * their run and agent status, their changes and removal, and a way to type a user turn. The core
 * adapter below is the only place that knows the core (through `TimerCoreHost`); unit tests drive a
 * fake host.
 */
import { DisposableStore, Emitter, type Disposable, type Event } from '../base';
import { AGENT_STATUS, presetOf, type AgentStatusDecoration } from '../agents';
import { classify } from '../status';
import { TURN_GATE, type DecorationKey, type ProcessEntry, type TurnGate } from '../sessions';
import type { ServiceRegistry } from '../base';
import type { DeliveryHold } from '../../../shared/budget';
import type { ProcessInfo, ProcessKind } from '../../../shared/model';
import type { ControlEvent } from '../../../shared/api';
import { isBlockedDetail, type AgentPrimary, type AgentStatusInfo } from '../../../shared/status';

export interface TimerEntry {
  id: string;
  name: string;
  kind: ProcessKind;
  configName?: string;
  /** Increments with every start; a new run makes an agent fresh again. */
  runId: number;
  isRunning: boolean;
  /** Agent entries only: the status primary (docs/agent-status.md). */
  agentStatus?: AgentPrimary;
  /** Agent entries blocked on a limit, sign-in, … : why, in the CLI's words ("limit: …"). */
  blockedReason?: string;
}

export interface TimerHost {
  listEntries(): TimerEntry[];
  findEntry(id: string): TimerEntry | undefined;
  /** An entry appeared or changed (run state, agent status, name). */
  readonly onDidChangeEntry: Event<TimerEntry>;
  /** An entry was closed. */
  readonly onDidRemoveEntry: Event<string>;
  /**
   * Why an agent is blocked (its `blockedReason`), read from its status alone: a timer's summary
   * asks it while an entry is being described, so it must not describe entries itself.
   */
  blockedReason(id: string): string | undefined;
  /** Types `text` into the entry as a fresh user turn (text, then Enter as a separate write). */
  deliver(id: string, text: string): Promise<void>;
  /**
   * Agents: the screen itself shows the idle prompt. The status can say idle a moment earlier
   * (Claude Code's Stop hook fires before its UI takes input again, and text typed then is queued
   * and can end up merged with the next prompt), so delivery waits for the screen as well.
   */
  isAtPrompt(id: string): boolean;
  /** Every screen change of the entry; subscribe only while waiting for the prompt. */
  onScreenChanged(id: string, listener: () => void): Disposable;
  /** Asks the turn gate (the budget) whether a body may go to the owner now; undefined: it may. */
  admit(id: string): DeliveryHold | undefined;
  /** A due body is held for the owner (+1), or no longer (-1): the gate counts what it holds. */
  countHeld(id: string, delta: 1 | -1): void;
  /** The owner's hold may have changed: held bodies try again. */
  readonly onDidChangeHold: Event<string>;
}

/** The part of the core the adapter reads (SwitchboardCore is one). */
export interface TimerCoreHost {
  readonly onEvent: Event<ControlEvent>;
  listProcesses(): ProcessInfo[];
  findEntry(id: string): ProcessEntry | undefined;
  describe(id: string): ProcessInfo;
  sendUserTurn(id: string, text: string): Promise<void>;
  decorationOf(id: string, key: DecorationKey<AgentStatusDecoration>): AgentStatusDecoration | undefined;
  readonly services: ServiceRegistry;
}

function timerEntryOf(info: ProcessInfo): TimerEntry {
  return {
    id: info.id,
    name: info.name,
    kind: info.kind,
    configName: info.configName,
    runId: info.runId,
    isRunning: info.pid !== undefined,
    agentStatus: info.agent?.primary,
    ...(info.agent && isBlockedDetail(info.agent.detail) && { blockedReason: blockedReasonOf(info.agent) }),
  };
}

/** "limit: You've hit your session limit · resets 3pm" — the detail and the CLI's own line. */
function blockedReasonOf(agent: AgentStatusInfo): string {
  return `${agent.detail}: ${agent.blocked?.message ?? agent.reason}`;
}

/**
 * The host over the real core. Changes come from the core's coalesced processChanged events,
 * which carry the latest state at flush time: a restart (exit, then start within the same turn
 * of the event loop) therefore never shows the owner as dead.
 */
export class CoreTimerHost implements TimerHost, Disposable {
  private readonly store = new DisposableStore();
  private readonly changed = this.store.add(new Emitter<TimerEntry>());
  private readonly removed = this.store.add(new Emitter<string>());
  readonly onDidChangeEntry: Event<TimerEntry> = this.changed.event;
  readonly onDidRemoveEntry: Event<string> = this.removed.event;
  private readonly holdChanged = this.store.add(new Emitter<string>());
  readonly onDidChangeHold: Event<string> = this.holdChanged.event;

  constructor(private readonly core: TimerCoreHost) {
    // The gate's capability is listed before the timers: it exists when this host is made.
    const gate = this.gate();
    if (gate) this.store.add(gate.onDidChange((id) => this.holdChanged.fire(id)));
    this.store.add(
      core.onEvent((event) => {
        if (event.type === 'processAdded' || event.type === 'processChanged') this.changed.fire(timerEntryOf(event.process));
        else if (event.type === 'processRemoved') this.removed.fire(event.id);
      }),
    );
  }

  listEntries(): TimerEntry[] {
    return this.core.listProcesses().map(timerEntryOf);
  }

  findEntry(id: string): TimerEntry | undefined {
    return this.core.findEntry(id) ? timerEntryOf(this.core.describe(id)) : undefined;
  }

  blockedReason(id: string): string | undefined {
    const agent = this.core.decorationOf(id, AGENT_STATUS)?.tracker.status;
    return agent && isBlockedDetail(agent.detail) ? blockedReasonOf(agent) : undefined;
  }

  /** The one user-turn path (sessions/userTurn.ts): paste where taken, then Enter on its own. */
  deliver(id: string, text: string): Promise<void> {
    return this.core.sendUserTurn(id, text);
  }

  isAtPrompt(id: string): boolean {
    return isShowingPrompt(this.core, id);
  }

  admit(id: string): DeliveryHold | undefined {
    return this.gate()?.admit(id, 'a timer');
  }

  countHeld(id: string, delta: 1 | -1): void {
    this.gate()?.waiting(id, delta);
  }

  private gate(): TurnGate | undefined {
    return this.core.services.find(TURN_GATE);
  }

  onScreenChanged(id: string, listener: () => void): Disposable {
    const entry = this.core.findEntry(id);
    return entry ? entry.screen.onDidChange(listener) : { dispose: () => undefined };
  }

  dispose(): void {
    this.store.dispose();
  }
}

/**
 * Whether an entry's screen, read by its agent preset's rules right now, shows the idle prompt
 * (entries that are not agents have no prompt to wait for: true while they exist).
 */
export function isShowingPrompt(core: TimerCoreHost, id: string): boolean {
  const entry = core.findEntry(id);
  if (!entry) return false;
  if (entry.kind !== 'agent') return true;
  const agent = core.decorationOf(id, AGENT_STATUS);
  if (!agent) return true;
  const lastOutputAt = agent.tracker.explain().timing.lastOutputAt;
  const lines = entry.screen.getVisibleLines();
  const screen = { getVisibleLines: () => lines, cols: entry.screen.cols };
  return classify(screen, entry.screen.title, { rules: presetOf(entry).rules, now: Date.now(), lastOutputAt }).primary === 'idle';
}
