/**
 * A task session without a process, for unit tests of the supervisor: the test decides when a run
 * starts, what it prints (in chunks, as a PTY delivers them) and when it exits; `stop()` records
 * the kill and exits the run, as ending the tree would.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Emitter, type Event } from '../../base/lifecycle';
import type { OutputChunk, RunExited, RunStarted, ScreenView } from '../../sessions/types';
import type { TaskSession } from '../taskSupervisor';

const NO_SCREEN: ScreenView = {
  cols: 120,
  rows: 40,
  title: '',
  getVisibleLines: () => [],
  getCursor: () => ({ x: 0, y: 0 }),
  onDidChange: new Emitter<void>().event,
  onDidChangeTitle: new Emitter<string>().event,
};

export class FakeTaskSession implements TaskSession {
  readonly id = 'p_7a5c01';
  readonly kind = 'task' as const;
  readonly name = 'task: fake';
  readonly argv = ['claude', '-p'];
  readonly cwd = '/nonexistent/project';
  readonly screen = NO_SCREEN;
  runId = 0;
  pid: number | undefined;
  isRunning = false;
  wasStopRequested = false;
  /** How many times the tree was ended. */
  stops = 0;
  private offset = 0;

  private readonly output = new Emitter<OutputChunk>();
  private readonly started = new Emitter<RunStarted>();
  private readonly exited = new Emitter<RunExited>();
  readonly onOutput: Event<OutputChunk> = this.output.event;
  readonly onRunStarted: Event<RunStarted> = this.started.event;
  readonly onRunExited: Event<RunExited> = this.exited.event;

  start(pid = 4242): void {
    this.runId += 1;
    this.pid = pid;
    this.isRunning = true;
    this.wasStopRequested = false;
    this.started.fire({ runId: this.runId, pid, at: Date.now(), offset: this.offset });
  }

  print(text: string): void {
    const data = Buffer.from(text);
    const start = this.offset;
    this.offset += data.length;
    this.output.fire({ data, text, start, end: this.offset, runId: this.runId });
  }

  /** Prints one JSON message as Claude Code does through a PTY. */
  message(value: Record<string, unknown>): void {
    this.print(`${JSON.stringify(value)}\r\n`);
  }

  exit(exitCode: number, signal?: number): void {
    if (!this.isRunning) return;
    this.isRunning = false;
    this.pid = undefined;
    this.exited.fire({ runId: this.runId, exitCode, signal, at: Date.now() });
  }

  async stop(): Promise<void> {
    if (!this.isRunning) return;
    this.stops += 1;
    this.wasStopRequested = true;
    this.exit(0, 15);
  }
}

/** A real PTY capture of Claude Code from test/tasks/fixtures (origin in that folder's README). */
export function readCapture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../../../test/tasks/fixtures/${name}.pty.txt`, import.meta.url)), 'utf8');
}

/** Minimal Claude Code stream-json messages (2.1.197 shapes) for hand-written scenarios. */
export const claudeMessages = {
  init: (sessionId = 'sess-1') => ({ type: 'system', subtype: 'init', session_id: sessionId, model: 'claude-opus-4-8', claude_code_version: '2.1.197' }),
  requesting: () => ({ type: 'system', subtype: 'status', status: 'requesting' }),
  messageStart: () => ({ type: 'stream_event', event: { type: 'message_start', message: { model: 'claude-opus-4-8' } }, parent_tool_use_id: null }),
  text: (text: string) => ({ type: 'stream_event', event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, parent_tool_use_id: null }),
  toolStart: (id: string, name: string) => ({
    type: 'stream_event',
    event: { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id, name, input: {} } },
    parent_tool_use_id: null,
  }),
  assistantTool: (messageId: string, id: string, name: string, input: Record<string, unknown>) => ({
    type: 'assistant',
    message: { id: messageId, content: [{ type: 'tool_use', id, name, input }] },
    parent_tool_use_id: null,
  }),
  assistantText: (messageId: string, text: string) => ({ type: 'assistant', message: { id: messageId, content: [{ type: 'text', text }] }, parent_tool_use_id: null }),
  toolResult: (id: string, content = 'ok', isError = false) => ({
    type: 'user',
    message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content, is_error: isError }] },
    parent_tool_use_id: null,
  }),
  result: (overrides: Record<string, unknown> = {}) => ({
    type: 'result',
    subtype: 'success',
    is_error: false,
    num_turns: 2,
    result: 'All done.',
    total_cost_usd: 0.0175,
    session_id: 'sess-1',
    usage: { input_tokens: 3387, output_tokens: 23, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    ...overrides,
  }),
};
