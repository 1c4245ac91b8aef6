import { createServer, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MCP_HOOKS_PATH, MCP_TOKEN_ENV } from '../../../shared/mcp';
import { piStatusExtension } from './piStatusExtension';

interface Posted {
  path: string | undefined;
  authorization: string | undefined;
  body: { hook_event_name: string; tool_name?: string };
}

type Handler = (event: Record<string, unknown>) => void;

/** The real extension module, loaded as pi loads it (its default export gets the API), posting to a local receiver. */
describe('pi status extension', () => {
  let server: Server;
  let posted: Posted[];
  let handlers: Map<string, Handler>;
  let waiters: Array<() => void>;

  beforeEach(async () => {
    posted = [];
    waiters = [];
    handlers = new Map();
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
    const mod = (await import(piStatusExtension({ url, token: 'unused' }))) as {
      default: (pi: { on(name: string, h: Handler): void }) => void;
    };
    mod.default({ on: (name, h) => handlers.set(name, h) });
  });

  afterEach(async () => {
    delete process.env[MCP_TOKEN_ENV];
    await new Promise((done) => server.close(done));
  });

  async function postsAfter(n: number): Promise<string[]> {
    while (posted.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    return posted.map((p) => p.body.hook_event_name);
  }

  const emit = (name: string, event: Record<string, unknown> = {}) => handlers.get(name)!({ type: name, ...event });
  const assistant = (stopReason: string) => ({ messages: [{ role: 'user' }, { role: 'assistant', stopReason }] });

  it('reports a turn with a tool as prompt, tool start and end, stop — with the run token', async () => {
    emit('agent_start');
    emit('tool_execution_start', { toolName: 'bash', toolCallId: 'call_1' });
    emit('tool_execution_end', { toolName: 'bash', toolCallId: 'call_1', isError: false });
    emit('agent_end', assistant('stop'));
    expect(await postsAfter(4)).toEqual(['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop']);
    expect(posted[1]).toMatchObject({ path: MCP_HOOKS_PATH, authorization: 'Bearer run-token', body: { tool_name: 'bash' } });
  });

  it('reports the first text of each assistant message once (thinking deltas are not text)', async () => {
    const delta = (type: string) => ({ assistantMessageEvent: { type } });
    emit('message_start');
    emit('message_update', delta('thinking_delta'));
    emit('message_update', delta('text_delta'));
    emit('message_update', delta('text_delta'));
    emit('message_start');
    emit('message_update', delta('text_delta'));
    expect(await postsAfter(2)).toEqual(['ResponseStart', 'ResponseStart']);
  });

  it('a turn that ended in an API error is not over: pi may retry it, so no Stop is sent', async () => {
    emit('agent_start');
    emit('agent_end', assistant('error'));
    emit('agent_start');
    emit('agent_end', assistant('stop'));
    expect(await postsAfter(3)).toEqual(['UserPromptSubmit', 'UserPromptSubmit', 'Stop']);
  });

  it('an aborted turn (Escape) is over', async () => {
    emit('agent_end', assistant('aborted'));
    expect(await postsAfter(1)).toEqual(['Stop']);
  });
});
