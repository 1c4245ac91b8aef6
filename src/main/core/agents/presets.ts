/**
 * The built-in agent presets (docs/agent-status.md). Thresholds: the stuck threshold is docs/agent-status.md's
 * 15 s everywhere; idle debounce and start-up grace as the status tracker's defaults unless a
 * CLI's rendering needs otherwise (noted per preset).
 */
import type { PresetVerification, VerifiedCli } from '../../../shared/status';
import { ruleSetFor, DEFAULT_STATUS_THRESHOLDS, type StatusThresholds } from '../status';
import { AGENT_TERM, SESSION_PLACEHOLDER, type AgentPreset, type ResumeSupport, type StateFolder } from './agentPreset';
import { mcpWiringFor } from './mcpWiring';
import { DEFAULT_SUBMIT_AFTER_ECHO_MS } from '../sessions';
import { AGENT_PRESET_IDS } from '../../../shared/agentPresets';

/**
 * Pause between a typed turn's echo and its Enter, per CLI (docs/agent-status.md "Submitting a
 * turn"). Claude Code and Codex submit an Enter that follows the echo at once; the delay only
 * covers the frame between the echo and the prompt's re-render.
 */
const PROMPT_SUBMIT_AFTER_ECHO_MS = 120;
/**
 * Gemini CLI (and Qwen Code, its fork) take an Enter shortly after a paste as a newline: the
 * "recent paste" mark is UI state that a 40 ms timer clears, and the clear reaches the Enter
 * handler only with the next render — on a loaded 2-core machine more than 120 ms after the echo
 * every time (the Enter became a newline), while 400 ms held.
 */
const PASTE_AWARE_SUBMIT_AFTER_ECHO_MS = 500;

/** aider streams replies as plain text with pauses between chunks and has no busy marker while
 *  it streams (the activity fallback decides), so idle waits longer before it shows. */
const AIDER_IDLE_DEBOUNCE_MS = 2_500;

/**
 * Claude Code 2.1.197 `claude --help`: "--session-id <uuid> Use a specific session ID", "-r, --resume
 * [value] Resume a conversation by session ID". It writes a conversation to
 * `${CLAUDE_CONFIG_DIR:-~/.claude}/projects/<cwd, each non-alphanumeric as "-">/<id>.jsonl` from
 * its first message on; `--resume` of an id without one exits 1 ("No conversation found with
 * session ID").
 */
const CLAUDE_RESUME: ResumeSupport = {
  supported: true,
  sessionId: 'assigned',
  startArgs: ['--session-id', SESSION_PLACEHOLDER],
  resumeArgs: ['--resume', SESSION_PLACEHOLDER],
  placement: 'append',
  transcript: { homeEnv: 'CLAUDE_CONFIG_DIR', defaultHome: '~/.claude', dir: 'projects', fileName: `${SESSION_PLACEHOLDER}.jsonl` },
  source: 'claude --help (2.1.197); transcripts under $CLAUDE_CONFIG_DIR/projects',
};

/**
 * Codex 0.169 `codex resume --help`: "codex resume [OPTIONS] [SESSION_ID] [PROMPT]". It names its
 * sessions itself: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<timestamp>-<uuid>.jsonl.
 */
const CODEX_RESUME: ResumeSupport = {
  supported: true,
  sessionId: 'discovered',
  resumeArgs: ['resume', SESSION_PLACEHOLDER],
  placement: 'subcommand',
  sessionFile: {
    pattern: /rollout-[^/]*?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/,
    homeEnv: 'CODEX_HOME',
    defaultHome: '~/.codex',
    dir: 'sessions',
  },
  source: 'codex resume --help (0.169.0); session files under $CODEX_HOME/sessions',
};

const RESUME_UNKNOWN: ResumeSupport = { supported: false, reason: 'resuming is not known for this agent CLI' };

/**
 * Run for real: live tests against their mock APIs, and recordings that meet the status bar
 * (`npm run agents:score`).
 */
const CLAUDE_VERIFIED: VerifiedCli = { cliVersion: '2.1.332', date: '2026-11-28' };
const CODEX_VERIFIED: VerifiedCli = { cliVersion: '0.171.0', date: '2026-11-27' };
const GEMINI_VERIFIED: VerifiedCli = { cliVersion: '0.61.0', date: '2026-11-24' };
const QWEN_VERIFIED: VerifiedCli = { cliVersion: '0.24.4', date: '2026-11-24' };
const OPENCODE_VERIFIED: VerifiedCli = { cliVersion: '1.18.33', date: '2026-11-24' };
const PI_VERIFIED: VerifiedCli = { cliVersion: '0.73.1', date: '2026-11-24' };
const COPILOT_VERIFIED: VerifiedCli = { cliVersion: '1.0.102', date: '2026-11-27' };

