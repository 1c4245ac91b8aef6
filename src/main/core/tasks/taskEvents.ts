/**
 * What a headless agent's stream means, independent of the agent: each runner decodes its own
 * message format (Claude Code stream-json, later Codex `exec --json`, …) into these events, and
 * the phase machine and the watchdog only read these.
 */
import type { TaskResult, TaskUsage } from '../../../shared/task';

interface Nested {
  /** Set when the message comes from inside a subagent (the Task tool call it belongs to). */
  parentToolUseId?: string;
}

export type TaskStreamEvent =
  /** The agent is up: its session and model. */
  | { type: 'init'; sessionId?: string; model?: string; version?: string }
  /** A model request went out (Claude Code `system/status requesting`). */
  | ({ type: 'requesting' } & Nested)
  | ({ type: 'message_start'; model?: string } & Nested)
  | ({ type: 'text'; text: string } & Nested)
  | ({ type: 'thinking' } & Nested)
  /** The model began a tool call (its input still streaming). */
  | ({ type: 'tool_start'; id: string; name: string } & Nested)
  /** A complete assistant message (or one block of it, as Claude Code emits them with partial messages). */
  | ({
      type: 'assistant';
      messageId?: string;
      text: string;
      toolUses: Array<{ id: string; name: string; input: Record<string, unknown> }>;
      usage?: Partial<TaskUsage>;
    } & Nested)
  | ({ type: 'message_end'; stopReason?: string; outputTokens?: number } & Nested)
  | ({ type: 'tool_result'; toolUseId: string; isError: boolean; preview: string } & Nested)
  /** The agent retries a failed model request. */
  | { type: 'retry'; attempt?: number; maxRetries?: number; errorStatus?: number; error?: string; delayMs?: number }
  /** Anything else worth recording as activity (subagent start, compaction, unknown message types). */
  | { type: 'activity'; kind: string; description: string }
  /** Proof of life that says nothing new (block stops, pings, tool input streaming): resets timers only. */
  | { type: 'heartbeat'; kind: string }
  /** The agent's final report. */
  | { type: 'result'; result: TaskResult; sessionId?: string; usage?: TaskUsage };
