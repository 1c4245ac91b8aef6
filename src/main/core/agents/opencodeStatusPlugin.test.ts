import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MCP_HOOKS_PATH } from '../../../shared/mcp';
import { opencodeStatusPlugin } from './opencodeStatusPlugin';
import { RUN_TOKEN, startHookPosts, type HookPosts } from './testing/hookPosts';

type EventHook = (input: { event: { type: string; properties: Record<string, unknown> } }) => Promise<void>;

/** The real plugin module, loaded as opencode loads it, posting to a local receiver. */
describe('opencode status plugin', () => {
  let receiver: HookPosts;
  let event: EventHook;

  beforeEach(async () => {
    receiver = await startHookPosts();
    const mod = (await import(opencodeStatusPlugin({ url: receiver.url, token: 'unused' }))) as {
      SwitchboardStatus: () => Promise<{ event: EventHook }>;
    };
    event = (await mod.SwitchboardStatus()).event;
  });

  afterEach(() => receiver.close());

  const postsAfter = (n: number) => receiver.eventsAfter(n);

  const toolPart = (status: string, callID = 'call_1', sessionID = 'ses_main') => ({
    type: 'message.part.updated',
    properties: { part: { type: 'tool', tool: 'bash', callID, sessionID, state: { status } } },
  });

  it('reports a tool call once when it starts running and once when it completes, with the run token', async () => {
    for (const status of ['pending', 'running', 'running', 'completed', 'completed']) await event({ event: toolPart(status) });
    expect(await postsAfter(2)).toEqual(['PreToolUse', 'PostToolUse']);
    expect(receiver.posted[0]).toMatchObject({ path: MCP_HOOKS_PATH, authorization: `Bearer ${RUN_TOKEN}`, body: { tool_name: 'bash' } });
  });

  it('reports a failed tool call as finished', async () => {
    await event({ event: toolPart('running', 'call_2') });
    await event({ event: toolPart('error', 'call_2') });
    expect(await postsAfter(2)).toEqual(['PreToolUse', 'PostToolUse']);
  });

  it("reports a retry with opencode's own attempt, message and time of the next attempt", async () => {
    const retry = { type: 'retry', attempt: 2, message: 'Rate limit exceeded', next: 1_800_000_000_000 };
    await event({ event: { type: 'session.status', properties: { sessionID: 'ses_main', status: retry } } });
    expect(await postsAfter(1)).toEqual(['ApiRetry']);
    expect(receiver.posted[0].body).toEqual({
      hook_event_name: 'ApiRetry',
      message: 'Rate limit exceeded',
      attempt: 2,
      retry_at: 1_800_000_000_000,
    });
  });

  const status = (type: string) => ({ type: 'session.status', properties: { sessionID: 'ses_main', status: { type } } });
  const sessionError = (error: Record<string, unknown>) => ({ type: 'session.error', properties: { sessionID: 'ses_main', error } });

  it("reports a turn that ended on an error with the error at opencode's idles, before the TUI draws it; the next turn's idle is a Stop", async () => {
    const gaveUp = {
      name: 'APIError',
      data: { message: 'The server had an error while processing your request.', statusCode: 500, isRetryable: true },
    };
    // opencode 1.18.33's processor: session.error, then idle (set twice), and a new turn's busy.
    await event({ event: sessionError(gaveUp) });
    // Each post awaited before the next event: their order is the point.
    for (const [i, e] of [status('idle'), status('idle'), status('busy'), status('idle')].entries()) {
      await event({ event: e });
      await postsAfter(i + 1);
    }
    expect(await postsAfter(4)).toEqual(['TurnError', 'TurnError', 'UserPromptSubmit', 'Stop']);
    expect(receiver.posted[0].body).toEqual({
      hook_event_name: 'TurnError',
      message: 'The server had an error while processing your request.',
      status_code: 500,
      error_name: 'APIError',
    });
  });

  it('reads an interrupt (MessageAbortedError) as the end of the turn, no error', async () => {
    await event({ event: sessionError({ name: 'MessageAbortedError', data: { message: 'The operation was aborted.' } }) });
    await event({ event: status('idle') });
    expect(await postsAfter(1)).toEqual(['Stop']);
  });

  it('ignores the tool calls of a subagent session', async () => {
    await event({ event: { type: 'session.created', properties: { info: { id: 'ses_child', parentID: 'ses_main' } } } });
    await event({ event: toolPart('running', 'call_3', 'ses_child') });
    await event({ event: { type: 'session.status', properties: { sessionID: 'ses_main', status: { type: 'idle' } } } });
    expect(await postsAfter(1)).toEqual(['Stop']);
  });

  const assistant = (id: string, sessionID: string, modelID: string) => ({
    type: 'message.updated',
    properties: { info: { id, sessionID, role: 'assistant', modelID, providerID: 'mock' } },
  });
  const stepFinish = (id: string, messageID: string, sessionID: string, input: number) => ({
    type: 'message.part.updated',
    properties: {
      part: {
        id,
        messageID,
        sessionID,
        type: 'step-finish',
        reason: 'stop',
        cost: 0.25,
        tokens: { input, output: 3, reasoning: 1, cache: { read: 0, write: 0 } },
      },
    },
  });

  it("posts each step's tokens and cost once, with its message's model, a subagent's too, before the turn's Stop", async () => {
    await event({ event: { type: 'session.created', properties: { info: { id: 'ses_child', parentID: 'ses_main' } } } });
    await event({ event: assistant('msg_1', 'ses_main', 'model-a') });
    await event({ event: stepFinish('prt_1', 'msg_1', 'ses_main', 100) });
    await event({ event: stepFinish('prt_1', 'msg_1', 'ses_main', 100) });
    await event({ event: assistant('msg_2', 'ses_child', 'model-b') });
    await event({ event: stepFinish('prt_2', 'msg_2', 'ses_child', 200) });
    await event({ event: status('idle') });
    expect(await postsAfter(3)).toEqual(['UsageStep', 'UsageStep', 'Stop']);
    expect(receiver.posted.map((p) => p.body)).toEqual([
      {
        hook_event_name: 'UsageStep',
        step: {
          id: 'prt_1',
          sessionID: 'ses_main',
          model: 'model-a',
          cost: 0.25,
          tokens: { input: 100, output: 3, reasoning: 1, cache: { read: 0, write: 0 } },
        },
      },
      {
        hook_event_name: 'UsageStep',
        step: {
          id: 'prt_2',
          sessionID: 'ses_child',
          model: 'model-b',
          cost: 0.25,
          tokens: { input: 200, output: 3, reasoning: 1, cache: { read: 0, write: 0 } },
        },
      },
      { hook_event_name: 'Stop' },
    ]);
  });
});
