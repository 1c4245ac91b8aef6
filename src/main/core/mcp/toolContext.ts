/**
 * What every tool gets: the one core (readiness, agents and timers are core methods too), the
 * caller's identity, the scratchpads, and the request's progress and cancellation. Tools are data (`ToolDefinition`) so the catalog, `whoami`, `help` and each
 * session's McpServer all read the same list.
 */
import type { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { SwitchboardCore } from '../app/switchboardCore';
import type { ScratchpadStore } from '../scratchpads';
import type { McpToolArgs, McpToolName } from '../../../shared/mcp';
import { SwitchboardError } from '../../../shared/errors';
import type { Caller, IdentityRegistry } from './identity';

export interface ToolContext {
  core: SwitchboardCore;
  identity: IdentityRegistry;
  scratchpads: ScratchpadStore;
  /** Every registered tool, for whoami and help. */
  readonly tools: readonly AnyToolDefinition[];
}

/** One tools/call as a tool sees it. */
export interface ToolCall {
  caller: Caller;
  /** Name the client gave at initialize (e.g. "claude-code"), for message tags. */
  clientName?: string;
  /** Aborted when the client cancels the request or the session closes. */
  signal: AbortSignal;
  /** Sends an MCP progress notification when the client asked for progress; otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): void;
  readonly hasProgress: boolean;
}

export interface ToolDefinition<N extends McpToolName> {
  name: N;
  /**
   * Only for tools outside SPEC §5's table (benchmarks, diagnostics): their own input shape. The
   * spec's tools always use the shared schema of their name in src/shared/mcp.ts.
   */
  inputShape?: z.ZodRawShape;
  title: string;
  /** What the tool does and returns, written for an agent deciding whether to call it. */
  description: string;
  annotations?: ToolAnnotations;
  run(args: McpToolArgs<N>, call: ToolCall, ctx: ToolContext): Promise<object> | object;
}

// Tools with different argument types share one list; each was checked against its schema by defineTool.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<any>;

/** Identity function that keeps the argument type of each tool tied to its schema. */
export function defineTool<N extends McpToolName>(definition: ToolDefinition<N>): ToolDefinition<N> {
  return definition;
}

export class NotAvailableError extends SwitchboardError {
  constructor(what: string) {
    super('internal', `${what} is not available yet in this build of Switchboard.`);
  }
}

export class WrongKindError extends SwitchboardError {
  constructor(message: string) {
    super('wrong_kind', message);
  }
}

/** The caller's own entry id, or an error telling an external caller to name one. */
export function callerProcessId(call: ToolCall, parameter: string): string {
  if (call.caller.kind === 'process') return call.caller.processId;
  throw new SwitchboardError('invalid_argument', `You are not a process started by Switchboard, so pass ${parameter}`);
}

/** "[from reviewer (p_3f9a2c)]" — how a message's sender is named to its recipient. */
export function senderTag(ctx: ToolContext, call: ToolCall): string {
  if (call.caller.kind === 'process') {
    const id = call.caller.processId;
    const name = ctx.core.sessions.find(id)?.name ?? 'closed process';
    return `[from ${name} (${id})]`;
  }
  return `[from ${call.clientName ?? 'external client'} (outside Switchboard)]`;
}
