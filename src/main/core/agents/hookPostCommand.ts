/**
 * The shell command a CLI's command hook runs to post to Switchboard's hook receiver (Gemini CLI's
 * hooks, Copilot CLI's status plugin): curl, bounded in time, printing nothing (a hook's stdout may
 * be read as its answer) and never failing the CLI: no curl, or no Switchboard, is a lost signal
 * and the screen decides.
 *
 * The run's token never enters an argv (`/proc/<pid>/cmdline` is world-readable): `printf`, a
 * shell builtin in sh (dash, bash's sh mode) and bash, so no process is executed for it, writes a
 * curl config line with the header into a pipe that curl gets as fd 4 and reads as its config file
 * (`-K /dev/fd/4`; /dev/fd on Linux and macOS). The token comes from `printenv` (its argv names the
 * variable only), never from `$NAME` or `${NAME}` in the command: Gemini CLI replaces those in its
 * settings with their values before it runs the hook, which put the token into `bash -c`'s argv. curl's stdin stays the hook's, the payload
 * (`--data-binary @-`): a CLI written in Node gives its hooks a socket as stdin, which, unlike a
 * pipe, cannot be opened again through /dev/fd on Linux.
 */
import { MCP_TOKEN_ENV } from '../../../shared/mcp';

/** How long one post may take; a hook the CLI waits for must not hold its turn longer. */
export const HOOK_POST_TIMEOUT_MS = 2_000;

/** curl's body argument that posts what the hook got on its stdin. */
export const HOOK_STDIN_BODY = '--data-binary @-';

/** A curl config line (`header = "…"`) carrying the token from the environment; the token is base64url, nothing to escape. */
const AUTHORIZATION_CONFIG = `printf 'header = "Authorization: Bearer %s"\\n' "$(printenv ${MCP_TOKEN_ENV})"`;

/**
 * `data`: curl's body arguments (`HOOK_STDIN_BODY`, or a literal `--data '…'`, which holds no secret).
 * `answer`: `print` writes the receiver's answer to stdout (nothing when it refuses: `-f`).
 */
export function hookPostCommand(hooksUrl: string, data: string, answer: 'discard' | 'print' = 'discard'): string {
  const output = answer === 'print' ? '-f' : '-o /dev/null';
  const curl = `curl -s -m ${HOOK_POST_TIMEOUT_MS / 1000} ${output} -K /dev/fd/4 -H 'Content-Type: application/json' ${data} '${hooksUrl}'`;
  // Inside the group, fd 3 is the hook's stdin; curl gets the printf pipe as fd 4 and fd 3 back as its stdin.
  return `{ ${AUTHORIZATION_CONFIG} | ${curl} 4<&0 <&3 3<&-; } 3<&0 || true`;
}
