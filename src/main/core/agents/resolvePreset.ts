/**
 * Preset lookup and launch resolution for agent entries: a preset id (or an unknown command,
 * which gets the generic preset), adjusted by a switchboard.json `agents` entry.
 */
import path from 'node:path';
import type { AgentConfig } from '../../../shared/agentConfig';
import { AGENT_TERM, type AgentPreset, type McpEndpoint } from './agentPreset';
import { BUILTIN_PRESETS, buildPreset } from './presets';

/**
 * The preset for a name: a built-in id ("claude", "codex", …), else a command whose basename is a
 * built-in's program ("/opt/bin/claude" → claude), else the generic preset running `name`.
 */
export function resolvePreset(name: string): AgentPreset {
  const byId = BUILTIN_PRESETS.get(name);
  if (byId) return byId;
  const base = path.basename(name.trim());
  for (const preset of BUILTIN_PRESETS.values()) {
    if (preset.command === base) return preset;
  }
  return genericPreset(name);
}

/** The fallback for any other command: generic rules, default thresholds, no MCP wiring. */
function genericPreset(command: string): AgentPreset {
  const base = path.basename(command.trim()) || 'agent';
  return buildPreset({ id: 'generic', displayName: base, command: command.trim() || base, verified: 'unverified' }, true);
}

interface AgentLaunch {
  preset: AgentPreset;
  argv: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Overrides for the StatusTracker (per-entry stuck threshold). */
  statusOverrides: { stuckThresholdMs?: number };
  autoStart: boolean;
}

/**
 * argv = [command override ?? preset program, ...preset args, ...config args, ...MCP args];
 * env = preset env + config env + MCP env, TERM forced to AGENT_TERM (the rules depend on it).
 */
export function resolveAgentLaunch(config: AgentConfig, mcp?: McpEndpoint): AgentLaunch {
  const preset = config.preset !== undefined ? resolvePreset(config.preset) : resolvePreset(config.command!);
  const program = config.command ?? preset.command;
  const wiring = mcp ? preset.mcpWiring(mcp, { ...process.env, ...config.env }, config.cwd) : { args: [], env: {} };
  return {
    preset,
    argv: [program, ...preset.args, ...(config.args ?? []), ...wiring.args],
    env: { ...preset.env, ...(config.env ?? {}), ...wiring.env, TERM: AGENT_TERM },
    cwd: config.cwd,
    statusOverrides: config.stuckThresholdMs !== undefined ? { stuckThresholdMs: config.stuckThresholdMs } : {},
    autoStart: config.autoStart ?? false,
  };
}
