/**
 * The caller's worktree first (docs/runtime.md): an agent in `feature-a` that names `web` means
 * feature-a's web, and its lists show its own worktree's entries before the others. The main
 * checkout (and a caller outside Switchboard) is the worktree "main".
 */
import type { ProcessInfo } from '../../../shared/model';
import { MAIN_WORKTREE_ID } from '../../../shared/worktree';
import { InvalidArgumentError } from '../../../shared/errors';
import type { ToolCall, ToolContext } from './toolContext';

/** `worktree: "*"` on a list: every entry, in creation order. */
const ALL_WORKTREES = '*';

/** The worktree the caller runs in ("main" for the main checkout or a caller outside Switchboard). */
export function callerWorktree(ctx: ToolContext, call: ToolCall): string {
  if (call.caller.kind !== 'process') return MAIN_WORKTREE_ID;
  return ctx.core.findEntry(call.caller.processId)?.definition.worktree ?? MAIN_WORKTREE_ID;
}

function worktreeOf(info: Pick<ProcessInfo, 'worktree'>): string {
  return info.worktree ?? MAIN_WORKTREE_ID;
}

/**
 * The entries a list shows: absent `worktree`, all of them with the caller's worktree first; "*",
 * all in creation order; a worktree id, only that worktree's.
 */
export function scopedList(processes: ProcessInfo[], worktree: string | undefined, own: string): ProcessInfo[] {
  if (worktree === ALL_WORKTREES) return processes;
  if (worktree !== undefined) return processes.filter((p) => worktreeOf(p) === worktree);
  return [...processes.filter((p) => worktreeOf(p) === own), ...processes.filter((p) => worktreeOf(p) !== own)];
}

/**
 * An entry id as given, or a name resolved in `worktree`: the entry whose switchboard.json name
 * (or label) it is there. Undefined when nothing there has that name (the caller then says what
 * it does with a name, e.g. start_process starts the config entry there on demand).
 */
function resolveProcessRef(ctx: ToolContext, ref: string, worktree: string): string | undefined {
  if (ctx.core.findEntry(ref)) return ref;
  const here = ctx.core.listProcesses().filter((p) => worktreeOf(p) === worktree);
  const byConfig = here.filter((p) => p.configName === ref);
  const matches = byConfig.length > 0 ? byConfig : here.filter((p) => p.name === ref);
  if (matches.length > 1)
    throw new InvalidArgumentError(
      `"${ref}" names ${matches.length} entries in ${worktree} (${matches.map((p) => p.id).join(', ')}): pass one id`,
    );
  return matches[0]?.id;
}

/** The entry of a switchboard.json agent of that name, wherever it runs (agents are not started per worktree by name). */
function configAgentNamed(ctx: ToolContext, name: string): ProcessInfo | undefined {
  return ctx.core.listProcesses().find((p) => p.kind === 'agent' && p.configName === name);
}

/**
 * A tool's `process_id` as an entry id: names resolve in `worktree` (default: the caller's). A
 * switchboard.json name with no instance there yet stays as given when the tool starts one on
 * demand, and is otherwise refused with the way to start it.
 */
export function withResolvedProcessId<A extends { process_id?: unknown; worktree?: unknown }>(
  ctx: ToolContext,
  call: ToolCall,
  args: A,
  startsOnDemand: boolean,
): A {
  if (typeof args.process_id !== 'string') return args;
  const worktree = typeof args.worktree === 'string' ? args.worktree : callerWorktree(ctx, call);
  const id = resolveProcessRef(ctx, args.process_id, worktree);
  if (id !== undefined) return { ...args, process_id: id };
  const agent = configAgentNamed(ctx, args.process_id);
  if (agent)
    throw new InvalidArgumentError(
      `"${args.process_id}" is an agent from switchboard.json's "agents", not a process: spawn_agent {"agent": "${args.process_id}", "worktree": "${worktree}"} starts one in ${worktree} (its command, env and settings)`,
    );
  if (!startsOnDemand && ctx.core.configuredProcesses().has(args.process_id))
    throw new InvalidArgumentError(
      `"${args.process_id}" is not running in ${worktree} yet: start_process {"process_id": "${args.process_id}"} starts its own instance there`,
    );
  return args;
}
