/**
 * The built-in agent presets (docs/agent-status.md). Thresholds: the stuck threshold is docs/agent-status.md's
 * 15 s everywhere; idle debounce and start-up grace as the status tracker's defaults unless a
 * CLI's rendering needs otherwise (noted per preset).
 */
import { ruleSetFor, DEFAULT_STATUS_THRESHOLDS, type StatusThresholds } from '../status';
import { AGENT_TERM, type AgentPreset } from './agentPreset';
import { mcpWiringFor } from './mcpWiring';

/** aider streams replies as plain text with pauses between chunks and has no busy marker while
 *  it streams (the activity fallback decides), so idle waits longer before it shows. */
const AIDER_IDLE_DEBOUNCE_MS = 2_500;

interface PresetSpec {
  id: string;
  displayName: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  hasHooks?: boolean;
  thresholds?: Partial<StatusThresholds>;
}

const SPECS: readonly PresetSpec[] = [
  { id: 'claude', displayName: 'Claude Code', command: 'claude', hasHooks: true },
  { id: 'codex', displayName: 'Codex CLI', command: 'codex' },
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
    isGeneric,
  };
}

export const BUILTIN_PRESETS: ReadonlyMap<string, AgentPreset> = new Map(SPECS.map((s) => [s.id, buildPreset(s)] as const));

export const PRESET_IDS: readonly string[] = [...BUILTIN_PRESETS.keys(), 'generic'];
