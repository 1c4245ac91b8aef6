/**
 * The shell command a CLI's command hook runs to post to Switchboard's hook receiver (Gemini CLI's
 * hooks, Copilot CLI's status plugin): curl with the run's token from the environment (hooks
 * inherit it), bounded in time, printing nothing (a hook's stdout may be read as its answer) and
 * never failing the CLI: no curl, or no Switchboard, is a lost signal and the screen decides.
 */
import { MCP_TOKEN_ENV } from '../../../shared/mcp';

/** How long one post may take; a hook the CLI waits for must not hold its turn longer. */
export const HOOK_POST_TIMEOUT_MS = 2_000;

/** `data`: curl's body arguments (`--data-binary @-` posts the hook's stdin). */
export function hookPostCommand(hooksUrl: string, data: string): string {
  return (
    `curl -s -m ${HOOK_POST_TIMEOUT_MS / 1000} -o /dev/null -H 'Content-Type: application/json' ` +
    `-H "Authorization: Bearer $${MCP_TOKEN_ENV}" ${data} '${hooksUrl}' || true`
  );
}