interface PresetSpec {
  id: string;
  displayName: string;
  /** Proven against the real CLI (version, date), or `unverified` (rules from docs and source). */
  verified: PresetVerification;
  /** The npm package of the CLI when it is a devDependency here (the recordings' version check). */
  npmPackage?: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  hasHooks?: boolean;
  /** Default {@link DEFAULT_SUBMIT_AFTER_ECHO_MS} (a CLI nobody measured gets the safe pause). */
  submitAfterEchoMs?: number;
  thresholds?: Partial<StatusThresholds>;
  resume?: ResumeSupport;
  /** Where the CLI keeps sign-in, settings and sessions: read-write inside a sandbox (docs/sandbox.md). */
  stateFolders?: StateFolder[];
}

const SPECS: readonly PresetSpec[] = [
  {
    id: 'claude',
    stateFolders: [{ env: 'CLAUDE_CONFIG_DIR', home: ['.claude', '.claude.json'] }],
    displayName: 'Claude Code',
    command: 'claude',
    hasHooks: true,
    submitAfterEchoMs: PROMPT_SUBMIT_AFTER_ECHO_MS,
    verified: CLAUDE_VERIFIED,
    resume: CLAUDE_RESUME,
    npmPackage: '@anthropic-ai/claude-code',
  },
  {
    id: 'codex',
    stateFolders: [{ env: 'CODEX_HOME', home: ['.codex'] }],
    displayName: 'Codex CLI',
    command: 'codex',
    submitAfterEchoMs: PROMPT_SUBMIT_AFTER_ECHO_MS,
    verified: CODEX_VERIFIED,
    npmPackage: '@openai/codex',
    resume: CODEX_RESUME,
  },
  {
    id: 'gemini',
    stateFolders: [{ env: 'GEMINI_CLI_HOME', home: ['.gemini'] }],
    displayName: 'Gemini CLI',
    command: 'gemini',
    hasHooks: true,
    submitAfterEchoMs: PASTE_AWARE_SUBMIT_AFTER_ECHO_MS,
    verified: GEMINI_VERIFIED,
    npmPackage: '@google/gemini-cli',
  },
  {
    id: 'opencode',
    displayName: 'opencode',
    command: 'opencode',
    hasHooks: true,
    verified: OPENCODE_VERIFIED,
    npmPackage: 'opencode-ai',
    stateFolders: [{ home: ['.local/share/opencode', '.config/opencode', '.cache/opencode', '.local/state/opencode'] }],
  },
  {
    id: 'qwen',
    stateFolders: [{ home: ['.qwen'] }],
    displayName: 'Qwen Code',
    command: 'qwen',
    hasHooks: true,
    submitAfterEchoMs: PASTE_AWARE_SUBMIT_AFTER_ECHO_MS,
    verified: QWEN_VERIFIED,
    npmPackage: '@qwen-code/qwen-code',
  },
  {
    id: 'pi',
    displayName: 'pi',
    command: 'pi',
    hasHooks: true,
    verified: PI_VERIFIED,
    npmPackage: '@mariozechner/pi-coding-agent',
    stateFolders: [{ home: ['.pi'] }],
  },
  {
    id: 'copilot',
    stateFolders: [{ env: 'COPILOT_HOME', home: ['.copilot'] }],
    displayName: 'GitHub Copilot CLI',
    command: 'copilot',
    hasHooks: true,
    verified: COPILOT_VERIFIED,
    npmPackage: '@github/copilot',
  },
  {
    id: 'aider',
    stateFolders: [{ home: ['.aider', '.aider.conf.yml'] }],
    displayName: 'aider',
    command: 'aider',
    verified: 'unverified',
    thresholds: { idleDebounceMs: AIDER_IDLE_DEBOUNCE_MS },
  },
  { id: 'cursor-agent', displayName: 'Cursor Agent', command: 'cursor-agent', verified: 'unverified' },
];

export function buildPreset(spec: PresetSpec, isGeneric = false): AgentPreset {
  return {
    id: spec.id,
    displayName: spec.displayName,
    verified: spec.verified,
    npmPackage: spec.npmPackage,
    command: spec.command,
    args: Object.freeze([...(spec.args ?? [])]),
    env: Object.freeze({ ...(spec.env ?? {}), TERM: AGENT_TERM }),
    rules: ruleSetFor(isGeneric ? 'generic' : spec.id),
    thresholds: { ...DEFAULT_STATUS_THRESHOLDS, ...spec.thresholds },
    hasHooks: spec.hasHooks ?? false,
    submitAfterEchoMs: spec.submitAfterEchoMs ?? DEFAULT_SUBMIT_AFTER_ECHO_MS,
    mcpWiring: mcpWiringFor(isGeneric ? 'generic' : spec.id),
    resume: spec.resume ?? RESUME_UNKNOWN,
    stateFolders: spec.stateFolders ?? [],
    isGeneric,
  };
}

export const BUILTIN_PRESETS: ReadonlyMap<string, AgentPreset> = new Map(SPECS.map((s) => [s.id, buildPreset(s)] as const));

/** The one list of preset ids (src/shared); resolvePreset.test.ts checks it names exactly the built-in presets and generic. */
export const PRESET_IDS: readonly string[] = AGENT_PRESET_IDS;
