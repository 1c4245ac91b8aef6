/**
 * `serve` as a real child process on a given project and data directory, with an MCP client
 * connected as an external caller.
 */
import type { ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient } from '../mcp/mcpHarness';
import { spawnServe } from '../serve/serveProcess';

export interface ServeChild {
  child: ChildProcess;
  /** The browser UI's address, its sign-in secret in the fragment. */
  ui: string;
  url: string;
  token: string;
  pid: number;
  client: Client;
  stderr: () => string;
  /** Sends `signal` and resolves with the exit code once the process is gone. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

interface ServeChildOptions {
  /** Default true: `--trust`, the project's switchboard.json as it is may run (kept in the data dir). */
  trust?: boolean;
  /** Environment serve starts with, over this process's (a key the user's shell exports). */
  env?: Record<string, string>;
}

export async function startServe(
  projectDir: string,
  dataDir: string,
  staticDir: string,
  options: ServeChildOptions = {},
): Promise<ServeChild> {
  const trust = options.trust === false ? [] : ['--trust'];
  const { child, printed, stderr, exited } = await spawnServe({ projectDir, dataDir, staticDir }, trust, options.env);
  const { ui, url, token, pid } = printed;
  const client = await connectClient(url, token);
  return {
    child,
    ui,
    url,
    token,
    pid,
    client,
    stderr,
    async stop(signal) {
      await client.close().catch(() => undefined);
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
