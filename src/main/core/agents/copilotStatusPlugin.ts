/**
 * GitHub Copilot CLI's status hooks, as a plugin in a Switchboard-owned folder passed with
 * `--plugin-dir <directory>` ("Load a plugin from a local directory", `copilot help`, 1.0.102):
 * a `plugin.json` with its name and `hooks/hooks.json` (`{version: 1, hooks: {<event>: [{type:
 * 'command', bash, timeoutSec}]}}`, the layout of the plugin Copilot ships in its package,
 * `plugins/browser-use`). Nothing is written into the user's `~/.copilot` or repository; Copilot
 * loads it for this run only, beside the user's own hooks.
 *
 * A command hook gets the event's input JSON on stdin, one line, without the event's name; each
 * hook here keeps only the inputs that hold every `inputHas` text, adds Switchboard's event name
 * last (the last key wins) and posts it with the shared poster (hookPostCommand.ts).
 */
import { MCP_HOOKS_PATH } from '../../../shared/mcp';
import type { AgentHookEventName } from '../../../shared/status';
import type { McpEndpoint } from './agentPreset';
import { HOOK_POST_TIMEOUT_MS, HOOK_STDIN_BODY, hookPostCommand } from './hookPostCommand';
import { ownedDirectory } from './ownedSettingsFile';

interface CopilotStatusHook {
  /** Copilot's event (its settings' `hooks.<event>`). */
  copilotEvent: string;
  /** What Switchboard's tracker reads it as. */
  postsAs: AgentHookEventName;
  /** Texts the input must hold (Copilot writes compact JSON), or the hook posts nothing. */
  inputHas: readonly string[];
  /** Post the input (its fields say more, e.g. the error's message) or the event's name alone. */
  forwardsInput: boolean;
  /** A real input, with where it was seen. */
  sample: { input: string; source: string };
}

/**
 * The turn's bounds, so a retry is never carried into the next turn: `userPromptSubmitted` fires as
 * a prompt is sent, `agentStop` when the turn ends by itself (not after an error or an interrupt:
 * the screen tells those). Their names are enough.
 *
 * `errorOccurred` ("Hooks that run when a model call fails", its settings schema) fires once per
 * failed request, retries included: six for a 429 answered six times, every one `recoverable:
 * true`, the last one as Copilot gives the turn up (its `✗ Failed to get response…` row then says
 * so, and a waiting screen wins over a hook). It names no attempt and no status code. So a
 * recoverable model-call error is a retry: `active · retrying` while Copilot waits out its back-off
 * with nothing on screen but `Working`. Errors of tools or of the session are not retries.
 */
export const COPILOT_STATUS_HOOKS: readonly CopilotStatusHook[] = [
  {
    copilotEvent: 'userPromptSubmitted',
    postsAs: 'UserPromptSubmit',
    inputHas: [],
    forwardsInput: false,
    sample: {
      input:
        '{"sessionId":"3706bf8b-223c-462b-95b1-b1699ddcc150","timestamp":1795878650123,"cwd":"/tmp/switchboard-copilot-R6AMeV/home/project","prompt":"Say hi"}',
      source: 'Copilot CLI 1.0.102 (BYOK) against the mock Chat Completions API',
    },
  },
  {
    copilotEvent: 'agentStop',
    postsAs: 'Stop',
    inputHas: [],
    forwardsInput: false,
    sample: {
      input:
        '{"sessionId":"3706bf8b-223c-462b-95b1-b1699ddcc150","timestamp":1795878656744,"cwd":"/tmp/switchboard-copilot-R6AMeV/home/project",' +
        '"transcriptPath":"/tmp/switchboard-copilot-R6AMeV/home/.copilot/session-state/3706bf8b-223c-462b-95b1-b1699ddcc150/events.jsonl",' +
        '"stopReason":"end_turn","stop_hook_active":false}',
      source: 'Copilot CLI 1.0.102 (BYOK) against the mock Chat Completions API',
    },
  },
  {
    copilotEvent: 'errorOccurred',
    postsAs: 'ApiRetry',
    inputHas: ['"errorContext":"model_call"', '"recoverable":true'],
    forwardsInput: true,
    sample: {
      input:
        '{"sessionId":"f29d7230-9aee-40ee-a2cb-1b53ecbadf6d","timestamp":1795878698658,"cwd":"/tmp/switchboard-copilot-5gySb6/home/project",' +
        '"errorContext":"model_call","recoverable":true,"error":{"message":"{\\"message\\":\\"Rate limit reached for gpt-4o-mini in organization ' +
        'org-mock on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.\\",\\"type\\":\\"requests\\",\\"param\\":null,' +
        '\\"code\\":\\"rate_limit_exceeded\\"}","name":"Error","stack":"Error: …"}}',
      source: 'Copilot CLI 1.0.102 (BYOK) against the mock Chat Completions API answering 429 rate_limit_exceeded, retry-after 1',
    },
  },
];

/** Copilot ends a hook after this long; the post's own bound is shorter. */
const HOOK_TIMEOUT_S = 5;

function hookCommand(hook: CopilotStatusHook, hooksUrl: string): string {
  const checks = hook.inputHas.map((text) => `case "$input" in *'${text}'*) ;; *) exit 0 ;; esac`);
  const named = `sed 's/}[[:space:]]*$/,"hook_event_name":"${hook.postsAs}"}/'`;
  const post = hook.forwardsInput
    ? `printf '%s' "$input" | ${named} | ${hookPostCommand(hooksUrl, HOOK_STDIN_BODY)}`
    : hookPostCommand(hooksUrl, `--data '{"hook_event_name":"${hook.postsAs}"}'`);
  return ['input=$(cat)', ...checks, post].join('; ');
}

/** The plugin's files for the hook receiver at `hooksUrl`. */
function copilotStatusPluginFiles(hooksUrl: string): Record<string, string> {
  const hooks = Object.fromEntries(
    COPILOT_STATUS_HOOKS.map((hook) => [
      hook.copilotEvent,
      [{ type: 'command', bash: hookCommand(hook, hooksUrl), timeoutSec: Math.max(HOOK_TIMEOUT_S, HOOK_POST_TIMEOUT_MS / 1000) }],
    ]),
  );
  return {
    'plugin.json': JSON.stringify({
      name: 'switchboard-status',
      description: "Reports this session's turn to Switchboard.",
      version: '1.0.0',
    }),
    'hooks/hooks.json': JSON.stringify({ version: 1, hooks }, null, 2),
  };
}

/** Writes the plugin for `endpoint` (once per content) and returns its folder for `--plugin-dir`. */
export function copilotStatusPlugin(endpoint: McpEndpoint): string {
  return ownedDirectory('copilot-status-plugin', copilotStatusPluginFiles(new URL(MCP_HOOKS_PATH, endpoint.url).toString()));
}
