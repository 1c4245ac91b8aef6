/**
 * A task session without a process, for unit tests of the supervisor: the test decides when a run
 * starts, what it prints (in chunks, as a PTY delivers them) and when it exits; `stop()` records
 * the kill and exits the run, as ending the tree would.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FakeObservedSession } from '../../sessions/testing/fakeObservedSession';
import type { TaskSession } from '../taskSupervisor';

export class FakeTaskSession extends FakeObservedSession implements TaskSession {
  readonly id = 'p_7a5c01';
  readonly kind = 'task' as const;
  readonly name = 'task: fake';
  readonly argv = ['claude', '-p'];
  readonly cwd = '/nonexistent/project';
  wasStopRequested = false;
  /** How many times the tree was ended. */
  stops = 0;

  override start(pid = 4242): void {
    this.wasStopRequested = false;
    super.start(pid);
  }

  /** Prints one JSON message as Claude Code does through a PTY. */
  message(value: Record<string, unknown>): void {
    this.print(`${JSON.stringify(value)}\r\n`);
  }

  /** Ends the current run; a second exit (or one with nothing running) is ignored. */
  override exit(exitCode: number, signal?: number): void {
    if (!this.isRunning) return;
    super.exit(exitCode, signal);
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
  init: (sessionId = 'sess-1') => ({
    type: 'system',
    subtype: 'init',
    session_id: sessionId,
    model: 'claude-opus-4-8',
    claude_code_version: '2.1.197',
  }),
  requesting: () => ({ type: 'system', subtype: 'status', status: 'requesting' }),
  messageStart: () => ({
    type: 'stream_event',
    event: { type: 'message_start', message: { model: 'claude-opus-4-8' } },
    parent_tool_use_id: null,
  }),
  text: (text: string) => ({
    type: 'stream_event',
    event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
    parent_tool_use_id: null,
  }),
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
  assistantText: (messageId: string, text: string) => ({
    type: 'assistant',
    message: { id: messageId, content: [{ type: 'text', text }] },
    parent_tool_use_id: null,
  }),
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
