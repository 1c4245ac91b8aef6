export { AGENT_TERM, type AgentPreset, type McpEndpoint, type ResumeSupport } from './agentPreset';
export { BUILTIN_PRESETS, PRESET_IDS } from './presets';
export { resolvePreset, resolveAgentLaunch } from './resolvePreset';
export { mcpWiringFor } from './mcpWiring';
export { promptAnswersFor, type PromptAnswer, type PromptAnswers } from './promptAnswers';
export { argvForRun, type RunIntent } from './sessionArgs';
export { discoverSessionId, hasStoredConversation } from './sessionDiscovery';
