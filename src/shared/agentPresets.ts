/** The built-in agent presets, in the order the UI offers them (core/agents has each one's definition; unknown names run as generic). */
export const AGENT_PRESET_IDS = [
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
