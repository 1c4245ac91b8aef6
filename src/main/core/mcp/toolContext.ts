/**
 * What every tool gets: the one core (readiness, agents and timers are core methods too), the
 * caller's identity, the scratchpads, and the request's progress and cancellation. Tools are data (`ToolDefinition`) so the catalog, `whoami`, `help` and each
 * session's McpServer all read the same list.
 */
import type { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { SpawnOrigin, SwitchboardCore } from '../app';
import type { ScratchpadStore } from '../scratchpads';
import type { ProcessEntry } from '../sessions';
import type { McpToolArgs, McpToolName } from '../../../shared/mcp';
import { MissingScopeError, SwitchboardError } from '../../../shared/errors';
import { MCP_SCOPES, type McpScope } from '../../../shared/trust';
import type { Caller, IdentityRegistry } from './identity';
import type { WaitLimiter } from './waitLimit';

/** The core as the tools see it: the methods they call (each tool one, toolPairing.test.ts) and the reads of access checks. */
export type ToolCore = Pick<
  SwitchboardCore,
  | 'access'
  | 'answerPrompt'
  | 'cancelTask'
  | 'checkReady'
  | 'closeProcess'
  | 'describe'
  | 'entry'
  | 'findEntry'
  | 'getTask'
  | 'grantTrust'
  | 'issues'
  | 'listProcesses'
  | 'listWaiting'
  | 'onEvent'
  | 'previousOutput'
  | 'projectDir'
  | 'renameProcess'
  | 'requestAttention'
  | 'restartAndWait'
  | 'restartProcess'
  | 'resumeProcess'
  | 'scopesOf'
  | 'selectProcess'
  | 'sendUserTurn'
  | 'sendAutomatedTurn'
  | 'snapshot'
  | 'spawnAgent'
  | 'spawnFromConfig'
  | 'spawnProcess'
  | 'startProcess'
  | 'startTask'
  | 'statusTrackerOf'
  | 'stopProcess'
  | 'submitAfterEchoMs'
  | 'timers'
  | 'trustState'
  | 'waitForTask'
  | 'worktrees'
  | 'services'
  | 'configuredProcesses'
  | 'writeInput'
>;

export interface ToolContext {
  core: ToolCore;
  identity: IdentityRegistry;
  scratchpads: ScratchpadStore;
  /** Open wait_for_pattern calls per caller, bounded. */
  patternWaits: WaitLimiter;
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

interface ToolDefinition<N extends McpToolName> {
  name: N;
  /**
   * Only for tools outside docs/mcp.md's table (benchmarks, diagnostics): their own input shape. The
   * spec's tools always use the shared schema of their name in src/shared/mcp.ts.
   */
  inputShape?: z.ZodRawShape;
  title: string;
  /** One line for the "agent" tool profile's list: what the tool is for (help gives `description`). */
  summary: string;
  /** What the tool does and returns, written for an agent deciding whether to call it. */
  description: string;
  annotations?: ToolAnnotations;
  /** `process_id` may name a switchboard.json entry not running in the worktree yet: the tool starts it there. */
  startsByName?: boolean;
  /**
   * The right a call needs beyond what every token may do, declared by every tool (there is no
   * default: a tool without it does not compile). docs/mcp.md, "Rights per tool", lists them.
   */
  requires: ToolRight<N>;
  run(args: McpToolArgs<N>, call: ToolCall, ctx: ToolContext): Promise<object> | object;
}

/**
 * What a tool needs: `open` (every token; its text says what keeps that safe: status only, the
 * caller's own things, or a new entry of its own), a scope whatever the arguments (the "agent"
 * profile leaves the tool out of a list without it), the app token only (`appOnly`: the refusal a
 * process token gets; never listed for a process), or the rights on what the arguments name,
 * checked before `run` (`perCall`).
 */
type ToolRight<N extends McpToolName> =
  | { open: string }
  | { scope: McpScope; action: string }
  | { appOnly: string }
  | { perCall(args: McpToolArgs<N>, call: ToolCall, ctx: ToolContext): readonly Requirement[] };

// Tools with different argument types share one list; each was checked against its schema by defineTool.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<any>;

/** Identity function that keeps the argument type of each tool tied to its schema. */
export function defineTool<N extends McpToolName>(definition: ToolDefinition<N>): ToolDefinition<N> {
  return definition;
}

/** The right a call needs on an entry: each maps to the scope that grants it on entries the caller does not own. */
type EntryRight = 'read' | 'input' | 'control';

/**
 * One check of a call: a right on an entry (`undefined`: the caller's own, nothing to check), a
 * scope, or managing a worktree (its creator does; others need worktrees:manage-all).
 */
export type Requirement =
  | { entry: string | undefined; right: EntryRight; action: string }
  | { scope: McpScope; action: string }
  | { worktree: string; action: string };

const SCOPE_FOR_RIGHT: Readonly<Record<EntryRight, McpScope>> = {
  read: 'entries:read-all',
  input: 'entries:input-all',
  control: 'entries:control-all',
};

/**
 * Refuses a call the caller's token has no right to, naming the missing scope. The app token
 * (a person's client, the UI) has every right; a process token owns itself and what it spawned.
 */
function assertAllowed(ctx: ToolContext, call: ToolCall, requirement: Requirement): void {
  const refusal = refusalOf(ctx, call, requirement);
  if (refusal) throw refusal;
}

/** Whether the caller has the right (a tool that withholds part of its answer asks this). */
export function isAllowed(ctx: ToolContext, call: ToolCall, requirement: Requirement): boolean {
  return refusalOf(ctx, call, requirement) === undefined;
}

function refusalOf(ctx: ToolContext, call: ToolCall, requirement: Requirement): MissingScopeError | undefined {
  if (call.caller.kind !== 'process') return undefined;
  const callerId = call.caller.processId;
  const scopes = scopesOf(ctx, call.caller);
  if ('scope' in requirement)
    return scopes.includes(requirement.scope) ? undefined : new MissingScopeError(requirement.scope, requirement.action);
  if ('worktree' in requirement) {
    if (ctx.core.worktrees.manager.creatorOf(requirement.worktree) === callerId || scopes.includes('worktrees:manage-all'))
      return undefined;
    return new MissingScopeError(
      'worktrees:manage-all',
      `${requirement.action} worktree "${requirement.worktree}", which you did not create, needs it`,
    );
  }
  if (requirement.entry === undefined) return undefined;
  const target = ctx.core.entry(requirement.entry); // an unknown id is an unknown_process error, not a scope error
  if (ctx.core.access.owns(callerId, target.id) || isOwnWorktreeInstance(ctx, callerId, target, requirement.right)) return undefined;
  const scope = SCOPE_FOR_RIGHT[requirement.right];
  if (scopes.includes(scope)) return undefined;
  return new MissingScopeError(scope, `${requirement.action} "${target.name}" (${target.id}), which you did not spawn, needs it`);
}

/**
 * An agent in a worktree reads and controls that worktree's own app: the instances of
 * switchboard.json's processes running there (docs/runtime.md), never another worktree's, and it
 * types into none of them without entries:input-all.
 */
function isOwnWorktreeInstance(ctx: ToolContext, callerId: string, target: ProcessEntry, right: EntryRight): boolean {
  const worktree = ctx.core.findEntry(callerId)?.definition.worktree;
  return (
    right !== 'input' && worktree !== undefined && target.definition.worktree === worktree && target.definition.configName !== undefined
  );
}

/** The scopes a caller holds: all of them for the app token, its entry's for a process token. */
function scopesOf(ctx: Pick<ToolContext, 'core'>, caller: Caller): readonly McpScope[] {
  if (caller.kind !== 'process') return MCP_SCOPES;
  return ctx.core.findEntry(caller.processId) ? ctx.core.scopesOf(caller.processId) : [];
}

/** Whether the caller may call the tool at all (arguments aside): what the "agent" profile lists. */
export function mayCall(ctx: Pick<ToolContext, 'core'>, caller: Caller, tool: AnyToolDefinition): boolean {
  if (caller.kind !== 'process') return true;
  const right: ToolRight<McpToolName> = tool.requires;
  if ('appOnly' in right) return false;
  return !('scope' in right) || scopesOf(ctx, caller).includes(right.scope);
}

/** The checks every call passes before its tool runs: the tool's declared right, with its arguments. */
export function assertMayRun(ctx: ToolContext, call: ToolCall, tool: AnyToolDefinition, args: unknown): void {
  const right: ToolRight<McpToolName> = tool.requires;
  if ('appOnly' in right) {
    if (call.caller.kind !== 'external') throw new SwitchboardError('forbidden', right.appOnly);
  } else if ('scope' in right) assertAllowed(ctx, call, right);
  else if ('perCall' in right) for (const requirement of right.perCall(args as never, call, ctx)) assertAllowed(ctx, call, requirement);
}

/** An entry a process spawns through a tool is its own. */
export function spawnOrigin(call: ToolCall): SpawnOrigin {
  return call.caller.kind === 'process' ? { spawnedBy: call.caller.processId } : {};
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
  return `[from ${senderName(ctx, call)}]`;
}

/** "reviewer (p_3f9a2c)", "my-script (outside Switchboard)". */
export function senderName(ctx: ToolContext, call: ToolCall): string {
  if (call.caller.kind !== 'process') return `${call.clientName ?? 'external client'} (outside Switchboard)`;
  const id = call.caller.processId;
  return `${ctx.core.findEntry(id)?.name ?? 'closed process'} (${id})`;
}
