/**
 * What every tool gets: the one core, the caller's identity, the scratchpads, the capabilities
 * built by other parts of the app (readiness, agents, timers), and the request's progress and
 * cancellation. Tools are data (`ToolDefinition`) so the catalog, `whoami`, `help` and each
 * session's McpServer all read the same list.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { SwitchboardCore } from '../app/switchboardCore';
import type { ScratchpadStore } from '../scratchpads';
import type { ProcessInfo } from '../../../shared/model';
import type { ReadinessCheck, ReadinessProgress, ReadinessResult } from '../../../shared/ready';
import type { AgentHookEvent } from '../../../shared/status';
import type { McpToolArgs, McpToolName } from '../../../shared/mcp';
import { SwitchboardError } from '../../../shared/errors';
import type { Caller, IdentityRegistry } from './identity';

export interface SpawnAgentRequest {
  preset: string;
  name?: string;
  cwd?: string;
  argv?: string[];
  env?: Record<string, string>;
  instructions?: string;
  cols?: number;
  rows?: number;
}

export interface ReadinessWaitOptions {
  timeoutMs: number;
  signal: AbortSignal;
  onProgress?: (progress: ReadinessProgress) => void;
}

/**
 * Behaviour owned by other capabilities, wired in by createCore. A missing one makes its tools
 * answer "not available" instead of guessing.
 */
export interface McpCapabilities {
  readiness?: {
    /** Resolves with the readiness result of the entry's current run (SPEC §3.5). */
    waitForReady(id: string, options: ReadinessWaitOptions): Promise<ReadinessResult>;
    check(id: string): ReadinessCheck;
  };
  /** Creates and starts an agent from a preset; instructions are typed once it is ready. */
  spawnAgent?(request: SpawnAgentRequest): Promise<ProcessInfo>;
  /** Hands a structured agent hook (Claude Code HTTP hooks) to the entry's status tracker. */
  applyHookEvent?(processId: string, event: AgentHookEvent): void;
  /** Extra fields for get_project_status (timers, …). */
  projectExtras?(caller: Caller): Record<string, unknown>;
}

export interface ToolContext {
  core: SwitchboardCore;
  identity: IdentityRegistry;
  scratchpads: ScratchpadStore;
  capabilities: McpCapabilities;
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
  title: string;
  /** What the tool does and returns, written for an agent deciding whether to call it. */
  description: string;
  annotations?: ToolAnnotations;
  run(args: McpToolArgs<N>, call: ToolCall, ctx: ToolContext): Promise<object> | object;
}

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
