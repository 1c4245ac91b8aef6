import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MCP_HOOKS_PATH } from '../../../shared/mcp';
import { piStatusExtension } from './piStatusExtension';
import { RUN_TOKEN, startHookPosts, type HookPosts } from './testing/hookPosts';

type Handler = (event: Record<string, unknown>) => void;

/** The real extension module, loaded as pi loads it (its default export gets the API), posting to a local receiver. */
describe('pi status extension', () => {
  let receiver: HookPosts;
  let handlers: Map<string, Handler>;

  beforeEach(async () => {
    receiver = await startHookPosts();
    handlers = new Map();
    const mod = (await import(piStatusExtension({ url: receiver.url, token: 'unused' }))) as {
      default: (pi: { on(name: string, h: Handler): void }) => void;
    };
    mod.default({ on: (name, h) => handlers.set(name, h) });
  });

  afterEach(() => receiver.close());

  const postsAfter = (n: number) => receiver.eventsAfter(n);
  const emit = (name: string, event: Record<string, unknown> = {}) => handlers.get(name)!({ type: name, ...event });
  const assistant = (stopReason: string) => ({ messages: [{ role: 'user' }, { role: 'assistant', stopReason }] });

  it('reports a turn with a tool as prompt, tool start and end, stop — with the run token', async () => {
    emit('agent_start');
    emit('tool_execution_start', { toolName: 'bash', toolCallId: 'call_1' });
    emit('tool_execution_end', { toolName: 'bash', toolCallId: 'call_1', isError: false });
    emit('agent_end', assistant('stop'));
    expect(await postsAfter(4)).toEqual(['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop']);
    expect(receiver.posted[1]).toMatchObject({ path: MCP_HOOKS_PATH, authorization: `Bearer ${RUN_TOKEN}`, body: { tool_name: 'bash' } });
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
