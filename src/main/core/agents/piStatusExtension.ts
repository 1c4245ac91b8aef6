/**
 * pi has no hooks in its settings and no MCP client ("No MCP", its README); its extension point is
 * extensions: a module loaded with `-e <path>` whose default export receives the extension API,
 * and `pi.on(event, handler)` sees the agent's lifecycle (pi 0.73.1 docs/extensions.md).
 * Switchboard writes this one into its own private directory; it posts the turn's events to the
 * hook receiver, in Claude Code's vocabulary, with the run's token from the environment:
 * `agent_start` → UserPromptSubmit, the first text delta of an assistant message → ResponseStart
 * (pi draws the user's prompt and the answer alike, so the screen cannot say when text streams),
 * `tool_execution_start` → PreToolUse, `tool_execution_end` → PostToolUse, `agent_end` → Stop.
 *
 * pi emits `agent_end` to extensions BEFORE it decides to retry a failed request (a 5xx, a rate
 * limit): an `agent_end` whose last message is an assistant error is not reported, and the screen
 * (its `Retrying (1/3) in 2s...` row, or its `Retry failed after 3 attempts: …` row when it gives
 * up) decides: pi hands extensions no retry event. A failed post is a lost signal, never an error.
 */
import { MCP_HOOKS_PATH, MCP_TOKEN_ENV } from '../../../shared/mcp';
import type { McpEndpoint } from './agentPreset';
import { ownedSettingsFile } from './ownedSettingsFile';

function extensionSource(hooksUrl: string): string {
  return `// Written by Switchboard: reports this pi session's turns to Switchboard's status tracker.
export default function switchboardStatus(pi) {
  const token = process.env[${JSON.stringify(MCP_TOKEN_ENV)}];
  // One post at a time, in order: a Stop must never overtake the ResponseStart before it.
  let posted = Promise.resolve();
  const post = (body) => {
    if (!token) return;
    const send = () =>
      fetch(${JSON.stringify(hooksUrl)}, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
        body: JSON.stringify(body),
      }).then((res) => res.arrayBuffer(), () => {});
    posted = posted.then(send, send);
  };
  const endedInError = (messages) => {
    const last = Array.isArray(messages) ? messages[messages.length - 1] : undefined;
    return last?.role === 'assistant' && last.stopReason === 'error';
  };
  let answering = false;
  pi.on('agent_start', () => post({ hook_event_name: 'UserPromptSubmit' }));
  pi.on('message_start', () => {
    answering = false;
  });
  pi.on('message_update', (event) => {
    if (answering || event.assistantMessageEvent?.type !== 'text_delta') return;
    answering = true;
    post({ hook_event_name: 'ResponseStart' });
  });
  pi.on('tool_execution_start', (event) => post({ hook_event_name: 'PreToolUse', tool_name: event.toolName }));
  pi.on('tool_execution_end', (event) => post({ hook_event_name: 'PostToolUse', tool_name: event.toolName }));
  pi.on('agent_end', (event) => {
    if (!endedInError(event.messages)) post({ hook_event_name: 'Stop' });
  });
}
`;
}

/** The extension for one endpoint: a module path for pi's `-e` flag. */
export function piStatusExtension(endpoint: McpEndpoint): string {
  return ownedSettingsFile('pi-status-extension', extensionSource(new URL(MCP_HOOKS_PATH, endpoint.url).toString()), 'mjs');
}
