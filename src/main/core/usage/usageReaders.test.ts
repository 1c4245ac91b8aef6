/**
 * The readers against real records: Claude Code 2.1.332's transcript and Codex 0.171.0's rollout
 * log, each written by the real CLI against its mock model API with scripted token counts per turn
 * (test/fixtures/usage; turns of 1111/222/3333/44 and 555/66/7777/88 tokens for Claude Code,
 * 1111 (333 cached)/222 and 5555 (777 cached)/66 for Codex, with x-codex-* rate-limit headers),
 * pi 0.73.1's session file (`pi -p` twice, the second `--continue`; the mock's own counts
 * 613/7 and 643/13, prices in its models.json), Gemini CLI 0.61.0's chat recording (`gemini -p`
 * with one shell call: the mock's own prompt counts 191 and 314 with 123 and 234 of them cached,
 * 19 and 6 output with 11 and 7 thinking tokens), opencode 1.18.33's step-finish records as the
 * preset's plugin posted them (`opencode run`: a bash call and an answer, the mock's own counts
 * 2464/16 and 2534/16, prices 3 / 15 USD per million in opencode.json), and Copilot CLI 1.0.102's
 * session event log (`copilot -p`, BYOK against the mock: a bash call and an answer, 5542/16 and
 * 5626/16; the lines of the turn, its usage records and its shutdown summary kept).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaudeTranscriptAccumulator } from './claudeTranscript';
import { CodexRolloutAccumulator } from './codexRollout';
import { GeminiChatAccumulator } from './geminiChat';
import { JsonlTail } from './jsonlTail';
import { PiSessionAccumulator } from './piSession';
import { QwenChatAccumulator } from './qwenChat';
import { OpencodeStepAccumulator } from './opencodeSteps';
import { CopilotEventsAccumulator } from './copilotEvents';
import { toUsageRecord } from './pricing';
import { MODEL_TABLE } from './priceTable';
import type { UsageAccumulator } from './usageAccumulator';

const FIXTURES = path.join(__dirname, '../../../../test/fixtures/usage');
const CLAUDE_SAMPLE = path.join(FIXTURES, 'claude-2.1.332-transcript.jsonl');
const CODEX_SAMPLE = path.join(FIXTURES, 'codex-0.171.0-rollout.jsonl');
const PI_SAMPLE = path.join(FIXTURES, 'pi-0.73.1-session.jsonl');
const OPENCODE_SAMPLE = path.join(FIXTURES, 'opencode-1.18.33-steps.json');
const COPILOT_SAMPLE = path.join(FIXTURES, 'copilot-1.0.102-events.jsonl');
const GEMINI_SAMPLE = path.join(FIXTURES, 'gemini-0.61.0-chat.jsonl');

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function lines(file: string): unknown[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);
}

function feed(acc: UsageAccumulator, records: unknown[]): UsageAccumulator {
  for (const r of records) acc.push(r);
  return acc;
}

describe('Claude Code transcript', () => {
  it('sums each response once and takes its own cost-state figure', () => {
    const record = toUsageRecord(feed(new ClaudeTranscriptAccumulator(), lines(CLAUDE_SAMPLE)).current(), 'claude transcript');
    expect(record).toMatchObject({
      input_tokens: 1111 + 555,
      output_tokens: 222 + 66,
      cache_read_tokens: 3333 + 7777,
      cache_write_tokens: 44 + 88,
      cost_usd: 0.015306,
      cost_source: 'cli',
      model: 'claude-opus-5-5',
      context_used: 555 + 66 + 7777 + 88,
      context_window: 1_000_000,
      windows: [],
    });
  });

  it('prices its tokens as the CLI does (the table reproduces its own figure)', () => {
    const records = lines(CLAUDE_SAMPLE).filter((r) => (r as { type: string }).type !== 'cost-state');
    const record = toUsageRecord(feed(new ClaudeTranscriptAccumulator(), records).current(), 'claude transcript');
    expect(record.cost_source).toBe('estimated');
    expect(record.cost_usd).toBe(0.015306);
  });

  it('counts a message id once even when the response spans several lines', () => {
    const records = lines(CLAUDE_SAMPLE);
    const first = records.find((r) => (r as { type: string }).type === 'assistant');
    const record = feed(new ClaudeTranscriptAccumulator(), [...records, first]).current();
    expect(record.tokens.input_tokens).toBe(1111 + 555);
  });

  it('a response after the last cost-state makes the cost an estimate again', () => {
    const later = {
      type: 'assistant',
      message: { id: 'msg_later', model: 'claude-opus-5-5', usage: { input_tokens: 1000, output_tokens: 100 } },
    };
    const record = toUsageRecord(feed(new ClaudeTranscriptAccumulator(), [...lines(CLAUDE_SAMPLE), later]).current(), null);
    expect(record.cost_source).toBe('estimated');
    expect(record.cost_usd).toBe(0.015306 + (1000 * 4 + 100 * 20) / 1e6);
  });

  it('an unknown model is unpriced, not guessed', () => {
    const unknown = {
      type: 'assistant',
      message: { id: 'm1', model: 'someone-elses-model', usage: { input_tokens: 10, output_tokens: 5 } },
    };
    const record = toUsageRecord(feed(new ClaudeTranscriptAccumulator(), [unknown]).current(), null);
    expect(record).toMatchObject({ input_tokens: 10, output_tokens: 5, cost_usd: null, cost_source: 'unpriced', context_window: null });
    expect(MODEL_TABLE['someone-elses-model']).toBeUndefined();
  });
});

describe('Codex rollout log', () => {
  it('takes the running totals (cached input split off), context and both rate-limit windows', () => {
    const record = toUsageRecord(feed(new CodexRolloutAccumulator(), lines(CODEX_SAMPLE)).current(), 'codex rollout');
    expect(record).toMatchObject({
      input_tokens: 1111 + 5555 - (333 + 777),
      cache_read_tokens: 333 + 777,
      output_tokens: 222 + 66,
      cache_write_tokens: 0,
      cost_usd: null,
      cost_source: 'unpriced',
      model: 'switchboard-mock',
      context_used: 5555 + 66,
      context_window: 258_400,
    });
    expect(record.windows).toEqual([
      { name: '5h', used_percent: 81, resets_at: new Date(1795950000 * 1000).toISOString() },
      { name: 'weekly', used_percent: 9, resets_at: new Date(1796500000 * 1000).toISOString() },
    ]);
  });
});

describe('pi session file', () => {
  it("sums its assistant messages' usage and takes its own cost (models.json prices 3 / 15 USD per million)", () => {
    const record = toUsageRecord(feed(new PiSessionAccumulator(), lines(PI_SAMPLE)).current(), 'pi session');
    expect(record).toMatchObject({
      input_tokens: 613 + 643,
      output_tokens: 7 + 13,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      cost_usd: 0.004068,
      cost_source: 'cli',
      model: 'switchboard-mock',
      context_used: 643 + 13,
      context_window: null,
      windows: [],
    });
  });

  it('counts an entry id once', () => {
    const records = lines(PI_SAMPLE);
    const first = records.find((r) => (r as { message?: { role: string } }).message?.role === 'assistant');
    expect(feed(new PiSessionAccumulator(), [...records, first]).current().tokens.input_tokens).toBe(613 + 643);
  });
});

describe('opencode step records', () => {
  const steps = () => (JSON.parse(readFileSync(OPENCODE_SAMPLE, 'utf8')) as Array<{ step: Record<string, unknown> }>).map((p) => p.step);

  it("sums its steps' tokens and takes its own cost", () => {
    const record = toUsageRecord(feed(new OpencodeStepAccumulator(), steps()).current(), 'opencode steps');
    expect(record).toEqual({
      input_tokens: 2464 + 2534,
      output_tokens: 16 + 16,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      cost_usd: 0.007632 + 0.007842,
      cost_source: 'cli',
      context_used: 2534 + 16,
      context_window: null,
      windows: [],
      model: 'switchboard-mock',
      source: 'opencode steps',
    });
  });

  it('counts a step once, reasoning as output, and skips records that are not steps', () => {
    const [first] = steps();
    const reasoned = {
      ...first,
      id: 'prt_reasoned',
      tokens: { input: 10, output: 5, reasoning: 7, cache: { read: 300, write: 40 } },
      cost: 0.5,
    };
    const record = feed(new OpencodeStepAccumulator(), [
      first,
      first,
      reasoned,
      { id: 'prt_x' },
      'nonsense',
      { id: 'x'.repeat(300), tokens: {} },
    ]).current();
    expect(record.tokens).toEqual({ input_tokens: 2464 + 10, output_tokens: 16 + 5 + 7, cache_read_tokens: 300, cache_write_tokens: 40 });
    expect(record.cliCostUsd).toBe(0.007632 + 0.5);
    expect(record.contextUsed).toBe(10 + 12 + 300 + 40);
  });
});

describe('Copilot CLI session events', () => {
  it('sums its usage records as its shutdown summary does; its cost is no USD figure, so an unknown model is unpriced', () => {
    const records = lines(COPILOT_SAMPLE);
    const record = toUsageRecord(feed(new CopilotEventsAccumulator(), records).current(), 'copilot session events');
    expect(record).toEqual({
      input_tokens: 5542 + 5626,
      output_tokens: 16 + 16,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      cost_usd: null,
      cost_source: 'unpriced',
      context_used: 5626 + 16,
      context_window: 128_000,
      windows: [],
      model: 'switchboard-mock',
      source: 'copilot session events',
    });
    const shutdown = records.at(-1) as { type: string; data: { modelMetrics: Record<string, { usage: { inputTokens: number } }> } };
    expect(shutdown.type).toBe('session.shutdown');
    expect(shutdown.data.modelMetrics['switchboard-mock'].usage.inputTokens).toBe(record.input_tokens);
  });

  it('splits cache read and write off the input, counts an event once, and prices a known model', () => {
    const usage = {
      model: 'claude-haiku-4-5',
      inputTokens: 1000,
      outputTokens: 50,
      cacheReadTokens: 600,
      cacheWriteTokens: 100,
      reasoningTokens: 20,
    };
    const event = { type: 'session.usage_record', id: 'e1', data: { usage } };
    const read = feed(new CopilotEventsAccumulator(), [event, event, { type: 'assistant.usage', id: 'e2', data: usage }]).current();
    expect(read.tokens).toEqual({ input_tokens: 300, output_tokens: 50, cache_read_tokens: 600, cache_write_tokens: 100 });
    expect(toUsageRecord(read, null).cost_source).toBe('estimated');
  });
});

describe('Qwen Code chat recording', () => {
  // The shape recordAssistantTurn writes (Qwen Code 0.24.4); the live test reads the real file.
  const assistant = (uuid: string, prompt: number, cached: number, candidates: number, thoughts: number) => ({
    uuid,
    sessionId: '5f0c2a8e-1b7d-4c3a-9e2f-0a1b2c3d4e5f',
    type: 'assistant',
    cwd: '/home/dev/project',
    model: 'switchboard-mock',
    usageMetadata: {
      promptTokenCount: prompt,
      cachedContentTokenCount: cached,
      candidatesTokenCount: candidates,
      thoughtsTokenCount: thoughts,
    },
    contextWindowSize: 131072,
  });

  it('splits the cached part off the prompt, counts thoughts as output, once per record, unpriced', () => {
    const records = [{ type: 'user', uuid: 'u1' }, assistant('a1', 1111, 333, 222, 11), assistant('a2', 5555, 777, 66, 0)];
    const record = toUsageRecord(feed(new QwenChatAccumulator(), [...records, records[1]]).current(), 'qwen chat recording');
    expect(record).toMatchObject({
      input_tokens: 1111 - 333 + 5555 - 777,
      cache_read_tokens: 333 + 777,
      output_tokens: 222 + 11 + 66,
      cache_write_tokens: 0,
      cost_usd: null,
      cost_source: 'unpriced',
      context_used: 5555 + 66,
      context_window: 131072,
    });
  });
});

describe('Gemini CLI chat recording', () => {
  it('sums each response once (a message appended again with its tool calls is not), cached part split off, thoughts as output', () => {
    const records = lines(GEMINI_SAMPLE);
    expect(records.filter((r) => (r as { type?: string }).type === 'gemini')).toHaveLength(3);
    const record = toUsageRecord(feed(new GeminiChatAccumulator(), records).current(), 'gemini chat recording');
    expect(record).toEqual({
      input_tokens: 191 - 123 + (314 - 234),
      cache_read_tokens: 123 + 234,
      output_tokens: 19 + 11 + 6 + 7,
      cache_write_tokens: 0,
      cost_usd: null,
      cost_source: 'unpriced',
      context_used: 314 + 6,
      context_window: 1_048_576,
      windows: [],
      model: 'gemini-2.5-flash',
      source: 'gemini chat recording',
    });
  });

  it('counts tokens attached to a message later, once; tool-use prompt tokens are input; Gemma 4 has its own window', () => {
    const message = { id: 'm1', type: 'gemini', content: 'Hi', model: 'gemma-4-31b-it' };
    const tokens = { input: 1000, output: 20, cached: 400, thoughts: 5, tool: 30, total: 1055 };
    const read = feed(new GeminiChatAccumulator(), [
      { ...message, tokens: null },
      { ...message, tokens },
      { ...message, tokens, toolCalls: [] },
      { id: 'u1', type: 'user', tokens },
    ]).current();
    expect(read.tokens).toEqual({ input_tokens: 1000 + 30 - 400, cache_read_tokens: 400, output_tokens: 25, cache_write_tokens: 0 });
    expect(read.contextWindow).toBe(256_000);
    expect(read.contextUsed).toBe(1000 + 30 + 20);
  });
});

describe('JsonlTail', () => {
  function tempFile(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'usage-tail-'));
    dirs.push(dir);
    return path.join(dir, 'log.jsonl');
  }

  it('reads complete lines only, skips lines that are not JSON, and goes on from where it stopped', () => {
    const file = tempFile();
    writeFileSync(file, '{"a":1}\nnot json\n{"b":');
    const tail = new JsonlTail(file);
    expect(tail.read()).toEqual({ records: [{ a: 1 }], restarted: false });
    appendFileSync(file, '2}\n{"c":"é"}\n');
    expect(tail.read()).toEqual({ records: [{ b: 2 }, { c: 'é' }], restarted: false });
    expect(tail.read().records).toEqual([]);
  });

  it('a file that shrank is read again from its start', () => {
    const file = tempFile();
    writeFileSync(file, '{"a":1}\n{"a":2}\n');
    const tail = new JsonlTail(file);
    tail.read();
    writeFileSync(file, '{"x":1}\n');
    expect(tail.read()).toEqual({ records: [{ x: 1 }], restarted: true });
  });

  it('a FIFO where the file was reads as nothing, at once', () => {
    const file = tempFile();
    execFileSync('mkfifo', [file]);
    expect(new JsonlTail(file).read()).toEqual({ records: [], restarted: false });
  });

  it('a missing file reads as nothing', () => {
    expect(new JsonlTail(path.join(tmpdir(), 'no-such-usage-file.jsonl')).read()).toEqual({ records: [], restarted: false });
  });
});
