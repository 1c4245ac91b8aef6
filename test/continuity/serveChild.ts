/**
 * `serve` as a real child process (one node process, so SIGKILL really kills the app) on a given
 * project and data directory, with an MCP client connected as an external caller.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient } from '../mcp/mcpHarness';

const ROOT = resolve(__dirname, '../..');
/** tsx compiles serve on the fly: a few seconds on a busy machine. */
export const SERVE_START_TIMEOUT_MS = 60_000;

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
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'src/main/serve.ts'),
      '--project',
      projectDir,
      '--data-dir',
      dataDir,
      '--static-dir',
      staticDir,
      ...(trust ? ['--trust'] : []),
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const line = await new Promise<string>((resolveLine, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve printed nothing within ${SERVE_START_TIMEOUT_MS} ms; stderr:\n${stderr}`)),
      SERVE_START_TIMEOUT_MS,
    );
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (l) => {
      clearTimeout(timer);
      lines.close();
      resolveLine(l);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}; stderr:\n${stderr}`)));
  });
  const printed = JSON.parse(line) as { url: string; token: string; pid: number };
  const client = await connectClient(printed.url, printed.token);
  return {
    child,
    ...printed,
    client,
    stderr: () => stderr,
    async stop(signal) {
      await client.close().catch(() => undefined);
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
