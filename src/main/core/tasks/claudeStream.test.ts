import { describe, expect, it } from 'vitest';
import { decodeClaudeMessage } from './claudeStream';
import { NdjsonReader } from './ndjsonReader';
import type { TaskStreamEvent } from './taskEvents';
import { readCapture } from './testing/fakeTaskSession';

function decodeCapture(name: string): TaskStreamEvent[] {
  const reader = new NdjsonReader();
  const items = [...reader.push(readCapture(name)), ...reader.flush()];
  return items.flatMap((i) => (i.kind === 'json' ? decodeClaudeMessage(i.value) : []));
}

describe('decodeClaudeMessage (Claude Code 2.1.197 captures)', () => {
  it('a Bash run: init, text, tool start, complete tool input, tool result, success with cost and usage', () => {
    const events = decodeCapture('claude-2.1.197-bash-success');
    expect(events[0]).toMatchObject({ type: 'init', model: 'claude-opus-4-8[1m]', version: '2.1.197' });
    expect(
      events
        .filter((e) => e.type === 'text')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toContain('Running it.');
    expect(events).toContainEqual({ type: 'tool_start', id: 'toolu_mock_1', name: 'Bash' });
    const call = events.find((e) => e.type === 'assistant' && e.toolUses.length > 0);
    expect(call).toMatchObject({ toolUses: [{ name: 'Bash', input: { command: 'sleep 1 && echo done', timeout: 60000 } }] });
    expect(events).toContainEqual({ type: 'tool_result', toolUseId: 'toolu_mock_1', isError: false, preview: 'done' });
    const result = events.at(-1);
    expect(result).toMatchObject({
      type: 'result',
      result: { subtype: 'success', isError: false, text: 'All done: the command printed done.', numTurns: 2 },
      usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
    });
    expect((result as { result: { costUsd: number } }).result.costUsd).toBeGreaterThan(0);
  });

  it('max turns: error_max_turns with its error message', () => {
    const result = decodeCapture('claude-2.1.197-max-turns').at(-1);
    expect(result).toMatchObject({
      type: 'result',
      result: { subtype: 'error_max_turns', isError: true, errors: ['Reached maximum number of turns (1)'], terminalReason: 'max_turns' },
    });
  });

  it('a retried request: api_retry with status and attempt', () => {
    const retry = decodeCapture('claude-2.1.197-retry').find((e) => e.type === 'retry');
    expect(retry).toMatchObject({ type: 'retry', attempt: 1, maxRetries: 10, errorStatus: 529 });
  });

  it('a subagent: its prompt is nested under the Task call', () => {
    const events = decodeCapture('claude-2.1.197-subagent');
    expect(events).toContainEqual({ type: 'tool_start', id: 'toolu_mock_1', name: 'Task' });
    expect(events).toContainEqual({ type: 'activity', kind: 'subagent', description: 'subagent started: look around' });
    expect(events).toContainEqual({ type: 'activity', kind: 'user', description: 'subagent prompt' });
  });

  it('every error_* subtype is an error, and a success flagged is_error is one too', () => {
    for (const subtype of [
      'error_max_turns',
      'error_during_execution',
      'error_max_budget_usd',
      'error_max_structured_output_retries',
      'error_future_kind',
    ]) {
      expect(decodeClaudeMessage({ type: 'result', subtype, is_error: true })).toMatchObject([
        { type: 'result', result: { subtype, isError: true } },
      ]);
    }
    expect(decodeClaudeMessage({ type: 'result', subtype: 'success', is_error: true, result: 'Invalid API key' })).toMatchObject([
      { type: 'result', result: { subtype: 'success', isError: true, text: 'Invalid API key' } },
    ]);
  });

  it('tolerates unknown and malformed messages', () => {
    expect(decodeClaudeMessage({ type: 'brand_new' })).toEqual([{ type: 'activity', kind: 'brand_new', description: 'brand_new message' }]);
    expect(decodeClaudeMessage({})).toMatchObject([{ type: 'activity' }]);
    expect(decodeClaudeMessage({ type: 'assistant', message: 'nope' })).toMatchObject([{ type: 'assistant', text: '', toolUses: [] }]);
    expect(decodeClaudeMessage({ type: 'stream_event' })).toMatchObject([{ type: 'heartbeat' }]);
    expect(decodeClaudeMessage({ type: 'stream_event', event: { type: 'ping' } })).toEqual([{ type: 'heartbeat', kind: 'ping' }]);
    expect(
      decodeClaudeMessage({
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'x'.repeat(1000) }] }] },
      }),
    ).toMatchObject([{ type: 'tool_result', toolUseId: 't1', preview: expect.stringMatching(/^x{299}…$/) }]);
  });
});
