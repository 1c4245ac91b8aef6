/**
 * Protocol-level checks of the mock model servers (no CLI involved, fast): event order and
 * shapes, error sequencing, hang/release, client aborts, main/side classification.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startMockAnthropic, type MockAnthropic } from '../fixtures/anthropic/mockAnthropic';
import { startMockResponses, type MockResponses } from '../fixtures/openai/mockResponses';

const TOOLS = [{ name: 'Bash', description: 'Run a command', input_schema: { type: 'object' } }];
const SHORT_TIMEOUT_MS = 200;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await (cleanups.pop() as () => Promise<void>)();
});

async function anthropic(...args: Parameters<typeof startMockAnthropic>): Promise<MockAnthropic> {
  const mock = await startMockAnthropic(...args);
  cleanups.push(() => mock.close());
  return mock;
}

async function responses(...args: Parameters<typeof startMockResponses>): Promise<MockResponses> {
  const mock = await startMockResponses(...args);
  cleanups.push(() => mock.close());
  return mock;
}

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>;
      return { event, data };
    });
}

function postMessages(mock: MockAnthropic, body: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${mock.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'claude-test', max_tokens: 1000, messages: [{ role: 'user', content: 'hi' }], ...body }),
    signal,
  });
}

describe('mock Anthropic Messages API', () => {
  it('streams text and tool_use blocks like the real API', async () => {
    const input = { command: 'sleep 3 && echo done', description: 'Wait' };
    const mock = await anthropic({ turns: [[{ text: 'Let me check.' }, { toolUse: { name: 'Bash', input } }]] });
    const res = await postMessages(mock, { stream: true, tools: TOOLS });
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const json = events
      .map((e) => e.data.delta as { type?: string; partial_json?: string } | undefined)
      .filter((d) => d?.type === 'input_json_delta')
      .map((d) => d?.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual(input);
    expect(events.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { output_tokens: expect.any(Number) } });
    const toolUse = await mock.waitFor('tool_use');
    expect(toolUse).toMatchObject({ name: 'Bash', input, kind: 'main', turn: 0 });
  });

  it('fails leading httpError steps once per request, then streams the rest of the turn', async () => {
    const mock = await anthropic({ turns: [[{ httpError: 529 }, { httpError: 529 }, { text: 'ok' }]] });
    const first = await postMessages(mock, { stream: true, tools: TOOLS });
    expect(first.status).toBe(529);
    expect(await first.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expect((await postMessages(mock, { stream: true, tools: TOOLS })).status).toBe(529);
    const third = await postMessages(mock, { stream: true, tools: TOOLS });
    expect(third.status).toBe(200);
    await third.text();
    const ends = mock.events.filter((e) => e.type === 'stream_end' || e.type === 'http_error');
    expect(ends.map((e) => [e.type, e.turn])).toEqual([
      ['http_error', 0],
      ['http_error', 0],
      ['stream_end', 0],
    ]);
  });

  it('answers side requests at once, without consuming a turn', async () => {
    const mock = await anthropic({ turns: [[{ text: 'main answer' }]] });
    const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
    const res = await postMessages(mock, { stream: false, tools: [], output_config: { format: { type: 'json_schema', schema } } });
    const body = (await res.json()) as { content: Array<{ text: string }>; usage: { output_tokens: number } };
    expect(JSON.parse(body.content[0].text)).toEqual({ title: 'Mock session' });
    expect(mock.pendingTurns).toBe(1);
    expect(mock.requests[0].kind).toBe('side');
  });

  it('parks a stream on { hang: true } until release()', async () => {
    const mock = await anthropic({ turns: [[{ text: 'before' }, { hang: true }, { text: 'after' }]] });
    const pending = postMessages(mock, { stream: true, tools: TOOLS }).then((r) => r.text());
    await mock.waitFor('hang_start');
    await expect(mock.waitFor('stream_end', undefined, { timeoutMs: SHORT_TIMEOUT_MS })).rejects.toThrow(/Timed out/);
    expect(mock.release()).toBe(1);
    const text = await pending;
    expect(text).toContain('after');
    expect(await mock.waitFor('hang_end')).toMatchObject({ reason: 'released' });
  });

  it('records a client that goes away mid-stream', async () => {
    const mock = await anthropic({ turns: [[{ text: 'start' }, { hangMs: 20_000 }]] });
    const abort = new AbortController();
    const res = await postMessages(mock, { stream: true, tools: TOOLS }, abort.signal);
    await mock.waitFor('hang_start');
    abort.abort();
    await res.text().catch(() => undefined);
    await mock.waitFor('client_abort');
    expect(await mock.waitFor('hang_end')).toMatchObject({ reason: 'aborted' });
  });

  it('extracts the user text and tool results of the last user message', async () => {
    const mock = await anthropic();
    await postMessages(mock, {
      stream: true,
      tools: TOOLS,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '<system-reminder>ctx</system-reminder>' },
            { type: 'text', text: 'run it' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'done' }] }] },
      ],
    }).then((r) => r.text());
    const request = await mock.waitFor('request');
    expect(request).toMatchObject({
      userText: null,
      scripted: false,
      toolResults: [{ toolUseId: 'toolu_1', isError: false, content: 'done' }],
    });
    expect(await mock.waitFor('tool_result')).toMatchObject({ toolUseId: 'toolu_1', content: 'done' });
  });

  it('puts the caller context into timeout messages', async () => {
    const mock = await anthropic();
    await expect(mock.waitFor('tool_use', undefined, { timeoutMs: SHORT_TIMEOUT_MS, context: () => 'SCREEN TEXT HERE' })).rejects.toThrow(
      /"tool_use" event[\s\S]*SCREEN TEXT HERE/,
    );
  });
});

function postResponses(mock: MockResponses, body: Record<string, unknown>, source = 'user'): Promise<Response> {
  return fetch(`${mock.url}/v1/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-codex-turn-metadata': JSON.stringify({ thread_source: source }) },
    body: JSON.stringify({
      model: 'gpt-test',
      stream: true,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'say hi' }] }],
      ...body,
    }),
  });
}

describe('mock OpenAI Responses API', () => {
  it('streams a message and a function call, then response.completed with usage', async () => {
    const mock = await responses({ turns: [[{ text: 'Hi there' }, { functionCall: { name: 'exec_command', arguments: { cmd: 'ls' } } }]] });
    const events = parseSse(await (await postResponses(mock, { tools: [{ type: 'function', name: 'exec_command' }] })).text());
    const types = events.map((e) => e.event);
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.output_text.delta');
    expect(types).toContain('response.function_call_arguments.done');
    expect(types.at(-1)).toBe('response.completed');
    const completed = events.at(-1)?.data.response as { output: Array<{ type: string }>; usage: { total_tokens: number } };
    expect(completed.output.map((o) => o.type)).toEqual(['message', 'function_call']);
    expect(completed.usage.total_tokens).toBeGreaterThan(0);
    expect(await mock.waitFor('request')).toMatchObject({ kind: 'main', userText: 'say hi', source: 'user' });
    expect(await mock.waitFor('function_call')).toMatchObject({ name: 'exec_command', arguments: '{"cmd":"ls"}' });
  });

  it('classifies by thread_source: the title request is a side request', async () => {
    const mock = await responses({ turns: [[{ text: 'main' }]] });
    const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
    const text = await (await postResponses(mock, { tools: [], text: { format: { type: 'json_schema', schema } } }, 'thread_title')).text();
    expect(text).toContain('{\\"title\\":\\"Mock task\\"}');
    expect(mock.pendingTurns).toBe(1);
  });

  it('turns a mid-stream httpError into response.failed', async () => {
    const mock = await responses({ turns: [[{ text: 'partial' }, { httpError: 500 }]] });
    const events = parseSse(await (await postResponses(mock, { tools: [{ type: 'function', name: 'x' }] })).text());
    expect(events.at(-1)?.event).toBe('response.failed');
    expect(await mock.waitFor('http_error')).toMatchObject({ status: 500, midStream: true });
  });
});
