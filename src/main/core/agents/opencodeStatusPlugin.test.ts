import { createServer, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MCP_HOOKS_PATH, MCP_TOKEN_ENV } from '../../../shared/mcp';
import { opencodeStatusPlugin } from './opencodeStatusPlugin';

interface Posted {
  path: string | undefined;
  authorization: string | undefined;
  body: { hook_event_name: string; tool_name?: string; notification_type?: string };
}

type EventHook = (input: { event: { type: string; properties: Record<string, unknown> } }) => Promise<void>;

/** The real plugin module, loaded as opencode loads it, posting to a local receiver. */
describe('opencode status plugin', () => {
  let server: Server;
  let posted: Posted[];
  let event: EventHook;
  let waiters: Array<() => void>;

  beforeEach(async () => {
    posted = [];
    waiters = [];
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        posted.push({ path: req.url, authorization: req.headers.authorization, body: JSON.parse(body) as Posted['body'] });
        res.end('{}');
        waiters.splice(0).forEach((w) => w());
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
    process.env[MCP_TOKEN_ENV] = 'run-token';
    const mod = (await import(opencodeStatusPlugin({ url, token: 'unused' }))) as {
      SwitchboardStatus: () => Promise<{ event: EventHook }>;
    };
    event = (await mod.SwitchboardStatus()).event;
  });

  afterEach(async () => {
    delete process.env[MCP_TOKEN_ENV];
    await new Promise((done) => server.close(done));
  });

  async function postsAfter(n: number): Promise<string[]> {
    while (posted.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    return posted.map((p) => p.body.hook_event_name);
  }

  const toolPart = (status: string, callID = 'call_1', sessionID = 'ses_main') => ({
    type: 'message.part.updated',
    properties: { part: { type: 'tool', tool: 'bash', callID, sessionID, state: { status } } },
  });

  it('reports a tool call once when it starts running and once when it completes, with the run token', async () => {
    for (const status of ['pending', 'running', 'running', 'completed', 'completed']) await event({ event: toolPart(status) });
    expect(await postsAfter(2)).toEqual(['PreToolUse', 'PostToolUse']);
    expect(posted[0]).toMatchObject({ path: MCP_HOOKS_PATH, authorization: 'Bearer run-token', body: { tool_name: 'bash' } });
  });

  it('reports a failed tool call as finished', async () => {
    await event({ event: toolPart('running', 'call_2') });
    await event({ event: toolPart('error', 'call_2') });
    expect(await postsAfter(2)).toEqual(['PreToolUse', 'PostToolUse']);
  });

  it('ignores the tool calls of a subagent session', async () => {
    await event({ event: { type: 'session.created', properties: { info: { id: 'ses_child', parentID: 'ses_main' } } } });
    await event({ event: toolPart('running', 'call_3', 'ses_child') });
    await event({ event: { type: 'session.status', properties: { sessionID: 'ses_main', status: { type: 'idle' } } } });
    expect(await postsAfter(1)).toEqual(['Stop']);
  });
});
