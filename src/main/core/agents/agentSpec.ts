/** Agent entries launch from a preset (UI, MCP and switchboard.json alike). */
import { resolve } from 'node:path';
import type { ProcessEntry } from '../sessions';
import type { AgentConfig } from '../../../shared/agentConfig';
import type { ProcessSpec } from '../../../shared/model';
import { sandboxOptionsOf } from '../../../shared/sandbox';
import type { AgentPreset } from './agentPreset';
import { resolveAgentLaunch, resolvePreset } from './resolvePreset';

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
      ...(sandboxOptionsOf(config.sandbox) ? { sandbox: sandboxOptionsOf(config.sandbox) } : {}),
      ...(config.resume ? { resume: config.resume } : {}),
      ...(config.continueAtReset !== undefined ? { continueAtReset: config.continueAtReset } : {}),
      ...(config.budget ? { budget: config.budget } : {}),
      ...(launch.statusOverrides.stuckThresholdMs !== undefined ? { stuckThresholdMs: launch.statusOverrides.stuckThresholdMs } : {}),
      ...extra,
    },
    autoStart: launch.autoStart,
  };
}
