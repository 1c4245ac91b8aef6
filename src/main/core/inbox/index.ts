/** The attention inbox (docs/ui.md): the public surface of core/inbox. */
export { answerPrompt, listWaiting, waitingAgentOf, type InboxAgent } from './inbox';
export { readScreenPrompt, type ScreenPrompt } from './screenPrompt';
