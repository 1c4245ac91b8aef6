/**
 * Claude Code's `--output-format stream-json --verbose --include-partial-messages` messages
 * (checked against 2.1.197) → TaskStreamEvents. The format has five message types:
 * - `system`: `init` (session id, model, tools), `status` (`requesting` before each model call),
 *   `api_retry`, `task_started` / `task_notification` (subagents), `compact_boundary`;
 * - `stream_event`: the raw Messages API events (`message_start`, `content_block_start` with a
 *   `tool_use` or `text` block, `content_block_delta` with `text_delta` / `input_json_delta` /
 *   `thinking_delta`, `message_delta` with the stop reason, `message_stop`);
 * - `assistant`: one complete content block of the current message, with tool inputs parsed;
 * - `user`: tool results (`tool_result` blocks), or a subagent's prompt;
 * - `result`: `success` or an `error_*` subtype (`error_max_turns`, `error_during_execution`,
 *   `error_max_budget_usd`, …) with turns, cost, usage and `errors`.
 * Every message carries `parent_tool_use_id`, non-null inside a subagent. Unknown types and
 * fields are tolerated: a newer CLI must not break the watchdog, only make it see less.
 */
import type { TaskResult, TaskUsage } from '../../../shared/task';
import type { TaskStreamEvent } from './taskEvents';

/** Bound on text kept from one message (final answers, tool result previews). */
const MAX_RESULT_TEXT_CHARS = 64 * 1024;
const TOOL_RESULT_PREVIEW_CHARS = 300;

type Json = Record<string, unknown>;

export function decodeClaudeMessage(message: Json): TaskStreamEvent[] {
  const parent = str(message.parent_tool_use_id);
  const nested = parent ? { parentToolUseId: parent } : {};
  switch (message.type) {
    case 'system':
      return decodeSystem(message);
    case 'stream_event':
      return decodeStreamEvent(obj(message.event), nested);
    case 'assistant':
      return decodeAssistant(obj(message.message), nested);
    case 'user':
      return decodeUser(obj(message.message), nested);
    case 'result':
      return [decodeResult(message)];
    default:
      return [{ type: 'activity', kind: str(message.type) ?? 'unknown', description: `${str(message.type) ?? 'untyped'} message` }];
  }
}

function decodeSystem(message: Json): TaskStreamEvent[] {
  const subtype = str(message.subtype) ?? 'unknown';
  switch (subtype) {
    case 'init':
      return [{ type: 'init', sessionId: str(message.session_id), model: str(message.model), version: str(message.claude_code_version) }];
    case 'status':
      if (message.status === 'requesting') return [{ type: 'requesting' }];
      return [{ type: 'activity', kind: 'status', description: `status: ${str(message.status) ?? 'unknown'}` }];
    case 'api_retry':
      return [
        {
          type: 'retry',
          attempt: num(message.attempt),
          maxRetries: num(message.max_retries),
          errorStatus: num(message.error_status),
          error: str(message.error),
          delayMs: num(message.retry_delay_ms),
        },
      ];
    case 'task_started':
      return [
        {
          type: 'activity',
          kind: 'subagent',
          description: `subagent started: ${str(message.description) ?? str(message.subagent_type) ?? 'task'}`,
        },
      ];
    case 'task_notification':
      return [
        {
          type: 'activity',
          kind: 'subagent',
          description: `subagent ${str(message.status) ?? 'update'}: ${str(message.summary) ?? ''}`.trim(),
        },
      ];
    case 'compact_boundary':
      return [{ type: 'activity', kind: 'compacting', description: 'compacted the conversation' }];
    default:
      return [{ type: 'activity', kind: subtype, description: `system: ${subtype}` }];
  }
}

