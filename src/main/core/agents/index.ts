export {
  AGENT_TERM,
  SESSION_PLACEHOLDER,
  type AgentPreset,
  type McpEndpoint,
  type McpWiring,
  type ResumeSupport,
  type SessionHome,
  type RunEnv,
} from './agentPreset';
export { BUILTIN_PRESETS, PRESET_IDS } from './presets';
export { resolvePreset, genericPreset, resolveAgentLaunch, type AgentLaunch } from './resolvePreset';
export { MCP_WIRING, mcpWiringFor } from './mcpWiring';
export { promptAnswersFor, type PromptAnswer, type PromptAnswers } from './promptAnswers';
export { argvForRun, type RunIntent } from './sessionArgs';
export { discoverSessionId, hasStoredConversation } from './sessionDiscovery';
