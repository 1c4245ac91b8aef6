export { AGENT_TERM, type AgentPreset, type McpEndpoint, type McpWiring, type RunEnv } from './agentPreset';
export { BUILTIN_PRESETS, PRESET_IDS } from './presets';
export { resolvePreset, genericPreset, resolveAgentLaunch, type AgentLaunch } from './resolvePreset';
export { MCP_WIRING, mcpWiringFor } from './mcpWiring';
export { promptAnswersFor, type PromptAnswer, type PromptAnswers } from './promptAnswers';