function decodeStreamEvent(event: Json, nested: { parentToolUseId?: string }): TaskStreamEvent[] {
  switch (event.type) {
    case 'message_start':
      return [{ type: 'message_start', model: str(obj(event.message).model), ...nested }];
    case 'content_block_start': {
      const block = obj(event.content_block);
      if (block.type === 'tool_use' || block.type === 'server_tool_use') {
        return [{ type: 'tool_start', id: str(block.id) ?? `block_${String(event.index)}`, name: str(block.name) ?? 'tool', ...nested }];
      }
      if (block.type === 'thinking' || block.type === 'redacted_thinking') return [{ type: 'thinking', ...nested }];
      return [{ type: 'heartbeat', kind: 'content_block_start' }];
    }
    case 'content_block_delta': {
      const delta = obj(event.delta);
      if (delta.type === 'text_delta' && typeof delta.text === 'string') return [{ type: 'text', text: delta.text, ...nested }];
      if (delta.type === 'thinking_delta' || delta.type === 'signature_delta') return [{ type: 'thinking', ...nested }];
      return [{ type: 'heartbeat', kind: 'input_json_delta' }];
    }
    case 'message_delta': {
      const delta = obj(event.delta);
      return [{ type: 'message_end', stopReason: str(delta.stop_reason), outputTokens: num(obj(event.usage).output_tokens), ...nested }];
    }
    default:
      // content_block_stop, message_stop, ping and event types newer than this decoder.
      return [{ type: 'heartbeat', kind: str(event.type) ?? 'stream_event' }];
  }
}

function decodeAssistant(message: Json, nested: { parentToolUseId?: string }): TaskStreamEvent[] {
  const content = Array.isArray(message.content) ? (message.content as unknown[]).map(obj) : [];
  const text = content
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('');
  const toolUses = content
    .filter((b) => b.type === 'tool_use' || b.type === 'server_tool_use')
    .map((b) => ({ id: str(b.id) ?? 'tool', name: str(b.name) ?? 'tool', input: obj(b.input) }));
  return [{ type: 'assistant', messageId: str(message.id), text, toolUses, usage: usageOf(obj(message.usage)), ...nested }];
}

function decodeUser(message: Json, nested: { parentToolUseId?: string }): TaskStreamEvent[] {
  const content = Array.isArray(message.content) ? (message.content as unknown[]).map(obj) : [];
  const results: TaskStreamEvent[] = content
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({
      type: 'tool_result' as const,
      toolUseId: str(b.tool_use_id) ?? 'tool',
      isError: b.is_error === true,
      preview: clip(contentText(b.content), TOOL_RESULT_PREVIEW_CHARS),
      ...nested,
    }));
  if (results.length > 0) return results;
  return [{ type: 'activity', kind: 'user', description: nested.parentToolUseId ? 'subagent prompt' : 'user message' }];
}

function decodeResult(message: Json): TaskStreamEvent {
  const errors = Array.isArray(message.errors)
    ? (message.errors as unknown[]).filter((e): e is string => typeof e === 'string')
    : undefined;
  const subtype = str(message.subtype) ?? 'unknown';
  const result: TaskResult = {
    subtype,
    isError: message.is_error === true || subtype !== 'success',
    text: typeof message.result === 'string' ? clip(message.result, MAX_RESULT_TEXT_CHARS) : undefined,
    errors: errors && errors.length > 0 ? errors : undefined,
    numTurns: num(message.num_turns),
    costUsd: num(message.total_cost_usd),
    durationMs: num(message.duration_ms),
    stopReason: str(message.stop_reason),
    terminalReason: str(message.terminal_reason),
    permissionDenials: Array.isArray(message.permission_denials) ? message.permission_denials.length : undefined,
  };
  const usage = usageOf(obj(message.usage));
  return { type: 'result', result, sessionId: str(message.session_id), usage: usage ? fullUsage(usage) : undefined };
}

function usageOf(usage: Json): Partial<TaskUsage> | undefined {
  const u: Partial<TaskUsage> = {
    inputTokens: num(usage.input_tokens),
    outputTokens: num(usage.output_tokens),
    cacheReadInputTokens: num(usage.cache_read_input_tokens),
    cacheCreationInputTokens: num(usage.cache_creation_input_tokens),
  };
  return Object.values(u).some((v) => v !== undefined) ? u : undefined;
}

function fullUsage(u: Partial<TaskUsage>): TaskUsage {
  return {
    inputTokens: u.inputTokens ?? 0,
    outputTokens: u.outputTokens ?? 0,
    cacheReadInputTokens: u.cacheReadInputTokens ?? 0,
    cacheCreationInputTokens: u.cacheCreationInputTokens ?? 0,
  };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map(obj)
      .filter((b) => b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text as string)
      .join('\n');
  }
  return '';
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function obj(value: unknown): Json {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
