/** Blocked agents (docs/agent-status.md, "Blocked agents"): the public surface of core/blocked. */
export { blockedCapability, blockedAgentsOf } from './blockedCapability';
export { RESET_MARGIN_MS } from './blockedAgents';
