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
  url: string;
  token: string;
  pid: number;
  client: Client;
  stderr: () => string;
  /** Sends `signal` and resolves with the exit code once the process is gone. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/** `trust` (default true): `--trust`, the project's switchboard.json as it is may run (kept in the data dir). */
export async function startServe(projectDir: string, dataDir: string, staticDir: string, trust = true): Promise<ServeChild> {
  const { child, printed, stderr, exited } = await spawnServe({ projectDir, dataDir, staticDir }, trust ? ['--trust'] : []);
  const { url, token, pid } = printed;
  const client = await connectClient(url, token);
  return {
    child,
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
