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

/** `{session}` in resume arguments stands for the session id. */
export const SESSION_PLACEHOLDER = '{session}';

/** A folder of the CLI's own: `$<homeEnv>/<dir>`, `<defaultHome>/<dir>` when the variable is unset. */
export interface SessionHome {
  homeEnv: string;
  defaultHome: string;
  dir: string;
}

/**
 * How an agent CLI continues a conversation after a restart, as data. `assigned`: Switchboard
 * picks a UUID and passes it at every fresh start (`startArgs`); `discovered`: the CLI picks it
 * and writes it into a session file whose name matches `sessionFile` (capture group 1 = the id),
 * found among the files the run holds open or, after it exited, under its home.
 */
export type ResumeSupport =
  | {
      supported: true;
      sessionId: 'assigned' | 'discovered';
      startArgs?: readonly string[];
      resumeArgs: readonly string[];
      /** `subcommand`: right after the program (`codex resume <id> …`); `append`: after every other argument. */
      placement: 'subcommand' | 'append';
      sessionFile?: SessionHome & { pattern: RegExp };
      /**
       * Assigned ids: where the CLI stores a conversation once it has one, as `fileName` (with
       * `{session}`) in any folder right under the home. A run that never took a turn stored
       * nothing, and its id cannot be resumed.
       */
      transcript?: SessionHome & { fileName: string };
      /** Where the flags were checked. */
      source: string;
    }
  | { supported: false; reason: string };

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
  /**
   * Pause between the echo of a typed turn and its Enter (docs/agent-status.md "Submitting a
   * turn"): CLIs that take an Enter right after a paste as part of it need longer.
   */
  submitAfterEchoMs: number;
  /** The CLI reports its own turn events as hooks (Claude Code, Gemini CLI, Qwen Code, opencode via a plugin); its MCP wiring installs them. */
  hasHooks: boolean;
  /** Arguments and env that point the agent CLI at the MCP endpoint (see mcpWiring.ts); `cwd`: the run's folder, whose settings the CLI reads too. */
  mcpWiring(endpoint: McpEndpoint, runEnv?: RunEnv, cwd?: string): McpWiring;
  /** Whether and how its conversations resume after a restart. */
  resume: ResumeSupport;
  /** Where the CLI keeps sign-in, settings and sessions (read-write inside a sandbox). */
  stateFolders: readonly StateFolder[];
  /** True for the fallback used with unknown commands. */
  isGeneric: boolean;
}

/**
 * One place an agent CLI keeps its state: the folder named by `env` when that variable is set
 * (CLAUDE_CONFIG_DIR, CODEX_HOME…), else `home`'s paths under the home folder.
 */
export interface StateFolder {
  env?: string;
  home: readonly string[];
}
