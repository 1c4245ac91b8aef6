/**
 * An agent preset: how to launch one agent CLI and how to read its screen. Presets are data
 * (presets.ts); detection rules live in core/status/rules/<agent>.ts.
 */
import type { DetectionProfile, RuleSet, StatusThresholds } from '../status';

/**
 * Detection rules are written against xterm-256color rendering (box glyphs, truecolor-capable
 * TUIs choose their full UI), and the headless screen emulates xterm: every agent gets this TERM.
 */
export const AGENT_TERM = 'xterm-256color';

/** Where a spawned agent reaches Switchboard's MCP endpoint, with its own token (docs/mcp.md). */
export interface McpEndpoint {
  url: string;
  token: string;
}

/** The environment a run would get without MCP wiring (Switchboard's own, then the entry's). */
export type RunEnv = Readonly<Record<string, string | undefined>>;

/** What MCP wiring adds to an agent's launch. */
export interface McpWiring {
  args: string[];
  env: Record<string, string>;
}

export interface AgentPreset extends DetectionProfile {
  /** Preset id as written in switchboard.json (`"preset": "claude"`). */
  id: string;
  displayName: string;
  /** The npm package of the CLI when it is a devDependency here (the recordings' version check). */
  npmPackage?: string;
  /** Program to run (looked up on PATH); `command` in switchboard.json replaces it. */
  command: string;
  /** Default arguments; switchboard.json `args` are appended. */
  args: readonly string[];
  /** Environment added to the project's; TERM is always AGENT_TERM. */
  env: Readonly<Record<string, string>>;
  rules: RuleSet;
  thresholds: StatusThresholds;
  /** The CLI can report structured hooks (Claude Code); the MCP side installs them. */
  hasHooks: boolean;
  /** Arguments and env that point the agent CLI at the MCP endpoint (see mcpWiring.ts). */
  mcpWiring(endpoint: McpEndpoint, runEnv?: RunEnv): McpWiring;
  /** True for the fallback used with unknown commands. */
  isGeneric: boolean;
}
