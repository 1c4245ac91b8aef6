/**
 * The built-in agent presets (SPEC §4, issue 4). Thresholds: the stuck threshold is SPEC §4's
 * 15 s everywhere; idle debounce and start-up grace as the status tracker's defaults unless a
 * CLI's rendering needs otherwise (noted per preset).
 */
import { ruleSetFor } from '../status/rules';
import { DEFAULT_STATUS_THRESHOLDS, type StatusThresholds } from '../status/statusTracker';
import { AGENT_TERM, SESSION_PLACEHOLDER, type AgentPreset, type ResumeSupport } from './agentPreset';
import { mcpWiringFor } from './mcpWiring';

/** aider streams replies as plain text with pauses between chunks and has no busy marker while
 *  it streams (the activity fallback decides), so idle waits longer before it shows. */
const AIDER_IDLE_DEBOUNCE_MS = 2_500;

/** Claude Code 2.1.197 `claude --help`: "--session-id <uuid> Use a specific session ID", "-r, --resume [value] Resume a conversation by session ID". */
const CLAUDE_RESUME: ResumeSupport = {
  supported: true,
  sessionId: 'assigned',
  startArgs: ['--session-id', SESSION_PLACEHOLDER],
  resumeArgs: ['--resume', SESSION_PLACEHOLDER],
  placement: 'append',
  source: 'claude --help (2.1.197)',
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

interface PresetSpec {
  id: string;
  displayName: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  hasHooks?: boolean;
  thresholds?: Partial<StatusThresholds>;
  resume?: ResumeSupport;
}

const SPECS: readonly PresetSpec[] = [
  { id: 'claude', displayName: 'Claude Code', command: 'claude', hasHooks: true, resume: CLAUDE_RESUME },
  { id: 'codex', displayName: 'Codex CLI', command: 'codex', resume: CODEX_RESUME },
  { id: 'gemini', displayName: 'Gemini CLI', command: 'gemini' },
  { id: 'opencode', displayName: 'opencode', command: 'opencode' },
  { id: 'aider', displayName: 'aider', command: 'aider', thresholds: { idleDebounceMs: AIDER_IDLE_DEBOUNCE_MS } },
  { id: 'cursor-agent', displayName: 'Cursor Agent', command: 'cursor-agent' },
];

export function buildPreset(spec: PresetSpec, isGeneric = false): AgentPreset {
  return {
    id: spec.id,
    displayName: spec.displayName,
    command: spec.command,
    args: Object.freeze([...(spec.args ?? [])]),
    env: Object.freeze({ ...(spec.env ?? {}), TERM: AGENT_TERM }),
    rules: ruleSetFor(isGeneric ? 'generic' : spec.id),
    thresholds: { ...DEFAULT_STATUS_THRESHOLDS, ...spec.thresholds },
    hasHooks: spec.hasHooks ?? false,
    mcpWiring: mcpWiringFor(isGeneric ? 'generic' : spec.id),
    resume: spec.resume ?? RESUME_UNKNOWN,
    isGeneric,
  };
}

export const BUILTIN_PRESETS: ReadonlyMap<string, AgentPreset> = new Map(SPECS.map((s) => [s.id, buildPreset(s)] as const));

export const PRESET_IDS: readonly string[] = [...BUILTIN_PRESETS.keys(), 'generic'];
