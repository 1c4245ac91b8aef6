/** Blocked agents (docs/agent-status.md, "Blocked agents"): the public surface of core/blocked. */
export { blockedCapability, blockedAgentsOf } from './blockedCapability';
export { BLOCKED, BlockedAgents, attentionReason, type BlockedAgentsOptions } from './blockedAgents';
