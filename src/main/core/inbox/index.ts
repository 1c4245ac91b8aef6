/** The attention inbox (docs/ui.md): the public surface of core/inbox. */
export { AgentTurns } from './agentTurns';
export { blockedRowOf, blockedSummary } from './blockedRow';
