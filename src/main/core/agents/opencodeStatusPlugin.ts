/**
 * opencode has no hooks in its settings; its extension point is plugins: a module in the config's
 * `plugin` list (`file://` paths accepted) whose `event` hook sees every event of its bus
 * (`{ event: { id, type, properties } }`, opencode 1.18.33). Switchboard writes this one into its
 * own private directory and lists it in OPENCODE_CONFIG_CONTENT; it posts the turn's events to the
 * hook receiver, in Claude Code's vocabulary, with the run's token from the environment:
 * a new user message and `session.status` busy → UserPromptSubmit, `session.status` retry (its
 * `attempt`, `message` and `next`, the time of the next attempt) → ApiRetry, a tool part turning
 * `running` → PreToolUse and `completed` / `error` → PostToolUse (once per call), `session.status`
 * idle → Stop, `permission.asked` → Notification (permission_prompt). Sessions with a parent (subagents)
 * are ignored: their idle is not the turn's end. A failed post is a lost signal, never an error.
 *
 * Usage: each `step-finish` part (one model response: opencode's own `tokens` — input without
 * the cached part, output, reasoning, cache read / write — and its `cost`, priced by opencode)
 * is posted once as a UsageStep record with the step's model (from its assistant message),
 * subagents' steps included: they are the agent's spending too. opencode 1.18.33 keeps these in
 * a SQLite database Switchboard cannot read without a native module, and its plugin bus carries
 * them whatever the storage. Posts go one after another, so the receiver sees a turn's steps
 * before its Stop.
 *
 * A turn that ends on an error: opencode's processor publishes `session.error` and then sets the
 * session idle, and only afterwards (its clean-up takes a snapshot first: seconds under load)
 * writes the error into the message the TUI draws. So the error is kept per session and the idles
 * that follow it (opencode sets idle twice) post TurnError with the error's message, HTTP status
 * and name instead of Stop; a new busy or retry status forgets it. An interrupt
 * (`MessageAbortedError`) is no error: its idle is a Stop.
 */
import { MCP_HOOKS_PATH, MCP_TOKEN_ENV } from '../../../shared/mcp';
import { USAGE_STEP_HOOK } from '../../../shared/usage';
import type { McpEndpoint } from './agentPreset';
import { ownedSettingsFile } from './ownedSettingsFile';

function pluginSource(hooksUrl: string): string {
  return `// Written by Switchboard: reports this opencode session's turns to Switchboard's status tracker.
export const SwitchboardStatus = async () => {
  const token = process.env[${JSON.stringify(MCP_TOKEN_ENV)}];
  const childSessions = new Set();
  const seenUserMessages = new Set();
  const reportedToolStates = new Set();
  const turnErrors = new Map();
  const stepModels = new Map();
  const reportedSteps = new Set();
  let posting = Promise.resolve();
  const post = (body) => {
    if (!token) return;
    posting = posting.then(() =>
      fetch(${JSON.stringify(hooksUrl)}, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10000),
      }).catch(() => {}),
    );
  };
  const reportStep = (part) => {
    if (reportedSteps.has(part.id)) return;
    reportedSteps.add(part.id);
    const step = { id: part.id, sessionID: part.sessionID, model: stepModels.get(part.messageID), tokens: part.tokens, cost: part.cost };
    post({ hook_event_name: ${JSON.stringify(USAGE_STEP_HOOK)}, step });
  };
  return {
    event: async ({ event }) => {
      const p = event.properties ?? {};
      const info = p.info ?? {};
      if (event.type === 'message.updated' && info.role === 'assistant') stepModels.set(info.id, info.modelID);
      if (event.type === 'message.part.updated' && p.part?.type === 'step-finish') return reportStep(p.part);
      if (event.type === 'session.created' || event.type === 'session.updated') {
        if (info.parentID) childSessions.add(info.id);
        return;
      }
      if (childSessions.has(p.sessionID ?? info.sessionID)) return;
      if (event.type === 'session.error') {
        const error = p.error;
        if (p.sessionID && error && error.name !== 'MessageAbortedError') turnErrors.set(p.sessionID, error);
        return;
      }
      if (event.type === 'message.updated' && info.role === 'user' && !seenUserMessages.has(info.id)) {
        seenUserMessages.add(info.id);
        post({ hook_event_name: 'UserPromptSubmit' });
      } else if (event.type === 'message.part.updated' && p.part?.type === 'tool') {
        const status = p.part.state?.status;
        const hook = status === 'running' ? 'PreToolUse' : status === 'completed' || status === 'error' ? 'PostToolUse' : null;
        const key = hook + ' ' + p.part.callID;
        if (!hook || reportedToolStates.has(key) || childSessions.has(p.part.sessionID)) return;
        reportedToolStates.add(key);
        post({ hook_event_name: hook, tool_name: p.part.tool });
      } else if (event.type === 'session.status') {
        const status = p.status?.type;
        if (status !== 'idle') turnErrors.delete(p.sessionID);
        if (status === 'busy') post({ hook_event_name: 'UserPromptSubmit' });
        else if (status === 'retry') {
          const s = p.status;
          post({ hook_event_name: 'ApiRetry', message: String(s.message ?? ''), attempt: s.attempt, retry_at: s.next });
        }
        else if (status === 'idle' && turnErrors.has(p.sessionID)) {
          const error = turnErrors.get(p.sessionID);
          const data = error.data ?? {};
          post({
            hook_event_name: 'TurnError',
            message: String(data.message ?? error.message ?? error.name ?? 'unknown error'),
            status_code: typeof data.statusCode === 'number' ? data.statusCode : undefined,
            error_name: typeof error.name === 'string' ? error.name : undefined,
          });
        } else if (status === 'idle') post({ hook_event_name: 'Stop' });
      } else if (event.type === 'permission.asked') {
        post({ hook_event_name: 'Notification', notification_type: 'permission_prompt' });
      }
    },
  };
};
`;
}

/** The plugin for one endpoint, as a `file://` URL for the config's `plugin` list. */
export function opencodeStatusPlugin(endpoint: McpEndpoint): string {
  const file = ownedSettingsFile('opencode-status-plugin', pluginSource(new URL(MCP_HOOKS_PATH, endpoint.url).toString()), 'mjs');
  return `file://${file}`;
}
