/** A StatusTracker per agent entry, as its decoration: the entry's `agent` status in ProcessInfo. */
import { basename } from 'node:path';
import { Emitter, serviceKey, type Disposable } from '../base';
import { StatusTracker } from '../status';
import type { AgentPreset } from './agentPreset';
import { resolveCommand, type DecorationKey, type EntryDecoration, type EntryDecorator, type ProcessEntry } from '../sessions';
import { cliVersions } from './cliVersion';
import { presetOf } from './agentSpec';

export class AgentStatusDecoration implements EntryDecoration {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  readonly tracker: StatusTracker;
  private readonly runStarted: Disposable | undefined;

  constructor(
    entry: ProcessEntry,
    readonly preset: AgentPreset,
    stuckThresholdMs?: number,
  ) {
    this.tracker = new StatusTracker(entry, preset, stuckThresholdMs !== undefined ? { stuckThresholdMs } : {});
    this.tracker.onDidChangeStatus(() => this.changed.fire());
    // Only the preset's own program is asked: a generic entry, or a shell wrapping a command line
    // (`/bin/sh -c …` from the UI), would answer with its own version or start instead.
    if (!preset.isGeneric && basename(entry.argv[0] ?? '') === preset.command) {
      this.runStarted = entry.onDidStartRun(() => this.readCliVersion(entry));
    }
  }

  /** The launched binary's own version (read once per binary), for the status to carry. */
  private readCliVersion(entry: ProcessEntry): void {
    const env = { ...process.env, ...entry.definition.env };
    let file: string;
    try {
      file = resolveCommand(entry.argv[0], entry.definition.cwd, env);
    } catch {
      return; // the run could not have started either
    }
    void cliVersions.versionOf(file, env).then((version) => this.tracker.setCliVersion(version));
  }

  describe() {
    return { agent: this.tracker.status };
  }

  dispose(): void {
    this.runStarted?.dispose();
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
