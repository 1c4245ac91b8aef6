/**
 * Agent entries: launch from a preset (UI, MCP and switchboard.json alike), a StatusTracker per
 * agent entry as its decoration, and the per-run MCP wiring of the agent CLI.
 */
import { Emitter, type Disposable } from '../base';
import { StatusTracker } from '../status';
import { cliVersions, resolveAgentLaunch, resolvePreset, type AgentPreset, type McpEndpoint } from '../agents';
import { resolveCommand, type ProcessEntry } from '../sessions';
import type { AgentConfig } from '../../../shared/agentConfig';
import type { ProcessSpec } from '../../../shared/model';
import type { EntryDecoration, EntryDecorator } from '../sessions';
import { resolve } from 'node:path';

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
    // A generic entry runs any program: asking it for --version might start it instead.
    if (!preset.isGeneric) this.runStarted = entry.onDidStartRun(() => this.readCliVersion(entry));
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

export const agentStatusDecorator: EntryDecorator = (entry) => {
  if (entry.kind !== 'agent') return undefined;
  const preset = presetOf(entry);
  return new AgentStatusDecoration(entry, preset, entry.definition.stuckThresholdMs);
};

export function presetOf(entry: ProcessEntry): AgentPreset {
  return resolvePreset(entry.definition.preset ?? entry.argv[0]);
}

/** The spec of an agent entry (without MCP wiring, which is added per run). */
export function agentSpec(
  name: string,
  config: AgentConfig,
  projectDir: string,
  extra: Partial<ProcessSpec> = {},
): { spec: ProcessSpec; autoStart: boolean } {
  const launch = resolveAgentLaunch(config);
  return {
    spec: {
      name,
      kind: 'agent',
      preset: launch.preset.id === 'generic' ? (config.command ?? config.preset) : launch.preset.id,
      argv: launch.argv,
      cwd: resolve(projectDir, launch.cwd ?? '.'),
      env: launch.env,
      ...(config.mcp ? { mcp: config.mcp } : {}),
      ...(config.resume ? { resume: config.resume } : {}),
      ...(launch.statusOverrides.stuckThresholdMs !== undefined ? { stuckThresholdMs: launch.statusOverrides.stuckThresholdMs } : {}),
      ...extra,
    },
    autoStart: launch.autoStart,
  };
}

/** MCP wiring for one run of an agent entry: the CLI's own MCP configuration (args and env). */
export function agentWiringForRun(entry: ProcessEntry, endpoint: McpEndpoint | undefined): { args: string[]; env: Record<string, string> } {
  if (entry.kind !== 'agent' || !endpoint) return { args: [], env: {} };
  return presetOf(entry).mcpWiring(endpoint, { ...process.env, ...entry.definition.env });
}
