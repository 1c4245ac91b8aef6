/** Presets offered by "new agent" (core/agents has the definitions; unknown names run as generic). */
export const AGENT_PRESETS = [
  'claude',
  'codex',
  'gemini',
  'opencode',
  'qwen',
  'pi',
  'copilot',
  'aider',
  'cursor-agent',
  'generic',
] as const;
