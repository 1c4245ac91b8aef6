export { AGENT_TERM, type AgentPreset, type McpEndpoint, type ResumeSupport } from './agentPreset';
export { BUILTIN_PRESETS, PRESET_IDS } from './presets';
export { resolvePreset, resolveAgentLaunch } from './resolvePreset';
export { mcpWiringFor, qwenStatusHooks } from './mcpWiring';
export { withStatusHooks as geminiStatusHooks } from './geminiSettings';
export { opencodeStatusPlugin } from './opencodeStatusPlugin';
export { promptAnswersFor, type PromptAnswer, type PromptAnswers } from './promptAnswers';
export { argvForRun, type RunIntent } from './sessionArgs';
export { discoverSessionId, hasStoredConversation } from './sessionDiscovery';
