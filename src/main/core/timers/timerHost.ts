/**
 * What the timer manager needs from the rest of the core, as a narrow interface: entries with
 * their run and agent status, their changes and removal, and a way to type a user turn. The core
 * adapter below is the only place that knows SwitchboardCore; unit tests drive a fake host.
 */
import { DisposableStore, Emitter, type Disposable, type Event } from '../base/lifecycle';
import type { SwitchboardCore } from '../app/switchboardCore';
import type { ProcessInfo, ProcessKind } from '../../../shared/model';
import type { AgentPrimary } from '../../../shared/status';

export interface TimerEntry {
  id: string;
  name: string;
  kind: ProcessKind;
  configName?: string;
  /** Increments with every start; a new run makes an agent fresh again. */
  runId: number;
  isRunning: boolean;
  /** Agent entries only: the status primary (SPEC §4). */
  agentStatus?: AgentPrimary;
}

export interface TimerHost {
  listEntries(): TimerEntry[];
  findEntry(id: string): TimerEntry | undefined;
  /** An entry appeared or changed (run state, agent status, name). */
  readonly onEntryChanged: Event<TimerEntry>;
  /** An entry was closed. */
  readonly onEntryRemoved: Event<string>;
  /** Types `text` into the entry as a fresh user turn (text, then Enter as a separate write). */
  deliver(id: string, text: string): Promise<void>;
}

export function timerEntryOf(info: ProcessInfo): TimerEntry {
  return {
    id: info.id,
    name: info.name,
    kind: info.kind,
    configName: info.configName,
    runId: info.runId,
    isRunning: info.pid !== undefined,
    agentStatus: info.agent?.primary,
  };
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
  readonly onEntryChanged: Event<TimerEntry> = this.changed.event;
  readonly onEntryRemoved: Event<string> = this.removed.event;

  constructor(private readonly core: SwitchboardCore) {
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
    return this.core.sessions.find(id) ? timerEntryOf(this.core.describe(id)) : undefined;
  }

  deliver(id: string, text: string): Promise<void> {
    return this.core.sendUserTurn(id, text);
  }

  dispose(): void {
    this.store.dispose();
  }
}
