/** The attention inbox (docs/ui.md): the public surface of core/inbox. */
export { answerPrompt, listWaiting, type InboxAgent } from './inbox';
export { AgentTurns, type AgentTurnHost } from './agentTurns';
