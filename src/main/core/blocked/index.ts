/** Blocked agents (docs/agent-status.md, "Blocked agents"): the public surface of core/blocked. */
export { blockedCapability, blockedAgentsOf } from './blockedCapability';
export { BLOCKED, BlockedAgents, RESET_MARGIN_MS, attentionReason, type BlockedAgentsOptions } from './blockedAgents';
