/**
 * A local stand-in for Switchboard's hook receiver, for the tests of the status modules that
 * Switchboard writes for agent CLIs (opencode's plugin, pi's extension): it records each post and
 * lets a test wait for the n-th one, with the run token set in the environment as the CLI would.
 */
import { createServer, type Server } from 'node:http';
import { MCP_TOKEN_ENV } from '../../../../shared/mcp';

interface Posted {
  path: string | undefined;
  authorization: string | undefined;
  body: { hook_event_name: string; tool_name?: string; notification_type?: string };
}

export interface HookPosts {
  /** The endpoint URL to hand the module under test (`…/mcp`; hooks go to its sibling path). */
  url: string;
  posted: Posted[];
  /** Resolves with the event names once `n` posts have arrived. */
  eventsAfter(n: number): Promise<string[]>;
  close(): Promise<void>;
}

export const RUN_TOKEN = 'run-token';

export async function startHookPosts(): Promise<HookPosts> {
  const posted: Posted[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      posted.push({ path: req.url, authorization: req.headers.authorization, body: JSON.parse(body) as Posted['body'] });
      res.end('{}');
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  process.env[MCP_TOKEN_ENV] = RUN_TOKEN;
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`,
    posted,
    async eventsAfter(n) {
      while (posted.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
      return posted.map((p) => p.body.hook_event_name);
    },
    async close() {
      delete process.env[MCP_TOKEN_ENV];
      await new Promise((done) => server.close(done));
    },
  };
}
