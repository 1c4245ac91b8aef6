/** A StatusTracker per agent entry, as its decoration: the entry's `agent` status in ProcessInfo. */
import { Emitter, serviceKey } from '../base';
import { StatusTracker } from '../status';
import type { AgentPreset } from './agentPreset';
import type { DecorationKey, EntryDecoration, EntryDecorator, ProcessEntry } from '../sessions';
import { presetOf } from './agentSpec';

export class AgentStatusDecoration implements EntryDecoration {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  readonly tracker: StatusTracker;

  constructor(
    entry: ProcessEntry,
    readonly preset: AgentPreset,
    stuckThresholdMs?: number,
  ) {
    this.tracker = new StatusTracker(entry, preset, stuckThresholdMs !== undefined ? { stuckThresholdMs } : {});
    this.tracker.onDidChangeStatus(() => this.changed.fire());
  }

  describe() {
    return { agent: this.tracker.status };
  }

  dispose(): void {
    this.tracker.dispose();
    this.changed.dispose();
  }
}

/** Where the core, timers, the inbox and MCP hooks find an agent entry's status. */
export const AGENT_STATUS: DecorationKey<AgentStatusDecoration> = serviceKey('agent status');

export const agentStatusDecorator: EntryDecorator<AgentStatusDecoration> = (entry) => {
  if (entry.kind !== 'agent') return undefined;
  const preset = presetOf(entry);
  return new AgentStatusDecoration(entry, preset, entry.definition.stuckThresholdMs);
};
